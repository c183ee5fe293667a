package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Pod;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.Actuation;
import io.headroom.loop.ClassPools;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Proposal;
import io.headroom.supervise.Supervisor;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Placement's two later signals against fabric8's CRUD mock API server (issue 30, decision 0029): a broker's
 * failed acquisitions (read with the class's signals) making a pool whose pods are all scheduled unavailable,
 * and a supervised recovery that proposes once per real change, not once a tick. The Deployment controller and
 * the scheduler are played by {@link #sync}: each pool's pods follow its Deployment's replicas, new ones placed
 * on a node or left Unschedulable as the pool's capacity says.
 */
class PlacementSignalsLiveTest extends PooledRenderFixture {
    static final SignalName SPOT_FAILURES = Signals.failedAcquisitions("spot");

    /** The class's signals as the metrics source answers them this tick (the broker's figure among them). */
    final Map<SignalName, Signal> signals = new ConcurrentHashMap<>();
    int podNumber;

    /** {@code replicas} wanted always (min = max); spot runs {@code running} and {@code pending} Unschedulable. */
    void start(int replicas, int running, int pending, boolean brokerFigure) throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment(NS, "render-spot", running + pending);
        cluster.deployment(NS, "render-on-demand", 0);
        for (int i = 0; i < running; i++) {
            cluster.newPod(NS, "render-spot-" + podNumber++).app("render-spot").onNode("spot-node-1")
                    .scheduledAt("2026-12-01T09:50:00Z").create();
        }
        for (int i = 0; i < pending; i++) {
            cluster.newPod(NS, "render-spot-" + podNumber++).app("render-spot").unschedulableSince(T0.toString())
                    .create();
        }
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, List.of(spot, onDemand), clock,
                new LeaseKeeper(c.client(), ANA, clock, Duration.ofSeconds(30)));
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
        awaitPods(spot, running + pending);
        Policy policy = Policy.builder().minReplicas(replicas).maxReplicas(replicas).build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", replicas, null, 1, null), spot,
                        brokerFigure ? SPOT_FAILURES : null),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", replicas, null, 3, null), onDemand)),
                new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180)));
        WorkloadClass render = new WorkloadClass("render", spot, policy, null, pools);
        supervisor = new Supervisor(List.of(render), gateway.ports(), journal, clock, Runnable::run, Runnable::run,
                "ana", Duration.ofMinutes(10));
        MetricsSource source = new MetricsSource() {
            @Override
            public String name() {
                return "broker";
            }

            @Override
            public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
                return Map.of("render", Map.copyOf(signals));
            }
        };
        loop = new ControlLoop(List.of(render), gateway.ports(), source, supervisor, clock);
    }

    @AfterEach
    void tearDown() {
        if (gateway != null) {
            gateway.close();
            gateway.connection().close();
        }
    }

    @Test
    void brokerFailuresPastTheDeadlineMoveTheShareThoughEveryPodIsScheduled() throws Exception {
        start(4, 4, 0, true);
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        for (int s : new int[] {10, 25, 40, 55}) {
            signals.put(SPOT_FAILURES, Signal.of(3.2, T0.plusSeconds(s)));
            ClassSnapshot before = tick(s);
            assertTrue(before.placement().share("spot").available(), "failing for " + (s - 10) + " s of 60 s");
            assertEquals(4, before.placement().share("spot").replicas());
            assertEquals(Actuation.Kind.NONE, before.actuation().kind(), before.actuation().message());
        }
        assertEquals(0, records(Kind.SCALING).size(), "nothing written before the deadline");

        signals.put(SPOT_FAILURES, Signal.of(3.2, T0.plusSeconds(70)));
        ClassSnapshot moved = tick(70); // failing since 10 s: 60 s, the deadline
        Placement.PoolShare s = moved.placement().share("spot");
        assertFalse(s.available(), s.words());
        assertTrue(s.words().contains("broker reports 3.2 failed acquisitions/s for 60 s (deadline 60 s)"), s.words());
        assertEquals(0, s.replicas(), "its pods cannot acquire: the whole share moves");
        assertEquals(1, s.specReplicas(), "one probe pod stays");
        assertEquals(Actuation.Kind.APPLIED, moved.actuation().kind(), moved.actuation().message());
        assertEquals(1, cluster.replicas(NS, "render-spot"));
        assertEquals(4, cluster.replicas(NS, "render-on-demand"));
        assertEquals(List.of("SCALING 0→4 on-demand", "APPLIED 0→4 on-demand", "SCALING 4→1 spot", "APPLIED 4→1 spot"),
                journal.replay().records().stream().filter(r -> r.kind() == Kind.SCALING || r.kind() == Kind.APPLIED)
                        .map(PlacementSignalsLiveTest::line).toList());
        assertEquals(4, moved.pools().get("spot").specReplicas(), "the observation the split was made on");
        assertEquals(0, moved.pools().get("spot").unschedulablePods(), "no pod of spot was ever unschedulable");
    }

    @Test
    void noBrokerFigureMovesNothingAndIsSaid() throws Exception {
        start(4, 4, 0, true);
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        signals.put(SPOT_FAILURES, Signal.of(3.2, T0.plusSeconds(10)));
        tick(10);
        signals.put(SPOT_FAILURES, Signal.missing("empty result"));
        for (int s : new int[] {25, 70, 130}) {
            ClassSnapshot quiet = tick(s);
            Placement.PoolShare share = quiet.placement().share("spot");
            assertTrue(share.available(), share.words());
            assertTrue(share.words().contains("no broker figure (empty result)"), share.words());
            assertEquals(4, share.replicas());
        }
        assertEquals(0, records(Kind.SCALING).size(), "no figure is not evidence: nothing moved");
    }

    /**
     * Supervised (each proposal approved as it comes): spot loses its capacity with 6 of 8 pods pending, the work
     * moves to on-demand, and spot's capacity comes back at 130 s. Before the quiet recovery each placed probe moved
     * one pod back, a proposal a tick for six ticks; now spot's share holds still for the 180 s hold and comes back
     * in one move of its 3 ready pods and one scale-up step (7), then the last pod as an available pool.
     */
    @Test
    void aSupervisedRecoveryProposesAtMostTwiceAndTheWorkIsBackWithinTheHoldAndTwoTicks() throws Exception {
        start(8, 2, 6, false);
        tick(10);
        ClassSnapshot moved = tick(70);
        assertFalse(moved.placement().share("spot").available());
        approveAll();
        assertEquals(3, cluster.replicas(NS, "render-spot"), "2 kept and a probe");
        assertEquals(6, cluster.replicas(NS, "render-on-demand"));
        boolean capacity = false;
        int proposalsBefore = 0;
        Integer backAt = null;
        for (int s = 85; s <= 400; s += 15) {
            if (s == 130) {
                capacity = true; // spot's nodes are back: its Pending probe is placed
                proposalsBefore = records(Kind.PROPOSED).size();
            }
            sync(spot, capacity, s);
            sync(onDemand, true, s);
            ClassSnapshot t = tick(s);
            approveAll();
            if (backAt == null && cluster.replicas(NS, "render-spot") == 8
                    && cluster.replicas(NS, "render-on-demand") == 0) {
                backAt = s;
            }
            if (s < 310) {
                assertFalse(t.placement().share("spot").available(), "within the hold at " + s + " s");
            }
        }
        int recoveryProposals = records(Kind.PROPOSED).size() - proposalsBefore;
        assertTrue(recoveryProposals >= 1 && recoveryProposals <= 2, recoveryProposals + " proposals in the recovery: "
                + records(Kind.PROPOSED).stream().map(r -> r.before() + "→" + r.after()).toList());
        assertNotNull(backAt, "the work never came back to spot");
        // The hold: capacity seen at 130 s, 180 s of it: 310 s; then at most two ticks of 15 s.
        assertTrue(backAt <= 310 + 2 * 15, "back at " + backAt + " s");
        assertTrue(backAt >= 310, "not before the hold: " + backAt + " s");
    }

    // ------------------------------------------------------------------ helpers

    /** Approves every pending proposal, as an operator at the console would. */
    private void approveAll() {
        for (Proposal p : List.copyOf(supervisor.state().pending())) {
            Outcome o = supervisor.approve(p.id()).join();
            assertTrue(o.ok(), o.message());
        }
        for (WorkloadRef ref : List.of(spot, onDemand)) {
            int want = cluster.replicas(NS, ref.name());
            MockCluster.await(ref.name() + " at " + want + " in the cache", Duration.ofSeconds(10),
                    () -> gateway.ports().workloads().workload(ref).orElseThrow().specReplicas() == want);
        }
    }

    /**
     * The Deployment controller and the scheduler: the pool's pods follow its replicas (Pending ones removed
     * first); with {@code capacity} its Pending pods and new ones are placed on a node now, without it new ones
     * pend Unschedulable.
     */
    private void sync(WorkloadRef ref, boolean capacity, int secondsAfterT0) {
        String at = T0.plusSeconds(secondsAfterT0).toString();
        List<Pod> pods = new ArrayList<>(cluster.admin.pods().inNamespace(NS).withLabel("app", ref.name()).list()
                .getItems());
        pods.sort(Comparator.comparing(p -> p.getSpec().getNodeName() == null ? 0 : 1)); // Pending first
        int want = cluster.replicas(NS, ref.name());
        int have = pods.size();
        for (Pod p : pods) {
            boolean pending = p.getSpec().getNodeName() == null;
            if (have > want || pending && capacity) { // a surplus, or a Pending pod the scheduler now places
                String name = p.getMetadata().getName();
                cluster.admin.pods().inNamespace(NS).withName(name).delete();
                MockCluster.await(name + " gone", Duration.ofSeconds(10),
                        () -> cluster.admin.pods().inNamespace(NS).withName(name).get() == null);
                have--;
            }
        }
        for (; have < want; have++) {
            MockCluster.PodFixture f = cluster.newPod(NS, ref.name() + "-" + podNumber++).app(ref.name());
            (capacity ? f.onNode(ref.name() + "-node").scheduledAt(at) : f.unschedulableSince(at)).create();
        }
        MockCluster.await(want + " pods of " + ref.name() + " in the cache", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(ref).map(w -> w.pods().size() == want
                        && (!capacity || w.pods().stream().noneMatch(p -> p.unschedulable()))).orElse(false));
    }

    private static String line(JournalRecord r) {
        String pool = r.reason() != null && r.reason().contains("pool on-demand") ? "on-demand"
                : r.reason() != null && r.reason().contains("pool spot") ? "spot" : "?";
        return r.kind() + " " + r.before() + "→" + r.after() + " " + pool;
    }
}
