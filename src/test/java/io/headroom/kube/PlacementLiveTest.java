package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.PlacementReason.Code;
import io.headroom.decision.Policy;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Placement across pools against fabric8's CRUD mock API server (issue 30, decision 0029): class {@code render}
 * runs on {@code spot} then {@code on-demand}; spot's new pods are Pending with PodScheduled=False/Unschedulable,
 * read from the informer cache; each pool's scale goes through the supervisor (freeze gate, the pool's own Lease,
 * journaled intent then outcome, a proposal in supervised mode).
 */
class PlacementLiveTest extends PooledRenderFixture {
    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment(NS, "render-spot", 4);
        cluster.deployment(NS, "render-on-demand", 0);
        for (String p : List.of("render-spot-a", "render-spot-b")) {
            cluster.newPod(NS, p).app("render-spot").onNode("spot-node-1").scheduledAt("2026-12-01T09:50:00Z")
                    .create();
        }
        // Spot's capacity is gone: the scheduler has found no node for two of its pods since T0.
        for (String p : List.of("render-spot-c", "render-spot-d")) {
            cluster.newPod(NS, p).app("render-spot").unschedulableSince(T0.toString()).create();
        }
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, List.of(spot, onDemand), clock,
                new LeaseKeeper(c.client(), ANA, clock, Duration.ofSeconds(30)));
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
        awaitPods(spot, 4);
        // The class always needs 4 replicas (min = max): what moves is where they run.
        Policy policy = Policy.builder().minReplicas(4).maxReplicas(4).build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", 4, null, 1, null), spot),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", 4, null, 3, null), onDemand)),
                new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180)));
        WorkloadClass render = new WorkloadClass("render", spot, policy, null, pools);
        supervisor = new Supervisor(List.of(render), gateway.ports(), journal, clock, Runnable::run, Runnable::run,
                "ana", Duration.ofMinutes(10));
        MetricsSource none = new MetricsSource() {
            @Override
            public String name() {
                return "none";
            }

            @Override
            public Map<String, Map<io.headroom.decision.SignalName, io.headroom.decision.Signal>> read(
                    java.util.Collection<String> classNames, Instant now) {
                return Map.of();
            }
        };
        loop = new ControlLoop(List.of(render), gateway.ports(), none, supervisor, clock);
    }

    @AfterEach
    void tearDown() {
        gateway.close();
        gateway.connection().close();
    }

    @Test
    void unschedulablePastTheDeadlineMovesTheShareOnTheNextTickFencedAndJournaled() {
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        for (int s : new int[] {10, 25, 40, 55}) {
            ClassSnapshot before = tick(s);
            assertEquals(4, before.placement().share("spot").replicas(), "before the deadline spot keeps its share");
            assertTrue(before.placement().share("spot").available());
            assertEquals(0, before.placement().share("on-demand").replicas());
            assertEquals(Actuation.Kind.NONE, before.actuation().kind(), before.actuation().message());
        }
        assertEquals(0, records(Kind.SCALING).size(), "nothing written before the deadline");

        ClassSnapshot moved = tick(70); // the first tick past the 60 s deadline
        Placement.PoolShare spotShare = moved.placement().share("spot");
        assertFalse(spotShare.available());
        assertTrue(spotShare.has(Code.UNAVAILABLE), spotShare.words());
        assertEquals(2, spotShare.replicas(), "spot keeps the 2 pods it runs");
        assertEquals(3, spotShare.specReplicas(), "and one probe pod");
        assertEquals(2, moved.placement().share("on-demand").replicas(), "the rest moves to on-demand");
        assertEquals(Actuation.Kind.APPLIED, moved.actuation().kind(), moved.actuation().message());
        assertEquals(3, cluster.replicas(NS, "render-spot"));
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));

        // Each pool's write: its intent journaled first, then its outcome; on-demand grows before spot shrinks.
        List<JournalRecord> writes = journal.replay().records().stream()
                .filter(r -> r.kind() == Kind.SCALING || r.kind() == Kind.APPLIED).toList();
        assertEquals(List.of("SCALING 0→2 on-demand", "APPLIED 0→2 on-demand", "SCALING 4→3 spot", "APPLIED 4→3 spot"),
                writes.stream().map(PlacementLiveTest::line).toList());
        // Fenced: this console took each pool's own Lease to write it.
        assertEquals(ANA, cluster.lease(onDemand).getSpec().getHolderIdentity());
        assertEquals(ANA, cluster.lease(spot).getSpec().getHolderIdentity());
    }

    @Test
    void theShareHoldsStillWhileSpotRecoversAndComesBackInOneMoveAfterTheHysteresis() {
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        tick(10);
        tick(70);
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));
        // The scale-down removed a Pending pod (the Deployment controller's choice); the other still pends.
        cluster.admin.pods().inNamespace(NS).withName("render-spot-d").delete();
        awaitPods(spot, 3);
        ClassSnapshot stuck = tick(85);
        assertFalse(stuck.placement().share("spot").available());
        assertEquals(Actuation.Kind.NONE, stuck.actuation().kind(), "nothing pends alone proves nothing");

        // Spot capacity is back: the Pending pod is placed on a node.
        replacePod("render-spot-c", p -> p.onNode("spot-node-2").scheduledAt(T0.plusSeconds(90).toString()));
        ClassSnapshot back = tick(100);
        Placement.PoolShare s = back.placement().share("spot");
        assertTrue(s.has(Code.RECOVERING), s.words());
        assertFalse(s.available(), "not available until nothing is unschedulable for the hysteresis");
        assertEquals(Actuation.Kind.NONE, back.actuation().kind(), "its share holds still while it recovers");
        assertEquals(3, cluster.replicas(NS, "render-spot"), "the placed probe is kept, no new probe");
        assertEquals(2, cluster.replicas(NS, "render-on-demand"), "nothing moves back a tick at a time");

        // A pod of spot does not fit again (capacity flickers): the hysteresis starts again, nothing moves back.
        cluster.newPod(NS, "render-spot-e").app("render-spot").unschedulableSince(T0.plusSeconds(105).toString())
                .create();
        awaitPods(spot, 4);
        ClassSnapshot flicker = tick(115);
        assertTrue(flicker.placement().share("spot").has(Code.UNAVAILABLE), flicker.placement().explanation());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));

        replacePod("render-spot-e", p -> p.onNode("spot-node-2").scheduledAt(T0.plusSeconds(130).toString()));
        ClassSnapshot placed = tick(145);
        assertTrue(placed.placement().share("spot").has(Code.RECOVERING), placed.placement().explanation());
        assertEquals(2, placed.placement().share("spot").replicas(), placed.placement().explanation());
        assertEquals(2, cluster.replicas(NS, "render-on-demand"), "on-demand keeps the work through the hold");
        assertFalse(tick(310).placement().share("spot").available(), "165 s of the 180 s quiet");
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));
        ClassSnapshot returned = tick(325);
        Placement.PoolShare available = returned.placement().share("spot");
        assertTrue(available.available(), available.words());
        assertTrue(available.has(Code.CAPACITY_BACK), available.words());
        assertEquals(4, available.replicas(), "all of its share in one move: " + available.words());
        assertEquals(0, cluster.replicas(NS, "render-on-demand"), "spot runs what the class needs again");
        List<String> writes = records(Kind.APPLIED).stream().map(PlacementLiveTest::line).toList();
        assertEquals(List.of("APPLIED 0→2 on-demand", "APPLIED 4→3 spot", "APPLIED 3→4 spot", "APPLIED 2→0 on-demand"),
                writes);
    }

    @Test
    void aFreezeStopsThePoolWrites() {
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        assertTrue(supervisor.freeze("render", Duration.ofMinutes(30), "spot incident").join().ok());
        tick(10);
        ClassSnapshot frozen = tick(70);
        assertEquals(2, frozen.placement().share("on-demand").replicas(), "the placement still says what it would do");
        assertEquals(Actuation.Kind.WITHHELD, frozen.actuation().kind());
        assertTrue(frozen.actuation().message().contains("frozen"), frozen.actuation().message());
        assertEquals(4, cluster.replicas(NS, "render-spot"));
        assertEquals(0, cluster.replicas(NS, "render-on-demand"));
        assertEquals(0, records(Kind.SCALING).size(), "nothing journaled as written");
    }

    @Test
    void supervisedModeProposesOnceForTheClassListingEachPoolAndApprovalAppliesThemAll() {
        tick(10);
        ClassSnapshot proposed = tick(70);
        assertEquals(Actuation.Kind.WITHHELD, proposed.actuation().kind());
        List<Proposal> pending = supervisor.state().pending();
        assertEquals(1, pending.size());
        Proposal p = pending.get(0);
        assertEquals(List.of("spot 4→3", "on-demand 0→2"), p.pools().stream()
                .map(c -> c.pool() + " " + c.from() + "→" + c.to()).toList());
        assertEquals(4, p.from());
        assertEquals(5, p.to(), "2 spot pods kept, a probe, and 2 on on-demand");
        assertTrue(p.explanation().contains("on-demand: 2"), p.explanation());
        assertEquals(0, cluster.replicas(NS, "render-on-demand"), "nothing written before approval");
        assertEquals(0, records(Kind.SCALING).size());

        tick(85); // the same change: the proposal is kept, not stacked
        assertEquals(1, supervisor.state().pending().size());
        assertEquals(p.id(), supervisor.state().pending().get(0).id());

        Outcome approved = supervisor.approve(p.id()).join();
        assertTrue(approved.ok(), approved.message());
        assertEquals(3, cluster.replicas(NS, "render-spot"));
        assertEquals(2, cluster.replicas(NS, "render-on-demand"));
        assertEquals(1, records(Kind.APPROVED).size());
        List<JournalRecord> applied = records(Kind.APPLIED);
        assertEquals(2, applied.size());
        applied.forEach(r -> assertEquals(p.id(), r.proposalId(), "each pool's write names the proposal"));
        assertTrue(supervisor.state().pending().isEmpty());
    }

    @Test
    void aPoolMovedByHandSinceTheProposalIsNotOverwritten() {
        tick(10);
        tick(70);
        Proposal p = supervisor.state().pending().get(0);
        cluster.admin.apps().deployments().inNamespace(NS).withName("render-on-demand")
                .edit(d -> {
                    d.getSpec().setReplicas(5);
                    return d;
                });
        MockCluster.await("the cache sees on-demand at 5", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(onDemand).orElseThrow().specReplicas() == 5);
        Outcome o = supervisor.approve(p.id()).join();
        assertFalse(o.ok());
        assertEquals(Outcome.Why.MOVED, ((Outcome.Refused) o).why());
        assertTrue(o.message().contains("on-demand moved from 0 to 5"), o.message());
        assertEquals(5, cluster.replicas(NS, "render-on-demand"));
        assertEquals(4, cluster.replicas(NS, "render-spot"));
    }

    // ------------------------------------------------------------------ helpers

    private void replacePod(String name, java.util.function.UnaryOperator<MockCluster.PodFixture> how) {
        cluster.admin.pods().inNamespace(NS).withName(name).delete();
        MockCluster.await(name + " gone from the cache", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(spot).orElseThrow().pods().stream()
                        .noneMatch(p -> p.name().equals(name)));
        how.apply(cluster.newPod(NS, name).app("render-spot")).create();
        MockCluster.await(name + " placed in the cache", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(spot).orElseThrow().pods().stream()
                        .anyMatch(p -> p.name().equals(name) && p.scheduledAt() != null));
    }

    private static String line(JournalRecord r) {
        String pool = r.reason() != null && r.reason().contains("pool on-demand") ? "on-demand"
                : r.reason() != null && r.reason().contains("pool spot") ? "spot" : "?";
        return r.kind() + " " + r.before() + "→" + r.after() + " " + pool;
    }
}
