package io.headroom.whatif;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import java.util.Arrays;

/**
 * The recent load of one class, from its domain history: arrival rate and mean service time over
 * time (epoch seconds, NaN where unknown), and the queue and replicas at the start of the window.
 */
public record LoadHistory(double[] times, double[] arrivalRate, double[] meanServiceSeconds, double queueAtStart,
                          int replicasAtStart) {

    public LoadHistory {
        if (times.length != arrivalRate.length || times.length != meanServiceSeconds.length) {
            throw new IllegalArgumentException("times, arrivals and service times must be as long as each other");
        }
        times = times.clone();
        arrivalRate = arrivalRate.clone();
        meanServiceSeconds = meanServiceSeconds.clone();
        if (replicasAtStart < 0) {
            throw new IllegalArgumentException("replicas cannot be negative");
        }
    }

    /**
     * The last {@code seconds} of a class's history, up to its newest point: a copy, safe to hand
     * to another thread. Replicas are the workload's own count (not capacity over slots per
     * replica); the queue and replicas at the start are the window's first known values (0 when
     * none is known). An empty or null history gives an empty load, which {@link Replay} refuses.
     */
    public static LoadHistory of(ClassHistory history, double seconds) {
        if (history == null) {
            return new LoadHistory(new double[0], new double[0], new double[0], 0, 0);
        }
        return of(history.last(seconds));
    }

    /**
     * The class's load with {@code from <= t <= to} (a pinned window), as {@link #of(ClassHistory, double)}
     * takes the last seconds.
     */
    public static LoadHistory of(ClassHistory history, double from, double to) {
        if (history == null) {
            return new LoadHistory(new double[0], new double[0], new double[0], 0, 0);
        }
        return of(history.window(from, to));
    }

    private static LoadHistory of(ClassHistory.Window w) {
        double queue = firstKnown(w.values(Series.QUEUE_LENGTH));
        double replicas = firstKnown(w.values(Series.REPLICAS));
        return new LoadHistory(w.times(), w.values(Series.ARRIVAL_RATE), w.values(Series.MEAN_SERVICE),
                Double.isFinite(queue) ? Math.max(0, queue) : 0,
                Double.isFinite(replicas) ? (int) Math.max(0, Math.round(replicas)) : 0);
    }

    private static double firstKnown(double[] values) {
        for (double v : values) {
            if (Double.isFinite(v)) {
                return v;
            }
        }
        return Double.NaN;
    }

    /** Seconds from the first point to the last; 0 with fewer than two points. */
    public double seconds() {
        return times.length < 2 ? 0 : times[times.length - 1] - times[0];
    }

    /** The median of the known service times; NaN when none is known. */
    public double typicalServiceSeconds() {
        double[] known = Arrays.stream(meanServiceSeconds).filter(v -> Double.isFinite(v) && v > 0).sorted().toArray();
        return known.length == 0 ? Double.NaN : known[known.length / 2];
    }
}
