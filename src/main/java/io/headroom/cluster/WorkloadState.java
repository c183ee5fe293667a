package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/**
 * A workload's replicas and pods at one moment; {@code resourceVersion} guards optimistic writes.
 *
 * @param generation the workload's {@code metadata.generation}, which the API server raises with every change of
 *                   its spec (replicas included) and never lowers: which of two reads is the newer, where
 *                   resourceVersions may only be compared for equality; 0 when unknown
 */
public record WorkloadState(WorkloadRef ref, int specReplicas, int readyReplicas, String resourceVersion,
                            List<PodState> pods, Instant observedAt, long generation) {
    public WorkloadState {
        pods = List.copyOf(pods);
    }

    /** A workload whose generation is not known. */
    public WorkloadState(WorkloadRef ref, int specReplicas, int readyReplicas, String resourceVersion,
                         List<PodState> pods, Instant observedAt) {
        this(ref, specReplicas, readyReplicas, resourceVersion, pods, observedAt, 0);
    }
}
