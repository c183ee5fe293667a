package io.headroom.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * For tests: one object behind every port, answering as a cluster where Headroom is the only autoscaler
 * and keeps nothing (the {@link PlainScaling} and {@link Unsupported} answers); a test overrides what it
 * fakes and hands {@link #ports()} to the code under test. Test-only: the ports themselves have no defaults.
 */
public abstract class FakeCluster implements Workloads, Scaling, Pauses, DrainMarks, Nodes, TeamEvents, Health {
    private final Scaling plain = new PlainScaling(this) {
        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            return FakeCluster.this.scale(ref, replicas, expectedResourceVersion);
        }
    };
    private final Pauses noPauses = Unsupported.pauses();
    private final DrainMarks noMarks = Unsupported.drainMarks(this);
    private final Nodes noNodes = Unsupported.nodes();
    private final TeamEvents noEvents = Unsupported.events("this cluster keeps no events");

    public String contextName() {
        return "fake";
    }

    /** Every port of this fake, as a session assembles them. */
    public ClusterPorts ports() {
        return ClusterPorts.builder(contextName()).workloads(this).scaling(this).pauses(this).drainMarks(this)
                .nodes(this).events(this).health(this).adapter(this).closer(this::close).build();
    }

    public void close() {
    }

    @Override
    public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
        return workload(ref);
    }

    @Override
    public AutoscalerView autoscaler(WorkloadRef ref) {
        return AutoscalerView.none(ref);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
        return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "this fake does not scale");
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             Redecision.Redecider redecider, int maxAttempts) {
        return plain.scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                             Redecision.Redecider redecider, int maxAttempts) {
        return scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
    }

    @Override
    public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
        return plain.replicaBump(ref);
    }

    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        return plain.dryRunScale(ref, replicas);
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        return plain.canScale(ref);
    }

    @Override
    public ScaleResult handBack(WorkloadRef ref) {
        return noPauses.handBack(ref);
    }

    @Override
    public ScaleResult keepPause(WorkloadRef ref, HeadroomPause pause) {
        return noPauses.keepPause(ref, pause);
    }

    @Override
    public ScaleResult clearPause(WorkloadRef ref) {
        return noPauses.clearPause(ref);
    }

    @Override
    public ScaleResult forgetPause(WorkloadRef ref) {
        return clearPause(ref);
    }

    @Override
    public Optional<HeadroomPause> keptPause(WorkloadRef ref) {
        return noPauses.keptPause(ref);
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId) {
        return noMarks.markForDrain(ref, pods, drainId);
    }

    @Override
    public PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt) {
        return markForDrain(ref, pods, drainId);
    }

    @Override
    public PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId) {
        return noMarks.unmarkDrain(ref, pods, drainId);
    }

    @Override
    public List<PodMarks.Found> drainMarks(WorkloadRef ref) {
        return noMarks.drainMarks(ref);
    }

    @Override
    public PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now) {
        return noMarks.clearExpiredMarks(ref, marks, now);
    }

    @Override
    public List<NodeState> nodes(String context) {
        return noNodes.nodes(context);
    }

    @Override
    public Optional<NodeState> node(NodeRef ref) {
        return nodes(ref.context()).stream().filter(n -> n.ref().name().equals(ref.name())).findFirst();
    }

    @Override
    public NodeResult cordon(NodeRef ref, boolean unschedulable) {
        return noNodes.cordon(ref, unschedulable);
    }

    @Override
    public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
        return cordon(ref, unschedulable);
    }

    @Override
    public EvictionResult evict(String context, String namespace, String pod) {
        return noNodes.evict(context, namespace, pod);
    }

    @Override
    public List<DisruptionBudget> budgets(String context, java.util.Collection<String> podKeys) {
        return noNodes.budgets(context, podKeys);
    }

    @Override
    public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
        return noEvents.postEvent(ref, event);
    }

    @Override
    public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
        return noEvents.postNodeEvent(ref, event);
    }

    @Override
    public TimelineRead teamEvents(Instant since) {
        return noEvents.teamEvents(since);
    }

    @Override
    public ClusterHealth health() {
        return ClusterHealth.live(null);
    }
}
