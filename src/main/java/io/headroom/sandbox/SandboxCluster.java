package io.headroom.sandbox;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.ClusterGateway;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Clock;
import java.util.Objects;
import java.util.List;
import java.util.Optional;

/** The sandbox's cluster: workloads and pods of the simulated classes, scaled like Deployments. */
public final class SandboxCluster implements ClusterGateway {

    private final SandboxWorld world;
    private final Clock clock;
    /** Who cordoned which node for Headroom (the node's annotations in a cluster); dies with the sandbox. */
    private final java.util.Map<String, io.headroom.cluster.CordonMark> cordonMarks =
            new java.util.concurrent.ConcurrentHashMap<>();

    public SandboxCluster(SandboxWorld world, Clock clock) {
        this.world = Objects.requireNonNull(world, "world");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String contextName() {
        return SandboxClassSpec.CONTEXT;
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        world.advanceTo(clock.instant());
        return world.classOf(ref).flatMap(world::workload);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        world.advanceTo(clock.instant());
        Optional<String> cls = world.classOf(ref);
        if (cls.isEmpty()) {
            return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no sandbox workload " + ref);
        }
        return world.scale(cls.get(), replicas, expectedResourceVersion);
    }

    /** The sandbox is always live: its "API" is in this process. Autoscalers: none; permissions: all. */
    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        world.advanceTo(clock.instant());
        return world.classOf(ref).map(c -> world.mark(c, pods, drainId))
                .orElse(PodMarks.Result.refused(pods, "no sandbox workload " + ref));
    }

    @Override
    public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
        world.advanceTo(clock.instant());
        return world.classOf(ref).map(c -> world.unmark(c, pods, drainId))
                .orElse(PodMarks.Result.refused(pods, "no sandbox workload " + ref));
    }

    @Override
    public List<io.headroom.cluster.NodeState> nodes(String context) {
        if (!SandboxClassSpec.CONTEXT.equals(context)) {
            return List.of();
        }
        world.advanceTo(clock.instant());
        java.time.Instant now = clock.instant();
        return world.nodes().stream().map(n -> new io.headroom.cluster.NodeState(
                new io.headroom.cluster.NodeRef(SandboxClassSpec.CONTEXT, n.name()), n.cordoned(), true,
                n.pods().stream().map(p -> new io.headroom.cluster.NodePod(p.namespace(), p.name(),
                        p.ready() ? "Running" : "Pending", p.ownerKind(), p.ownerName(), p.deletedAt(), p.drainId()))
                        .toList(), now, cordonMarks.get(n.name()))).toList();
    }

    /** Cordons with the record of who did it, kept as long as the sandbox lives (uncordoning removes it). */
    @Override
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable,
                                                 io.headroom.cluster.CordonMark mark) {
        io.headroom.cluster.NodeResult r = cordon(ref, unschedulable);
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
    public io.headroom.cluster.NodeResult cordon(io.headroom.cluster.NodeRef ref, boolean unschedulable) {
        world.advanceTo(clock.instant());
        return SandboxClassSpec.CONTEXT.equals(ref.context()) && world.cordon(ref.name(), unschedulable)
                ? io.headroom.cluster.NodeResult.ok((unschedulable ? "cordoned " : "uncordoned ") + ref.name())
                : io.headroom.cluster.NodeResult.failed("no sandbox node " + ref.name());
    }

    @Override
    public io.headroom.cluster.EvictionResult evict(String context, String namespace, String pod) {
        if (!SandboxClassSpec.CONTEXT.equals(context)) {
            return io.headroom.cluster.EvictionResult.failed("no context " + context + " in the sandbox");
        }
        world.advanceTo(clock.instant());
        SandboxWorld.Eviction e = world.evict(namespace, pod);
        if (e.evicted()) {
            return io.headroom.cluster.EvictionResult.evicted();
        }
        return !e.found() ? io.headroom.cluster.EvictionResult.gone(e.message())
                : io.headroom.cluster.EvictionResult.refusedByBudget(e.budget(), 0, e.message());
    }

    @Override
    public ClusterHealth health() {
        return ClusterHealth.live(clock.instant());
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        return world.classOf(ref).isPresent() ? ActionCheck.allowed("scale " + ref)
                : ActionCheck.denied("scale " + ref, "no sandbox workload " + ref);
    }

    /** The sandbox posts no events: the journal window shows this console's journal alone. */
    @Override
    public io.headroom.cluster.TimelineRead teamEvents(java.time.Instant since) {
        return io.headroom.cluster.TimelineRead.unsupported("the sandbox keeps no cluster events");
    }
}
