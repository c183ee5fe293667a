package io.headroom.whatif;

import java.util.Arrays;

/**
 * The recent load of one class, as the charts hold it: arrival rate and mean service time over
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
