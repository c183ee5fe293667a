package io.headroom.decision;

/**
 * While the {@link Signals#DEPENDENCY} signal is above {@code threshold}, no scale-up: more
 * replicas would only slow the dependency further (the amplification loop).
 */
public record DependencyGuard(double threshold, String label) {
    public DependencyGuard {
        if (!Double.isFinite(threshold)) {
            throw new IllegalArgumentException("dependency guard threshold must be a number");
        }
        if (label == null || label.isBlank()) {
            label = "dependency";
        }
    }
}
