package io.headroom.prometheus;

import java.time.Duration;

/**
 * The step of a history query: about one point per pixel column, rounded up to a step a person
 * would pick (1 s, 2 s, 5 s, 10 s, 15 s, 30 s, 1 min, 2 min, 5 min, …), never below 1 s and never
 * more than {@link PrometheusClient#MAX_POINTS} points per series.
 */
public final class HistoryStep {

    /** Nice steps in seconds; beyond the last, whole days. */
    static final long[] NICE = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600,
        43_200, 86_400};

    private HistoryStep() {
    }

    /**
     * The step for drawing {@code window} across {@code pixelWidth} columns.
     *
     * @throws IllegalArgumentException for a negative window or a width below 1
     */
    public static Duration choose(Duration window, int pixelWidth) {
        if (window.isNegative()) {
            throw new IllegalArgumentException("the window cannot be negative: " + window);
        }
        if (pixelWidth < 1) {
            throw new IllegalArgumentException("pixelWidth must be >= 1, got " + pixelWidth);
        }
        double windowSeconds = window.toMillis() / 1000.0;
        double raw = windowSeconds / pixelWidth;
        long step = nice(raw);
        while (points(windowSeconds, step) > PrometheusClient.MAX_POINTS) {
            step = nice(step + 1e-9);
        }
        return Duration.ofSeconds(step);
    }

    /** Points per series of a window at a step, counting both ends. */
    public static long points(double windowSeconds, long stepSeconds) {
        return (long) Math.floor(windowSeconds / stepSeconds) + 1;
    }

    /** The smallest nice step >= raw seconds (at least 1 s). */
    static long nice(double raw) {
        for (long s : NICE) {
            if (s >= raw) {
                return s;
            }
        }
        long day = NICE[NICE.length - 1];
        return (long) Math.ceil(raw / day) * day;
    }
}
