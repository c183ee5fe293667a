package io.headroom.drain;

/**
 * Where a drain is. It starts MARKING, waits for the marked pods' jobs to finish, lowers replicas,
 * and ends in one of four honest states (design.md §5).
 */
public enum DrainPhase {
    /** Marking the chosen pods (lowest deletion cost, drain annotation). */
    MARKING,
    /** Marked; waiting for their in-flight jobs to reach 0 or the deadline. */
    WAITING,
    /** A replace drain asked for one more replica and waits for the new pod to be ready. */
    REPLACING,
    /** A replace drain evicts the hung pod (refusals retried), then lowers replicas back. */
    EVICTING,
    /** Replicas lowered; waiting for exactly the marked pods to go. */
    SCALING,
    /** The marked pods went and replicas are at the target. */
    COMPLETED,
    /** The deadline passed with jobs still running; nothing scaled, marks removed. */
    TIMED_OUT,
    /** Stopped before the end: the operator, a freeze, someone else scaling, a pod that went away. */
    INTERRUPTED,
    /** The cluster refused a step (marking, scaling); marks removed where possible. */
    FAILED;

    public boolean ended() {
        return this == COMPLETED || this == TIMED_OUT || this == INTERRUPTED || this == FAILED;
    }
}
