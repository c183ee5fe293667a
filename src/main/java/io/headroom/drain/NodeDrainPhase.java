package io.headroom.drain;

/** Where a node drain is: cordoning, then draining its pods, then one of four honest end states. */
public enum NodeDrainPhase {
    /** Marking the node unschedulable. */
    CORDONING,
    /** Headroom's pods finish their work; every pod is evicted through the Eviction API, refusals retried. */
    DRAINING,
    /** Every pod the drain took left the node. The node stays cordoned until the operator uncordons it. */
    COMPLETED,
    /** The deadline passed with pods still on the node (named); marks removed, the node stays cordoned. */
    TIMED_OUT,
    /** Stopped before the end: the operator, someone uncordoning the node, the node going away. */
    INTERRUPTED,
    /** The cluster refused the cordon: nothing was evicted. */
    FAILED;

    public boolean ended() {
        return this == COMPLETED || this == TIMED_OUT || this == INTERRUPTED || this == FAILED;
    }
}
