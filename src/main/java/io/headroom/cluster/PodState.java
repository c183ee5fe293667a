package io.headroom.cluster;

import java.time.Instant;

/** One pod of a workload as the cluster reports it. {@code deletionTimestamp} is null unless terminating. */
public record PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                       String node) {
    public boolean terminating() {
        return deletionTimestamp != null;
    }
}
