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
    public ClusterHealth health() {
        return ClusterHealth.live(clock.instant());
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        return world.classOf(ref).isPresent() ? ActionCheck.allowed("scale " + ref)
                : ActionCheck.denied("scale " + ref, "no sandbox workload " + ref);
    }
}
