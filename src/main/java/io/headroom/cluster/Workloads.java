package io.headroom.cluster;

import java.util.Optional;

/**
 * Port: the workloads a cluster runs, read. A Kubernetes adapter answers from its watch cache (and the API
 * server where a cache may lag); never call it on the FX thread.
 */
public interface Workloads {

    /** The workload's current state, or empty when it does not exist. */
    Optional<WorkloadState> workload(WorkloadRef ref);

    /**
     * The workload as the cluster has it right now, for re-deciding after a conflict: a watch cache may lag
     * behind the write that conflicted, so adapters with a cache read the server; others answer {@link #workload}.
     */
    Optional<WorkloadState> freshWorkload(WorkloadRef ref);

    /** Another autoscaler (HPA, KEDA) managing the workload, in its own terms; {@code NONE} when none. */
    AutoscalerView autoscaler(WorkloadRef ref);
}
