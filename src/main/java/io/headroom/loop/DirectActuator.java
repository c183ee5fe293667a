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
}
