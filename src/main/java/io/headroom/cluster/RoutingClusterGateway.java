package io.headroom.cluster;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Several clusters open at once: each class's target names its context, and every call goes to
 * that context's gateway. A target whose context is not open is refused, never guessed.
 */
public final class RoutingClusterGateway implements ClusterGateway {
    private static final Logger LOG = Logger.getLogger(RoutingClusterGateway.class.getName());
    private final Map<String, ClusterGateway> byContext = new LinkedHashMap<>();

    public RoutingClusterGateway(Map<String, ? extends ClusterGateway> gateways) {
        if (gateways.isEmpty()) {
            throw new IllegalArgumentException("no cluster context is open");
        }
        byContext.putAll(gateways);
    }

    /** The open contexts, in the order they were given. */
    public List<String> contexts() {
        return List.copyOf(byContext.keySet());
    }

    public Optional<ClusterGateway> gateway(String context) {
        return Optional.ofNullable(byContext.get(context));
    }

    @Override
    public String contextName() {
        return String.join(", ", byContext.keySet());
    }

    private ClusterGateway route(WorkloadRef ref) {
        ClusterGateway g = byContext.get(ref.context());
        if (g == null) {
            throw new IllegalArgumentException("context '" + ref.context() + "' of " + ref + " is not open");
        }
        return g;
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        return route(ref).workload(ref);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        ClusterGateway g = byContext.get(ref.context());
        if (g == null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "context '" + ref.context() + "' is not open");
        }
        return g.scale(ref, replicas, expectedResourceVersion);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             Redecision.Redecider redecider, int maxAttempts) {
        ClusterGateway g = byContext.get(ref.context());
        if (g == null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "context '" + ref.context() + "' is not open");
        }
        return g.scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
    }

    @Override
    public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? EventResult.notPosted("context '" + ref.context() + "' is not open") : g.postEvent(ref, event);
    }

    /** Every open context's Headroom events, merged by time; a context that cannot be read is named. */
    @Override
    public TimelineRead teamEvents(Instant since) {
        List<TimelineEvent> events = new java.util.ArrayList<>();
        List<String> problems = new java.util.ArrayList<>();
        boolean supported = false;
        for (Map.Entry<String, ClusterGateway> e : byContext.entrySet()) {
            TimelineRead r;
            try {
                r = e.getValue().teamEvents(since);
            } catch (RuntimeException ex) {
                r = new TimelineRead(List.of(), List.of(String.valueOf(ex.getMessage())), true);
            }
            supported |= r.supported();
            events.addAll(r.events());
            String context = e.getKey();
            r.problems().forEach(p -> problems.add(byContext.size() > 1 ? context + ": " + p : p));
        }
        events.sort(java.util.Comparator.comparing(TimelineEvent::at));
        return new TimelineRead(events, problems, supported);
    }

    @Override
    public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        return route(ref).freshWorkload(ref);
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? notOpen(ref, pods) : g.markForDrain(ref, pods, drainId);
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? notOpen(ref, pods) : g.markForDrain(ref, pods, drainId, expiresAt);
    }

    @Override
    public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? notOpen(ref, pods) : g.unmarkDrain(ref, pods, drainId);
    }

    @Override
    public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
        return route(ref).drainMarks(ref);
    }

    @Override
    public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? notOpen(ref, marks.stream().map(PodMarks.Found::pod).toList())
                : g.clearExpiredMarks(ref, marks, now);
    }

    @Override
    public List<NodeState> nodes(String context) {
        ClusterGateway g = byContext.get(context);
        return g == null ? List.of() : g.nodes(context);
    }

    @Override
    public Optional<NodeState> node(NodeRef ref) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? Optional.empty() : g.node(ref);
    }

    @Override
    public NodeResult cordon(NodeRef ref, boolean unschedulable) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? NodeResult.failed("context '" + ref.context() + "' is not open") : g.cordon(ref, unschedulable);
    }

    @Override
    public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? NodeResult.failed("context '" + ref.context() + "' is not open")
                : g.cordon(ref, unschedulable, mark);
    }

    @Override
    public EvictionResult evict(String context, String namespace, String pod) {
        ClusterGateway g = byContext.get(context);
        return g == null ? EvictionResult.failed("context '" + context + "' is not open") : g.evict(context, namespace, pod);
    }

    @Override
    public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? EventResult.notPosted("context '" + ref.context() + "' is not open")
                : g.postNodeEvent(ref, event);
    }

    private static PodMarks.Result notOpen(WorkloadRef ref, List<String> pods) {
        return PodMarks.Result.refused(pods, "context '" + ref.context() + "' is not open");
    }

    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        return route(ref).dryRunScale(ref, replicas);
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? ActionCheck.denied("scale " + ref, "context '" + ref.context() + "' is not open")
                : g.canScale(ref);
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        return route(ref).autoscaler(ref);
    }

    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        return route(ref).handBack(ref);
    }

    @Override
    public ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause) {
        return route(ref).keepPause(ref, pause);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                             Redecision.Redecider redecider, int maxAttempts) {
        ClusterGateway g = byContext.get(ref.context());
        if (g == null) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "context '" + ref.context() + "' is not open");
        }
        return g.scale(ref, replicas, expectedResourceVersion, bump, redecider, maxAttempts);
    }

    @Override
    public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? Optional.empty() : g.replicaBump(ref);
    }

    @Override
    public ScaleResult clearPause(WorkloadRef ref) {
        return route(ref).clearPause(ref);
    }

    @Override
    public ScaleResult forgetPause(WorkloadRef ref) {
        return route(ref).forgetPause(ref);
    }

    @Override
    public Optional<HeadroomPause> keptPause(WorkloadRef ref) {
        ClusterGateway g = byContext.get(ref.context());
        return g == null ? Optional.empty() : g.keptPause(ref);
    }

    /**
     * The worst of the contexts' health: one disconnected cluster makes the whole bar say so; the
     * warnings (TLS verification off, plain http) of every context.
     */
    @Override
    public ClusterHealth health() {
        ClusterHealth worst = null;
        List<String> warnings = new java.util.ArrayList<>();
        for (ClusterGateway g : byContext.values()) {
            ClusterHealth h = g.health();
            warnings.addAll(h.warnings());
            if (worst == null || !h.connected() && worst.connected() || !h.synced() && worst.synced()) {
                worst = h;
            }
        }
        return worst.withWarnings(warnings); // never null: at least one context is open
    }

    /** Health per context, for the top bar's tooltip. */
    public Map<String, ClusterHealth> healthByContext() {
        Map<String, ClusterHealth> out = new LinkedHashMap<>();
        byContext.forEach((c, g) -> out.put(c, g.health()));
        return out;
    }

    @Override
    public void close() {
        for (ClusterGateway g : byContext.values()) {
            try {
                g.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "closing a cluster gateway failed", e);
            }
        }
    }
}
