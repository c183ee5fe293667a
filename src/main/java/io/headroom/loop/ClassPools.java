package io.headroom.loop;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.SignalName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A class's pools (decision 0029), as the loop places its replicas across them: each pool's spec and the
 * workload that is it, in preference order, and how long placement waits before and after a pool is
 * unavailable. A class with one pool has none of these ({@link WorkloadClass#pools()} is null).
 */
public record ClassPools(List<Pool> pools, Placement.Timing timing) {

    /**
     * One pool: what placement knows of it, the Deployment it scales, and the signal its broker's failed
     * acquisitions per second are read as with the class's signals (null: none, its pods alone tell).
     */
    public record Pool(Placement.PoolSpec spec, WorkloadRef target, SignalName failedAcquisitions) {
        public Pool {
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(target, "target");
        }

        /** A pool without a broker figure. */
        public Pool(Placement.PoolSpec spec, WorkloadRef target) {
            this(spec, target, null);
        }

        public String name() {
            return spec.name();
        }
    }

    public ClassPools {
        pools = List.copyOf(pools);
        Objects.requireNonNull(timing, "timing");
        if (pools.isEmpty()) {
            throw new IllegalArgumentException("a class placed across pools needs at least one pool");
        }
        Set<String> names = new HashSet<>();
        for (Pool p : pools) {
            if (!names.add(p.name())) {
                throw new IllegalArgumentException("two pools named '" + p.name() + "'");
            }
        }
    }

    /** The pools' specs, in preference order. */
    public List<Placement.PoolSpec> specs() {
        List<Placement.PoolSpec> out = new ArrayList<>(pools.size());
        pools.forEach(p -> out.add(p.spec()));
        return out;
    }

    /** The workloads, in preference order. */
    public List<WorkloadRef> targets() {
        List<WorkloadRef> out = new ArrayList<>(pools.size());
        pools.forEach(p -> out.add(p.target()));
        return out;
    }

    /** The pool that scales {@code ref}, or null. */
    public Pool poolOf(WorkloadRef ref) {
        for (Pool p : pools) {
            if (p.target().equals(ref)) {
                return p;
            }
        }
        return null;
    }

    /** The pool named {@code name}, or null. */
    public Pool pool(String name) {
        for (Pool p : pools) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }
}
