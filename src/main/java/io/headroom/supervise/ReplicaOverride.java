package io.headroom.supervise;

import java.time.Instant;

/** Replicas pinned to {@code replicas} until {@code until}; then the class's mode takes over again. */
public record ReplicaOverride(int replicas, Instant until, String reason, String by, Instant since) {
    public boolean activeAt(Instant now) {
        return now.isBefore(until);
    }
}
