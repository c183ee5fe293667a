package io.headroom.metrics;

/**
 * A metrics source's connection state for the top bar: whether the last requests succeeded,
 * a sentence on it, and what is unsafe about the connection (shown as a warning).
 *
 * @param insecure       TLS verification is off
 * @param clearTextCredentials credentials go over plain http:// (explicitly allowed)
 */
public record MetricsHealth(State state, String detail, boolean insecure, boolean clearTextCredentials) {

    public MetricsHealth(State state, String detail, boolean insecure) {
        this(state, detail, insecure, false);
    }

    /** The warnings the top bar shows, empty when the connection is safe. */
    public java.util.List<String> warnings() {
        java.util.List<String> w = new java.util.ArrayList<>();
        if (insecure) {
            w.add("TLS verification is OFF for Prometheus (insecureSkipVerify)");
        }
        if (clearTextCredentials) {
            w.add("Prometheus credentials go in clear text over http:// (allowInsecureCredentials)");
        }
        return w;
    }

    /** UNKNOWN before the first request; FAILING while requests fail (not for empty results). */
    public enum State { UNKNOWN, OK, FAILING }

    public static MetricsHealth ok(String detail) {
        return new MetricsHealth(State.OK, detail, false);
    }
}
