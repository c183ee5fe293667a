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
                .admissions(r.new RoutedAdmissions())
                .health(() -> worst(byContext.values())).closer(() -> closeAll(byContext.values()));
        return ClusterPorts.routed(b, byContext);
    }

    private <P> P port(String context, Function<ClusterPorts, P> which) {
        ClusterPorts p = byContext.get(context);
        return p == null ? null : which.apply(p);
    }

    /** {@code call} on the port of {@code context}; {@code notOpen} when that context is not open. */
    private <P, R> R via(String context, Function<ClusterPorts, P> which, Function<P, R> call,
                         java.util.function.Supplier<R> notOpen) {
        P p = port(context, which);
        return p == null ? notOpen.get() : call.apply(p);
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
            return via(ref.context(), ClusterPorts::scaling, s -> s.scale(ref, replicas, expectedResourceVersion),
                    () -> refused(ref, replicas));
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                                 Redecision.Redecider redecider, int maxAttempts) {
            return via(ref.context(), ClusterPorts::scaling,
                    s -> s.scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts),
                    () -> refused(ref, replicas));
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                                 Redecision.Redecider redecider, int maxAttempts) {
            return via(ref.context(), ClusterPorts::scaling,
                    s -> s.scale(ref, replicas, expectedResourceVersion, bump, redecider, maxAttempts),
                    () -> refused(ref, replicas));
        }

        @Override
        public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
            return via(ref.context(), ClusterPorts::scaling, s -> s.replicaBump(ref),
                    () -> Optional.empty());
        }

        @Override
        public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
            return routeOrThrow(ref, ClusterPorts::scaling).dryRunScale(ref, replicas);
        }

        @Override
        public ActionCheck canScale(WorkloadRef ref) {
            return via(ref.context(), ClusterPorts::scaling, s -> s.canScale(ref),
                    () -> ActionCheck.denied("scale " + ref, notOpen(ref.context())));
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
            return via(ref.context(), ClusterPorts::pauses, p -> p.keptPause(ref),
                    () -> Optional.empty());
        }
    }

    private final class RoutedAdmissions implements Admissions {
        @Override
        public AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
            return via(ref.context(), ClusterPorts::admissions, a -> a.publish(ref, entry),
                    () -> AdmissionWrite.refused(notOpen(ref.context())));
        }

        @Override
        public Map<String, AdmissionWrite> refresh(String context, String namespace, List<AdmissionRefresh> entries) {
            return via(context, ClusterPorts::admissions, a -> a.refresh(context, namespace, entries), () -> {
                Map<String, AdmissionWrite> out = new java.util.LinkedHashMap<>();
                entries.forEach(e -> out.put(e.entry().className(), AdmissionWrite.refused(notOpen(context))));
                return out;
            });
        }

        @Override
        public AdmissionWrite expire(WorkloadRef ref, String className, Instant at, Instant decidedAt) {
            return via(ref.context(), ClusterPorts::admissions, a -> a.expire(ref, className, at, decidedAt),
                    () -> AdmissionWrite.refused(notOpen(ref.context())));
        }

        @Override
        public Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
            return routeOrThrow(ref, ClusterPorts::admissions).published(ref, className);
        }
    }

    private final class RoutedMarks implements DrainMarks {
        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return via(ref.context(), ClusterPorts::drainMarks, m -> m.markForDrain(ref, pods, drainId),
                    () -> notOpen(ref, pods));
        }

        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
            return via(ref.context(), ClusterPorts::drainMarks, m -> m.markForDrain(ref, pods, drainId, expiresAt),
                    () -> notOpen(ref, pods));
        }

        @Override
        public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return via(ref.context(), ClusterPorts::drainMarks, m -> m.unmarkDrain(ref, pods, drainId),
                    () -> notOpen(ref, pods));
        }

        @Override
        public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
            return routeOrThrow(ref, ClusterPorts::drainMarks).drainMarks(ref);
        }

        @Override
        public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
            return via(ref.context(), ClusterPorts::drainMarks, m -> m.clearExpiredMarks(ref, marks, now),
                    () -> notOpen(ref, marks.stream().map(PodMarks.Found::pod).toList()));
        }
    }

    private final class RoutedNodes implements Nodes {
        @Override
        public List<NodeState> nodes(String context) {
            return via(context, ClusterPorts::nodes, n -> n.nodes(context),
                    () -> List.of());
        }

        @Override
        public Optional<NodeState> node(NodeRef ref) {
            return via(ref.context(), ClusterPorts::nodes, n -> n.node(ref),
                    () -> Optional.empty());
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable) {
            return via(ref.context(), ClusterPorts::nodes, n -> n.cordon(ref, unschedulable),
                    () -> NodeResult.failed(notOpen(ref.context())));
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
            return via(ref.context(), ClusterPorts::nodes, n -> n.cordon(ref, unschedulable, mark),
                    () -> NodeResult.failed(notOpen(ref.context())));
        }

        @Override
        public EvictionResult evict(String context, String namespace, String pod) {
            return via(context, ClusterPorts::nodes, n -> n.evict(context, namespace, pod),
                    () -> EvictionResult.failed(notOpen(context)));
        }

        @Override
        public List<DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys) {
            return via(context, ClusterPorts::nodes, n -> n.budgets(context, podKeys), () -> List.of());
        }
    }

    private final class RoutedEvents implements TeamEvents {
        private final Map<String, ClusterPorts> ordered;

        RoutedEvents(Map<String, ClusterPorts> ordered) {
            this.ordered = ordered;
        }

        @Override
        public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
            return via(ref.context(), ClusterPorts::events, e -> e.postEvent(ref, event),
                    () -> EventResult.notPosted(notOpen(ref.context())));
        }

        @Override
        public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
            return via(ref.context(), ClusterPorts::events, e -> e.postNodeEvent(ref, event),
                    () -> EventResult.notPosted(notOpen(ref.context())));
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
