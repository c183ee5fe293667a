package io.headroom.config;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement.PoolSpec;
import java.util.Objects;

/**
 * One pool of a class (decision 0029): what placement knows of it, the workload that is it, and the PromQL of
 * its broker's failed acquisitions per second (null: the pool has none; only its pods tell its availability).
 */
public record ClassPool(PoolSpec spec, WorkloadRef target, String failedAcquisitionsQuery) {
    public ClassPool {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(target, "target");
    }

    /** A pool without a broker figure. */
    public ClassPool(PoolSpec spec, WorkloadRef target) {
        this(spec, target, null);
    }

    /** The signal its broker figure is read as, or null when it has none. */
    public io.headroom.decision.SignalName failedAcquisitions() {
        return failedAcquisitionsQuery == null ? null : io.headroom.decision.Signals.failedAcquisitions(spec.name());
    }
}
