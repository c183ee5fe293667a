package io.headroom.decision;

/**
 * What to do when a required input is missing or stale: hold current replicas; after
 * {@code failureThreshold} ticks, hold at least {@code floorReplicas} when one is configured.
 */
public record Fallback(int failureThreshold, Integer floorReplicas) {
    public Fallback {
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("fallback failureThreshold must be >= 1, got " + failureThreshold);
        }
        if (floorReplicas != null && floorReplicas < 0) {
            throw new IllegalArgumentException("fallback floorReplicas cannot be negative");
        }
    }

    public static Fallback defaults() {
        return new Fallback(3, null);
    }
}
