package io.headroom.config;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A signal written once for many classes: one PromQL query whose answer has a series per value of
 * a label ({@code sum by (queue) (rate(jobs_enqueued_total[1m]))}), and the value that picks this
 * class's series ({@code queue="orders"}). The Prometheus source sends each distinct
 * {@code (promql, by)} once per tick for every class that uses it and splits the answer by
 * {@code by}; a class whose value is absent from the answer has no data (never 0).
 *
 * <p>In a workloads file: {@code arrivalRate: {grouped: "sum by (queue) (…)", by: queue, value: orders}}.
 *
 * @param promql the query, the same text in every class that shares it
 * @param by     the label that tells the classes' series apart
 * @param value  this class's value of {@code by}
 */
public record GroupedQuery(String promql, String by, String value) {

    /** A Prometheus label name; {@code __}-prefixed names are Prometheus's own. */
    static final Pattern LABEL = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    /** The longest label value a class may pick (a Kubernetes name has at most 253 characters). */
    public static final int MAX_VALUE_LENGTH = 253;

    public GroupedQuery {
        Objects.requireNonNull(promql, "promql");
        Objects.requireNonNull(by, "by");
        Objects.requireNonNull(value, "value");
        if (promql.isBlank()) {
            throw new IllegalArgumentException("a grouped query needs PromQL");
        }
        String labelProblem = labelProblem(by);
        if (labelProblem != null) {
            throw new IllegalArgumentException("by: " + labelProblem);
        }
        String valueProblem = valueProblem(value);
        if (valueProblem != null) {
            throw new IllegalArgumentException("value: " + valueProblem);
        }
    }

    /** Why {@code by} cannot group series, or null when it can. */
    static String labelProblem(String by) {
        if (!LABEL.matcher(by).matches()) {
            return "must be a Prometheus label name ([a-zA-Z_][a-zA-Z0-9_]*), got \""
                    + UntrustedText.line(by, 80) + "\"";
        }
        if (by.startsWith("__")) {
            return "labels starting with __ are Prometheus's own; group by a label the series keep";
        }
        return null;
    }

    /** Why {@code value} cannot pick a series, or null when it can. */
    static String valueProblem(String value) {
        if (value.isEmpty()) {
            return "must not be empty (a series without the label cannot be told apart)";
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            return "is " + value.length() + " characters long; at most " + MAX_VALUE_LENGTH;
        }
        if (UntrustedText.firstUnsafe(value) >= 0) {
            return "must not contain control or bidirectional characters";
        }
        return null;
    }

    /**
     * The same signal as one query for this class alone (for charts, exports and anything that
     * asks one class at a time): the grouped answer's series whose {@code by} is {@code value},
     * {@code (PROMQL) and on (by) label_replace(vector(1), "by", "value", "", "")}. It matches no
     * series when the value is absent and several when the grouped query does not aggregate by the
     * label, exactly as the split of the grouped answer does.
     */
    public String perClass() {
        return "(" + promql + ") and on (" + by + ") label_replace(vector(1), \"" + by + "\", \""
                + replacement(value) + "\", \"\", \"\")";
    }

    /** A PromQL double-quoted string of a label_replace replacement: {@code \ "} escaped, {@code $} doubled. */
    static String replacement(String value) {
        StringBuilder b = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> b.append("\\\\");
                case '"' -> b.append("\\\"");
                case '$' -> b.append("$$");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** What identifies the request: classes whose grouped queries have the same key share one. */
    public Key key() {
        return new Key(promql, by);
    }

    /** One grouped request: the query and the label its answer is split by. */
    public record Key(String promql, String by) {
    }
}
