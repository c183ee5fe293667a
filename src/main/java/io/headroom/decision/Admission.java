package io.headroom.decision;

/**
 * Admission advice: whether new work can be accepted while capacity catches up.
 *
 * @param drainSecondsNow projected time to drain the backlog at ready capacity (infinite when it grows)
 * @param drainSecondsAtTarget the same at the decided capacity
 * @param sustainableArrivalRate jobs/s the decided capacity can absorb (NaN when unknown)
 */
public record Admission(State state, double drainSecondsNow, double drainSecondsAtTarget,
                        double sustainableArrivalRate, String message) {

    /** OPEN: keep accepting; THROTTLE: slow intake until capacity catches up; CLOSED: stop intake. */
    public enum State { OPEN, THROTTLE, CLOSED, UNKNOWN }

    public static Admission unknown(String message) {
        return new Admission(State.UNKNOWN, Double.NaN, Double.NaN, Double.NaN, message);
    }
}
