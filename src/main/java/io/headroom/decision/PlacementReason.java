package io.headroom.decision;

/**
 * Why one pool got the replicas it got in a {@link Placement} (design.md §2c), as data: a code, and the
 * words the operator reads.
 */
public record PlacementReason(Code code, String words) {

    /** The placement's reasons, one or more per pool. */
    public enum Code {
        /** The first pool that can take work took what the class needs (up to its bounds). */
        PREFERRED,
        /** The pools before it took everything: this pool is given nothing. */
        NOT_NEEDED,
        /** Given the replicas the pools before it could not take (full, bounded or unavailable). */
        OVERFLOW,
        /** The pool's maxReplicas bound its share. */
        AT_MAX,
        /** The pool's own ceiling (a quota, a node group's size) bound its share. */
        AT_CEILING,
        /** A dependent pool: bounded by the replicas of the pool it depends on. */
        DEPENDENCY_BOUND,
        /**
         * New pods stayed unschedulable, or its broker failed acquisitions, past the deadline: the pool keeps
         * what runs (nothing when its broker fails), the rest moves on.
         */
        UNAVAILABLE,
        /** One pod more than the unavailable pool runs, asking whether its capacity is back. */
        PROBE,
        /** Unavailable, its capacity back now: its share does not move until the hysteresis, then in one move. */
        RECOVERING,
        /** Its capacity came back and stayed for the hysteresis: available again. */
        CAPACITY_BACK,
        /**
         * The pool's broker's failed acquisitions could not be read: not evidence either way, the pods alone
         * decide its availability.
         */
        NO_BROKER_FIGURE
    }

    public PlacementReason {
        java.util.Objects.requireNonNull(code, "code");
        java.util.Objects.requireNonNull(words, "words");
    }

    @Override
    public String toString() {
        return code + ": " + words;
    }
}
