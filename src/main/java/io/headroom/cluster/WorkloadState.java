package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/** A workload's replicas and pods at one moment; {@code resourceVersion} guards optimistic writes. */
public record WorkloadState(WorkloadRef ref, int specReplicas, int readyReplicas, String resourceVersion,
                            List<PodState> pods, Instant observedAt) {
    public WorkloadState {
        pods = List.copyOf(pods);
    }
}
