package io.headroom.sandbox;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.CordonMark;
import io.headroom.cluster.DrainMarks;
import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodePod;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.Nodes;
import io.headroom.cluster.PlainScaling;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.Unsupported;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.cluster.Workloads;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The sandbox's cluster: workloads and pods of the simulated classes, scaled like Deployments, marked,
 * cordoned and evicted in the world. It keeps no pause after exit and takes no events: those ports are the
 * {@link Unsupported} ones. Always live: its "API" is in this process; autoscalers: none; permissions: all.
 */
public final class SandboxCluster implements Workloads {

    private final SandboxWorld world;
    private final Clock clock;
    /** Who cordoned which node for Headroom (the node's annotations in a cluster); dies with the sandbox. */
    private final Map<String, CordonMark> cordonMarks = new ConcurrentHashMap<>();
    /** What producers would read: admission published for the sandbox's classes. */
    private final SandboxAdmissions admissions;
    /** Each pooled class's state, by both of its Deployments (decision 0029). */
    private final Map<WorkloadRef, SandboxPools.State> pools = new java.util.HashMap<>();

    public SandboxCluster(SandboxWorld world, Clock clock) {
        this(world, clock, List.of());
    }

    /** A sandbox whose {@code pooled} classes each run on two Deployments on two node pools (decision 0029). */
    public SandboxCluster(SandboxWorld world, Clock clock, List<SandboxPools> pooled) {
        this.world = Objects.requireNonNull(world, "world");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.admissions = new SandboxAdmissions(world);
        for (SandboxPools p : pooled) {
            SandboxPools.State state = new SandboxPools.State(p, world);
            pools.put(p.preferred(), state);
            pools.put(p.fallback(), state);
        }
    }

    /** The simulated world behind the ports (its producers, for what admission held back). */
    public SandboxWorld world() {
        return world;
    }

    /** The sandbox's ports, assembled. */
    public ClusterPorts ports() {
        return ClusterPorts.builder(SandboxClassSpec.CONTEXT).workloads(this).scaling(new Scale())
                .drainMarks(new Marks()).nodes(new SandboxNodes()).pauses(Unsupported.pauses())
                .events(Unsupported.events("the sandbox keeps no cluster events")).admissions(admissions)
                .health(() -> ClusterHealth.live(clock.instant())).adapter(this).build();
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        world.advanceTo(clock.instant());
        SandboxPools.State pooled = pools.get(ref);
        if (pooled != null) {
            return pooled.workload(ref);
        }
        return world.classOf(ref).flatMap(world::workload);
    }

    /** The world is the server: no cache to lag. */
    @Override
    public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        return workload(ref);
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        return AutoscalerView.none(ref);
    }

    private final class Scale extends PlainScaling {
        Scale() {
            super(SandboxCluster.this);
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            world.advanceTo(clock.instant());
            SandboxPools.State pooled = pools.get(ref);
            if (pooled != null) {
                return pooled.scale(ref, replicas, expectedResourceVersion);
            }
            Optional<String> cls = world.classOf(ref);
            if (cls.isEmpty()) {
                return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no sandbox workload " + ref);
            }
            return world.scale(cls.get(), replicas, expectedResourceVersion);
        }

        @Override
        public ActionCheck canScale(WorkloadRef ref) {
            return world.classOf(ref).isPresent() || pools.containsKey(ref) ? ActionCheck.allowed("scale " + ref)
                    : ActionCheck.denied("scale " + ref, "no sandbox workload " + ref);
        }
    }

    /** Marks live in the world's pods and die with it: no expiry is recorded, none is cleared. */
    private final class Marks implements DrainMarks {
        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return onClass(ref, pods, c -> world.mark(c, pods, drainId));
        }

        @Override
        public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
            return markForDrain(ref, pods, drainId);
        }

        @Override
        public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
            return onClass(ref, pods, c -> world.unmark(c, pods, drainId));
        }

        /** {@code change} on the class whose workload {@code ref} is, at the world's now; refused when none is. */
        private PodMarks.Result onClass(WorkloadRef ref, List<String> pods,
                                        java.util.function.Function<String, PodMarks.Result> change) {
            world.advanceTo(clock.instant());
            return world.classOf(ref).map(change).orElse(PodMarks.Result.refused(pods, "no sandbox workload " + ref));
        }

        @Override
        public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
            return Unsupported.foundOn(SandboxCluster.this, ref);
        }

        @Override
        public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
            return PodMarks.Result.refused(marks.stream().map(PodMarks.Found::pod).toList(),
                    "this cluster cannot clear marks");
        }
    }

    private final class SandboxNodes implements Nodes {
        @Override
        public List<NodeState> nodes(String context) {
            if (!SandboxClassSpec.CONTEXT.equals(context)) {
                return List.of();
            }
            world.advanceTo(clock.instant());
            Instant now = clock.instant();
            return world.nodes().stream().map(n -> new NodeState(new NodeRef(SandboxClassSpec.CONTEXT, n.name()),
                    n.cordoned(), true, n.pods().stream().map(p -> new NodePod(p.namespace(), p.name(),
                            p.ready() ? "Running" : "Pending", p.ownerKind(), p.ownerName(), p.deletedAt(), p.drainId()))
                    .toList(), now, cordonMarks.get(n.name()))).toList();
        }

        @Override
        public Optional<NodeState> node(NodeRef ref) {
            return nodes(ref.context()).stream().filter(n -> n.ref().name().equals(ref.name())).findFirst();
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable) {
            world.advanceTo(clock.instant());
            return SandboxClassSpec.CONTEXT.equals(ref.context()) && world.cordon(ref.name(), unschedulable)
                    ? NodeResult.ok((unschedulable ? "cordoned " : "uncordoned ") + ref.name())
                    : NodeResult.failed("no sandbox node " + ref.name());
        }

        /** Cordons with the record of who did it, kept as long as the sandbox lives (uncordoning removes it). */
        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
            NodeResult r = cordon(ref, unschedulable);
            if (r.ok()) {
                if (unschedulable && mark != null) {
                    cordonMarks.put(ref.name(), mark);
                } else if (!unschedulable) {
                    cordonMarks.remove(ref.name());
                }
            }
            return r;
        }

        @Override
        public EvictionResult evict(String context, String namespace, String pod) {
            if (!SandboxClassSpec.CONTEXT.equals(context)) {
                return EvictionResult.failed("no context " + context + " in the sandbox");
            }
            world.advanceTo(clock.instant());
            SandboxWorld.Eviction e = world.evict(namespace, pod);
            if (e.evicted()) {
                return EvictionResult.evicted();
            }
            return !e.found() ? EvictionResult.gone(e.message())
                    : EvictionResult.refusedByBudget(e.budget(), 0, e.message());
        }

        @Override
        public List<io.headroom.cluster.DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys) {
            if (!SandboxClassSpec.CONTEXT.equals(context)) {
                return List.of();
            }
            world.advanceTo(clock.instant());
            return world.budgets().stream().filter(b -> b.pods().stream().anyMatch(podKeys::contains)).toList();
        }
    }
}
