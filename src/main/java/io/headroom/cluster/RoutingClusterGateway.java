package io.headroom.cluster;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Several clusters open at once: each class's target names its context, and every call goes to that
 * context's port. A target whose context is not open is refused (a write) or reads as empty, never guessed.
 * Applied once, where the session assembles its ports ({@link #of}); each routing port is total, so the
 * compiler makes it forward every method.
 */
public final class RoutingClusterGateway {
    private static final Logger LOG = Logger.getLogger(RoutingClusterGateway.class.getName());
    private final Map<String, ClusterPorts> byContext;

    private RoutingClusterGateway(Map<String, ClusterPorts> byContext) {
        this.byContext = byContext;
    }

    /** One set of ports over the given contexts' sets, in their order. */
    public static ClusterPorts of(Map<String, ClusterPorts> byContext) {
        if (byContext.isEmpty()) {
            throw new IllegalArgumentException("no cluster context is open");
        }
        RoutingClusterGateway r = new RoutingClusterGateway(Map.copyOf(byContext));
        ClusterPorts.Builder b = ClusterPorts.builder(String.join(", ", byContext.keySet()))
                .workloads(r.new RoutedWorkloads()).scaling(r.new RoutedScaling()).pauses(r.new RoutedPauses())
                .drainMarks(r.new RoutedMarks()).nodes(r.new RoutedNodes()).events(r.new RoutedEvents(byContext))
                .health(() -> worst(byContext.values())).closer(() -> closeAll(byContext.values()));
        return ClusterPorts.routed(b, byContext);
    }

    private <P> P port(String context, Function<ClusterPorts, P> which) {
        ClusterPorts p = byContext.get(context);
        return p == null ? null : which.apply(p);
    }

    private <P> P routeOrThrow(WorkloadRef ref, Function<ClusterPorts, P> which) {
        P p = port(ref.context(), which);
        if (p == null) {
            throw new IllegalArgumentException("context '" + ref.context() + "' of " + ref + " is not open");
        }
        return p;
    }

    private static String notOpen(String context) {
        return "context '" + context + "' is not open";
    }

    private static ScaleResult refused(WorkloadRef ref, int replicas) {
        return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, notOpen(ref.context()));
    }

    private static PodMarks.Result notOpen(WorkloadRef ref, List<String> pods) {
        return PodMarks.Result.refused(pods, notOpen(ref.context()));
    }

    private final class RoutedWorkloads implements Workloads {
        @Override
        public Optional<WorkloadState> workload(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::workloads).workload(ref);
        }

        @Override
        public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::workloads).freshWorkload(ref);
        }

        @Override
        public AutoscalerView autoscaler(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::workloads).autoscaler(ref);
        }
    }

    private final class RoutedScaling implements Scaling {
        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            Scaling s = port(ref.context(), ClusterPorts::scaling);
            return s == null ? refused(ref, replicas) : s.scale(ref, replicas, expectedResourceVersion);
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                                 Redecision.Redecider redecider, int maxAttempts) {
            Scaling s = port(ref.context(), ClusterPorts::scaling);
            return s == null ? refused(ref, replicas)
                    : s.scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                                 Redecision.Redecider redecider, int maxAttempts) {
            Scaling s = port(ref.context(), ClusterPorts::scaling);
            return s == null ? refused(ref, replicas)
                    : s.scale(ref, replicas, expectedResourceVersion, bump, redecider, maxAttempts);
        }

        @Override
        public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
            Scaling s = port(ref.context(), ClusterPorts::scaling);
            return s == null ? Optional.empty() : s.replicaBump(ref);
        }

        @Override
        public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
            return routeOrThrow(ref, ClusterPorts::scaling).dryRunScale(ref, replicas);
        }

        @Override
        public ActionCheck canScale(WorkloadRef ref) {
            Scaling s = port(ref.context(), ClusterPorts::scaling);
            return s == null ? ActionCheck.denied("scale " + ref, notOpen(ref.context())) : s.canScale(ref);
        }
    }

    private final class RoutedPauses implements Pauses {
        @Override
        public ScaleResult handBack(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::pauses).handBack(ref);
        }

        @Override
        public ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause) {
            return routeOrThrow(ref, ClusterPorts::pauses).keepPause(ref, pause);
        }

        @Override
        public ScaleResult clearPause(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::pauses).clearPause(ref);
        }

        @Override
        public ScaleResult forgetPause(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::pauses).forgetPause(ref);
        }

        @Override
        public Optional<HeadroomPause> keptPause(WorkloadRef ref) {
            Pauses p = port(ref.context(), ClusterPorts::pauses);
            return p == null ? Optional.empty() : p.keptPause(ref);
        }
    }

    private final class RoutedMarks implements DrainMarks {
        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
            DrainMarks m = port(ref.context(), ClusterPorts::drainMarks);
            return m == null ? notOpen(ref, pods) : m.markForDrain(ref, pods, drainId);
        }

        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
            DrainMarks m = port(ref.context(), ClusterPorts::drainMarks);
            return m == null ? notOpen(ref, pods) : m.markForDrain(ref, pods, drainId, expiresAt);
        }

        @Override
        public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
            DrainMarks m = port(ref.context(), ClusterPorts::drainMarks);
            return m == null ? notOpen(ref, pods) : m.unmarkDrain(ref, pods, drainId);
        }

        @Override
        public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::drainMarks).drainMarks(ref);
        }

        @Override
        public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
            DrainMarks m = port(ref.context(), ClusterPorts::drainMarks);
            return m == null ? notOpen(ref, marks.stream().map(PodMarks.Found::pod).toList())
                    : m.clearExpiredMarks(ref, marks, now);
        }
    }

    private final class RoutedNodes implements Nodes {
        @Override
        public List<NodeState> nodes(String context) {
            Nodes n = port(context, ClusterPorts::nodes);
            return n == null ? List.of() : n.nodes(context);
        }

        @Override
        public Optional<NodeState> node(NodeRef ref) {
            Nodes n = port(ref.context(), ClusterPorts::nodes);
            return n == null ? Optional.empty() : n.node(ref);
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable) {
            Nodes n = port(ref.context(), ClusterPorts::nodes);
            return n == null ? NodeResult.failed(notOpen(ref.context())) : n.cordon(ref, unschedulable);
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
            Nodes n = port(ref.context(), ClusterPorts::nodes);
            return n == null ? NodeResult.failed(notOpen(ref.context())) : n.cordon(ref, unschedulable, mark);
        }

        @Override
        public EvictionResult evict(String context, String namespace, String pod) {
            Nodes n = port(context, ClusterPorts::nodes);
            return n == null ? EvictionResult.failed(notOpen(context)) : n.evict(context, namespace, pod);
        }
    }

    private final class RoutedEvents implements TeamEvents {
        private final Map<String, ClusterPorts> ordered;

        RoutedEvents(Map<String, ClusterPorts> ordered) {
            this.ordered = ordered;
        }

        @Override
        public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
            TeamEvents e = port(ref.context(), ClusterPorts::events);
            return e == null ? EventResult.notPosted(notOpen(ref.context())) : e.postEvent(ref, event);
        }

        @Override
        public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
            TeamEvents e = port(ref.context(), ClusterPorts::events);
            return e == null ? EventResult.notPosted(notOpen(ref.context())) : e.postNodeEvent(ref, event);
        }

        /** Every open context's Headroom events, merged by time; a context that cannot be read is named. */
        @Override
        public TimelineRead teamEvents(Instant since) {
            List<TimelineEvent> events = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            boolean supported = false;
            for (Map.Entry<String, ClusterPorts> e : ordered.entrySet()) {
                TimelineRead r;
                try {
                    r = e.getValue().events().teamEvents(since);
                } catch (RuntimeException ex) {
                    r = new TimelineRead(List.of(), List.of(String.valueOf(ex.getMessage())), true);
                }
                supported |= r.supported();
                events.addAll(r.events());
                String context = e.getKey();
                r.problems().forEach(p -> problems.add(ordered.size() > 1 ? context + ": " + p : p));
            }
            events.sort(Comparator.comparing(TimelineEvent::at));
            return new TimelineRead(events, problems, supported);
        }
    }

    /**
     * The worst of the contexts' health: one disconnected cluster makes the whole bar say so; the
     * warnings (TLS verification off, plain http) of every context.
     */
    private static ClusterHealth worst(Iterable<ClusterPorts> sets) {
        ClusterHealth worst = null;
        List<String> warnings = new ArrayList<>();
        for (ClusterPorts g : sets) {
            ClusterHealth h = g.health();
            warnings.addAll(h.warnings());
            if (worst == null || !h.connected() && worst.connected() || !h.synced() && worst.synced()) {
                worst = h;
            }
        }
        return worst.withWarnings(warnings); // never null: at least one context is open
    }

    private static void closeAll(Iterable<ClusterPorts> sets) {
        for (ClusterPorts g : sets) {
            try {
                g.close();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "closing a cluster gateway failed", e);
            }
        }
    }
}
