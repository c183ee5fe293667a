package io.headroom.cluster;

import java.util.Optional;

/**
 * Port: what Headroom leaves with another autoscaler (KEDA's pause) and hands back. Clean-up, not actuation:
 * a freeze does not stop it (the lease, in the adapter, still fences it).
 */
public interface Pauses {

    /**
     * Hands a workload Headroom froze or overrode back to the autoscaler that owns it (KEDA: removes
     * {@code autoscaling.keda.sh/paused-replicas}). REFUSED when there is nothing to hand back.
     */
    ScaleResult handBack(WorkloadRef ref);

    /**
     * Leaves a pause behind for after this console exits: writes {@code pause} as annotations on the
     * workload ({@link HeadroomPause#OWNER}, {@link HeadroomPause#UNTIL}, {@link HeadroomPause#REASON})
     * and, where KEDA scales it, on the ScaledObject, whose {@code paused-replicas} is set when it is not
     * already. REFUSED by a cluster that keeps nothing once the console is gone (the sandbox).
     */
    ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause);

    /** Removes a kept pause's annotations from the workload (and its ScaledObject). APPLIED when there was none. */
    ScaleResult clearPause(WorkloadRef ref);

    /**
     * Removes Headroom's record of a pause from the workload and its ScaledObject and leaves KEDA's
     * {@code paused-replicas} as it is: the pause is the operator's from now on. APPLIED when there was none.
     */
    ScaleResult forgetPause(WorkloadRef ref);

    /**
     * The pause Headroom left on the workload, whoever left it, read from the API server (not a cache);
     * empty when there is none; throws, in words, when it cannot be read.
     */
    Optional<HeadroomPause> keptPause(WorkloadRef ref);
}
