package io.headroom.prometheus;

import io.headroom.config.GroupedQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When each grouped signal was really sampled, per label value, in one query for every grouped
 * query of the source (the grouped counterpart of {@link SampleTimes}): for each selector of each
 * grouped query, the newest sample per value of the query's label,
 *
 * <pre>label_replace(max by (BY) (timestamp(SEL0)), "headroom_selector", "0/$1", "BY", "(.*)") or …</pre>
 *
 * so the answer's {@code headroom_selector} is {@code "<selector index>/<label value>"}. A class's
 * signal is as old as the oldest of its selectors' newest samples for its value. A selector whose
 * series do not carry the label at all ({@code "i/"}) counts for every value.
 */
final class GroupedSampleTimes {

    private final Map<GroupedQuery.Key, int[]> byQuery;
    private final String query;
    private final int maxKeyLength;

    private GroupedSampleTimes(Map<GroupedQuery.Key, int[]> byQuery, List<String[]> pairs) {
        this.byQuery = byQuery;
        StringBuilder q = new StringBuilder();
        for (int i = 0; i < pairs.size(); i++) {
            String selector = pairs.get(i)[0];
            String by = pairs.get(i)[1];
            if (i > 0) {
                q.append("\nor ");
            }
            q.append("label_replace(max by (").append(by).append(") (timestamp(").append(selector).append(")), \"")
                    .append(SampleTimes.KEY).append("\", \"").append(i).append("/$1\", \"").append(by)
                    .append("\", \"(.*)\")");
        }
        this.query = q.toString();
        this.maxKeyLength = Integer.toString(pairs.size()).length() + 1 + GroupedQuery.MAX_VALUE_LENGTH;
    }

    /** The plan for these grouped queries (each distinct one once). */
    static GroupedSampleTimes of(Collection<GroupedQuery.Key> queries) {
        List<String[]> pairs = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        Map<GroupedQuery.Key, int[]> byQuery = new LinkedHashMap<>();
        for (GroupedQuery.Key k : queries) {
            if (byQuery.containsKey(k)) {
                continue;
            }
            List<String> own = PromqlSelectors.of(k.promql());
            int[] idx = new int[own.size()];
            for (int j = 0; j < own.size(); j++) {
                String id = own.get(j) + "\u0000" + k.by();
                int at = seen.indexOf(id);
                if (at < 0) {
                    at = seen.size();
                    seen.add(id);
                    pairs.add(new String[] {own.get(j), k.by()});
                }
                idx[j] = at;
            }
            byQuery.put(k, idx);
        }
        return new GroupedSampleTimes(byQuery, pairs);
    }

    /** False when no grouped query reads a series. */
    boolean needed() {
        return !query.isEmpty();
    }

    String query() {
        return query;
    }

    /** The longest key the answer can have: "index/value". */
    int maxKeyLength() {
        return maxKeyLength;
    }

    /**
     * The sample time of a class's grouped signal given the answer ({@code "i/value"} → epoch seconds
     * of the newest sample), never later than {@code evaluatedAt}.
     */
    Instant sampledAt(GroupedQuery.Key key, String value, Map<String, Double> newest, Instant evaluatedAt) {
        int[] idx = byQuery.get(key);
        Instant oldest = null;
        if (idx != null) {
            for (int i : idx) {
                Double t = newest.get(i + "/" + value);
                if (t == null) {
                    t = newest.get(i + "/"); // the selector's series lack the label: the same for every class
                }
                if (t != null && Double.isFinite(t)) {
                    Instant at = ResponseDecoder.instant(t);
                    oldest = oldest == null || at.isBefore(oldest) ? at : oldest;
                }
            }
        }
        return oldest == null || oldest.isAfter(evaluatedAt) ? evaluatedAt : oldest;
    }
}
