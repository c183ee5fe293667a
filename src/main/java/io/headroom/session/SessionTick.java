package io.headroom.session;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.ClusterHealth;
import io.headroom.loop.TickResult;
import io.headroom.metrics.MetricsHealth;
import io.headroom.supervise.SupervisionState;
import java.util.Map;

/**
 * What the console shows for one control tick, as one immutable value computed on the session's
 * loop thread: the loop's decisions, the connections' health, whether this console may scale each
 * class (lease, RBAC, another autoscaler), what KEDA or an HPA would do, and supervised mode's state.
 *
 * <p>Supervision also changes between ticks (a command, a freeze on its own thread): the session then
 * publishes the last tick again with the newer state and {@code newTick} false, so a subscriber applies
 * one ordered stream and never has to merge two.
 *
 * @param result      the tick's decisions; null only before the first tick
 * @param newTick     true for the tick's own publication, false for a supervision change after it
 * @param access      per class: may this console scale it now
 * @param autoscalers per class: KEDA's or an HPA's view of the workload
 */
public record SessionTick(TickResult result, boolean newTick, ClusterHealth cluster, MetricsHealth metrics,
                          Map<String, ActionCheck> access, Map<String, AutoscalerView> autoscalers,
                          SupervisionState supervision) {
    public SessionTick {
        access = Map.copyOf(access);
        autoscalers = Map.copyOf(autoscalers);
    }

    /** The same tick with a newer supervision state. */
    SessionTick withSupervision(SupervisionState s) {
        return new SessionTick(result, false, cluster, metrics, access, autoscalers, s);
    }
}
