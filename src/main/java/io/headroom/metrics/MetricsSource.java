package io.headroom.metrics;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signal;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/**
 * The console's one port to telemetry. The sandbox implements it for real use; the Prometheus
 * adapter implements it with PromQL. Missing data is a {@link Signal#missing} with the reason,
 * never a 0 and never an exception.
 */
public interface MetricsSource extends AutoCloseable {

    /** A short name for the top bar, e.g. "sandbox" or the Prometheus URL. */
    String name();

    /**
     * Reads every signal of each named class for one control tick.
     *
     * @return class name → signal name (see {@link io.headroom.decision.Signals}) → signal
     */
    Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now);

    /**
     * A signal's history for the charts (e.g. PromQL {@code query_range}), about one point per
     * pixel; never runs on the caller's thread. Sources without history answer "none".
     */
    default java.util.concurrent.CompletableFuture<SignalHistory> historyFor(String className, SignalName signal,
                                                                          Instant from, Instant to, int pixelWidth) {
        return java.util.concurrent.CompletableFuture.completedFuture(
                SignalHistory.none(className, signal, name() + " keeps no history"));
    }

    /**
     * A signal's past on a regular grid (history backfill): one point per {@code step} from
     * {@code from} (rounded down to a whole step) to {@code to}, NaN where there was no data, never
     * 0. Blocks the calling thread (never the FX thread) for as many requests as the source needs.
     * Sources without history answer "none".
     */
    default SignalHistory range(String className, SignalName signal, Instant from, Instant to,
                                java.time.Duration step) {
        return SignalHistory.none(className, signal, name() + " keeps no history");
    }

    /**
     * {@link #range} for many classes at once (history backfill at start): a source that can ask
     * once for many classes (a grouped Prometheus query) does; the default asks class by class.
     *
     * @return class name → its history, in the order asked
     */
    default Map<String, SignalHistory> rangeAll(Collection<String> classNames, SignalName signal, Instant from,
                                                Instant to, java.time.Duration step) {
        Map<String, SignalHistory> out = new java.util.LinkedHashMap<>();
        for (String name : classNames) {
            out.put(name, range(name, signal, from, to, step));
        }
        return out;
    }

    /**
     * Jobs in flight per pod of a class (pod name → jobs), for choosing which pods a drain takes
     * and for watching them empty. Pods the source knows nothing of are absent; a source without
     * per-pod data answers an empty map. Called on the loop's thread during drains; may block for
     * up to the source's timeout.
     */
    default Map<String, Double> inFlightByPod(String className) {
        return Map.of();
    }

    /**
     * Per pod of a class: jobs in flight and jobs finished so far, for telling a worker that is alive
     * but not making progress (STUCK). Read once a tick on the loop's thread; a source without per-pod
     * data answers an empty map (and nothing is ever flagged).
     */
    default Map<String, PodProgress> podProgress(String className) {
        return Map.of();
    }

    /** Connection state for the top bar; cheap, callable from the loop's thread. */
    default MetricsHealth health() {
        return MetricsHealth.ok(name());
    }

    @Override
    default void close() {
    }
}
