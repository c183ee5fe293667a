package io.headroom.loop;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;

/** Applies each change as soon as it is decided, guarded by the observed resourceVersion. */
public final class DirectActuator implements Actuator {
    private final ClusterPorts cluster;

    public DirectActuator(ClusterPorts cluster) {
        this.cluster = cluster;
    }

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState state) {
        if (!d.wantsChange()) {
            return Actuation.none(d.currentReplicas());
        }
        ScaleResult r = cluster.scaling().scale(cls.target(), d.desiredReplicas(), state.resourceVersion());
        return new Actuation(r.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED,
                d.currentReplicas(), r.ok() ? r.replicas() : d.currentReplicas(), r.message());
    }

    /** Writes each pool whose share moved, the pools that grow first (capacity before it is taken away). */
    @Override
    public Actuation handlePools(WorkloadClass cls, Decision d, WorkloadState state, PoolPlacement placed) {
        int from = placed.current();
        int to = from;
        StringBuilder words = new StringBuilder();
        boolean failed = false;
        for (PoolPlacement.PoolChange c : PoolPlacement.growFirst(placed.changes())) {
            ScaleResult r = cluster.scaling().scale(c.target(), c.to(), c.resourceVersion());
            to += r.ok() ? r.replicas() - c.from() : 0;
            failed |= !r.ok();
            words.append(words.length() == 0 ? "" : "; ").append(c.pool()).append(' ').append(c.from())
                    .append(" → ").append(c.to()).append(r.ok() ? "" : " failed: " + r.message());
        }
        if (words.length() == 0) {
            return Actuation.none(from);
        }
        return new Actuation(failed ? Actuation.Kind.FAILED : Actuation.Kind.APPLIED, from, to, words.toString());
    }
}
