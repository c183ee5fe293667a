package io.headroom.cluster;

/** The outcome of a scale request, as data: applied, or why not. */
public record ScaleResult(Outcome outcome, int replicas, String message) {

    /** APPLIED: the new replica count is in place; CONFLICT: the workload moved (stale resourceVersion). */
    public enum Outcome { APPLIED, CONFLICT, REFUSED, FAILED }

    public static ScaleResult applied(int replicas) {
        return new ScaleResult(Outcome.APPLIED, replicas, "scaled to " + replicas);
    }

    public static ScaleResult of(Outcome outcome, int replicas, String message) {
        return new ScaleResult(outcome, replicas, message);
    }

    public boolean ok() {
        return outcome == Outcome.APPLIED;
    }
}
