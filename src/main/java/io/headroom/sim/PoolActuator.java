package io.headroom.sim;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Placement;
import io.headroom.loop.Actuation;
import io.headroom.loop.Actuator;
import io.headroom.loop.DirectActuator;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * In a simulated run, the pools in front of the world (decision 0029): a pooled class's decided replicas are
 * placed across its pools each tick, and the world runs the pods the scheduler placed and whose broker lets
 * them work; other classes are scaled directly.
 */
final class PoolActuator implements Actuator {

    /** Sees each pooled class's placement, with the time its pools' oldest Pending pods have waited since. */
    @FunctionalInterface
    interface Listener {
        void placed(double t, String className, Placement.Result result, Map<String, Instant> pendingSince);
    }

    private final ClusterPorts cluster;
    private final DirectActuator direct;
    private final Map<String, PoolLedger> ledgers;
    private final Instant start;
    private final Listener listener;
    private Instant now;

    PoolActuator(ClusterPorts cluster, Map<String, PoolLedger> ledgers, Instant start, Listener listener) {
        this.cluster = cluster;
        this.direct = new DirectActuator(cluster);
        this.ledgers = Map.copyOf(ledgers);
        this.start = start;
        this.now = start;
        this.listener = listener;
    }

    @Override
    public void tickStarted(Instant tickAt) {
        this.now = tickAt;
    }

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState state) {
        PoolLedger ledger = ledgers.get(cls.name());
        if (ledger == null) {
            return direct.handle(cls, d, state);
        }
        double t = Duration.between(start, now).toNanos() / 1e9;
        Map<String, Instant> pendingBefore = ledger.pendingSince();
        Placement.Result r = ledger.place(d.desiredReplicas(), now, t);
        listener.placed(t, cls.name(), r, pendingBefore);
        int runs = ledger.working(t);
        if (runs == state.specReplicas()) {
            return Actuation.none(runs);
        }
        ScaleResult s = cluster.scaling().scale(cls.target(), runs, state.resourceVersion());
        int to = s.ok() ? s.replicas() : state.specReplicas();
        return new Actuation(s.ok() ? Actuation.Kind.APPLIED : Actuation.Kind.FAILED, state.specReplicas(), to,
                s.message());
    }
}
