package io.headroom.loop;

/**
 * One pod's work at a tick, as the metrics source reported it: jobs in flight now, and jobs it finished
 * over the last few minutes (the change of its completion counter over {@code overSeconds}, at most
 * {@link PodCompletions#WINDOW}). NaN is "no data" (no per-pod signal, an outage, a pod seen only once),
 * never 0.
 *
 * @param overSeconds how much time the completions cover (0 when not known yet)
 */
public record PodWork(double inFlight, double completions, long overSeconds) {

    /** Nothing known about the pod's work. */
    public static final PodWork UNKNOWN = new PodWork(Double.NaN, Double.NaN, 0);

    public boolean inFlightKnown() {
        return Double.isFinite(inFlight);
    }

    public boolean completionsKnown() {
        return Double.isFinite(completions);
    }
}
