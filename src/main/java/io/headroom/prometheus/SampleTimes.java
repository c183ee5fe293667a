package io.headroom.prometheus;

import io.headroom.decision.SignalName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When each signal of one class was really sampled. An instant query stamps its answer with the
 * evaluation time, and Prometheus keeps showing a series' last value for its lookback (5 min) when
 * no staleness marker ends it: samples with explicit timestamps, remote-written or federated
 * series whose sender stopped. So one extra query per class asks for the newest sample time of
 * every selector its signals use:
 *
 * <pre>label_replace(max(timestamp(SEL0)), "headroom_selector", "0", "", "") or …</pre>
 *
 * A signal's sample time is then the oldest of its selectors' newest samples: the signal is as old
 * as its most out-of-date input. A signal with no selectors ({@code vector(1)}) or none that answered
 * keeps the evaluation time.
 */
final class SampleTimes {

    /** The label the query puts on each selector's series. */
    static final String KEY = "headroom_selector";

    private final List<String> selectors;
    private final Map<SignalName, int[]> bySignal;
    private final String query;

    private SampleTimes(List<String> selectors, Map<SignalName, int[]> bySignal) {
        this.selectors = List.copyOf(selectors);
        this.bySignal = bySignal;
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < selectors.size(); i++) {
            if (i > 0) {
                q.append("\nor ");
            }
            q.append("label_replace(max(timestamp(").append(selectors.get(i)).append(")), \"").append(KEY)
                    .append("\", \"").append(i).append("\", \"\", \"\")");
        }
        this.query = q.toString();
    }

    /** The plan for one class's queries (signal → PromQL). */
    static SampleTimes of(Map<SignalName, String> queries) {
        List<String> selectors = new ArrayList<>();
        Map<SignalName, int[]> bySignal = new LinkedHashMap<>();
        for (Map.Entry<SignalName, String> e : queries.entrySet()) {
            List<String> own = PromqlSelectors.of(e.getValue());
            int[] idx = new int[own.size()];
            for (int k = 0; k < own.size(); k++) {
                int at = selectors.indexOf(own.get(k));
                if (at < 0) {
                    at = selectors.size();
                    selectors.add(own.get(k));
                }
                idx[k] = at;
            }
            bySignal.put(e.getKey(), idx);
        }
        return new SampleTimes(selectors, bySignal);
    }

    /** False when no signal of the class reads a series (nothing to ask). */
    boolean needed() {
        return !selectors.isEmpty();
    }

    /** The one query for the whole class. */
    String query() {
        return query;
    }

    List<String> selectors() {
        return selectors;
    }

    /**
     * A signal's sample time given the answer ({@code KEY} value → epoch seconds of the newest sample),
     * never later than {@code evaluatedAt}.
     */
    Instant sampledAt(SignalName signal, Map<String, Double> newest, Instant evaluatedAt) {
        int[] idx = bySignal.get(signal);
        Instant oldest = null;
        if (idx != null) {
            for (int i : idx) {
                Double t = newest.get(Integer.toString(i));
                if (t != null && Double.isFinite(t)) {
                    Instant at = ResponseDecoder.instant(t);
                    oldest = oldest == null || at.isBefore(oldest) ? at : oldest;
                }
            }
        }
        return oldest == null || oldest.isAfter(evaluatedAt) ? evaluatedAt : oldest;
    }
}
