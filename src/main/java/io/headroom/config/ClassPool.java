package io.headroom.config;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement.PoolSpec;
import java.util.Objects;

/** One pool of a class (decision 0029): what placement knows of it, and the workload that is it. */
public record ClassPool(PoolSpec spec, WorkloadRef target) {
    public ClassPool {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(target, "target");
    }
}
