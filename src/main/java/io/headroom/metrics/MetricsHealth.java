package io.headroom.metrics;

/**
 * A metrics source's connection state for the top bar: whether the last requests succeeded,
 * a sentence on it, and whether TLS verification is off (shown as a warning).
 */
public record MetricsHealth(State state, String detail, boolean insecure) {

    /** UNKNOWN before the first request; FAILING while requests fail (not for empty results). */
    public enum State { UNKNOWN, OK, FAILING }

    public static MetricsHealth ok(String detail) {
        return new MetricsHealth(State.OK, detail, false);
    }
}
