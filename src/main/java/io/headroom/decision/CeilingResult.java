package io.headroom.decision;

/**
 * A ceiling evaluated at one tick: its replica limit, how it was obtained, and whether it bound.
 *
 * @param fromFallback true when telemetry was missing and the conservative value was used
 */
public record CeilingResult(String name, int limit, double budget, double perReplica, boolean fromFallback,
                            boolean binding, String note) {
}
