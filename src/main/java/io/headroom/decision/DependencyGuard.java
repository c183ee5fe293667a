package io.headroom.decision;

/**
 * The concurrency governor's settings (design.md §3 step 6, the amplification loop). While the
 * {@link Signals#DEPENDENCY} signal is above {@code threshold}, no scale-up; if it stays above and
 * throughput per replica falls, replicas step down by {@code backoffRatio} (never below the last
 * count at which the dependency was healthy); once it recovers, one replica more (or fewer, while
 * the dependency still reads slower than uncongested) is tried and judged {@code probeSeconds}
 * later by throughput; a probe that did not pay goes back and doubles the wait before the next.
 *
 * @param backoffRatio the multiplicative step down, in (0, 1): 0.75 keeps three quarters
 * @param probeSeconds how long a probe runs before it is judged: longer than a pod's start-up plus
 *                     the window the completion rate is measured over
 */
public record DependencyGuard(double threshold, String label, double backoffRatio, double probeSeconds) {

    public static final double DEFAULT_BACKOFF_RATIO = 0.75;
    public static final double DEFAULT_PROBE_SECONDS = 120;

    public DependencyGuard {
        if (!Double.isFinite(threshold)) {
            throw new IllegalArgumentException("dependency guard threshold must be a number");
        }
        if (label == null || label.isBlank()) {
            label = "dependency";
        }
        if (!(backoffRatio > 0 && backoffRatio < 1)) {
            throw new IllegalArgumentException("dependency guard backoffRatio must be in (0, 1), got " + backoffRatio);
        }
        if (!(probeSeconds > 0) || probeSeconds > 86400) {
            throw new IllegalArgumentException("dependency guard probeSeconds must be in (0, 86400], got " + probeSeconds);
        }
    }

    /** A guard with the default back-off and probe. */
    public DependencyGuard(double threshold, String label) {
        this(threshold, label, DEFAULT_BACKOFF_RATIO, DEFAULT_PROBE_SECONDS);
    }
}
