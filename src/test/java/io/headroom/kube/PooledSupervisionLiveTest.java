package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.ClassPools;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Proposal;
import io.headroom.supervise.Supervisor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pooled class supervised as fully as a one-pool class (issue 30, decision 0029), against fabric8's CRUD mock
 * API server: class {@code render} runs on {@code spot} (ceiling 8) then {@code on-demand} (max 10) and needs 6
 * replicas while spot runs 2. Approving with another count splits the operator's total as the loop would; the
 * scale-back undo puts every pool back; a proposal restored from the journal after a restart is approved, not
 * withdrawn. Every write goes through the supervisor (freeze gate, each pool's Lease, intent then outcome).
 */
class PooledSupervisionLiveTest extends PooledRenderFixture {
    WorkloadClass render;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment(NS, "render-spot", 2);
        cluster.deployment(NS, "render-on-demand", 0);
        for (String p : List.of("render-spot-a", "render-spot-b")) {
            cluster.newPod(NS, p).app("render-spot").onNode("spot-node-1").scheduledAt("2026-12-01T09:50:00Z")
                    .create();
        }
        KubeConnection c = cluster.connect(dir, "dev");
        gateway = KubeClusterGateway.open(c, List.of(spot, onDemand), clock,
                new LeaseKeeper(c.client(), ANA, clock, Duration.ofSeconds(30)));
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
        MockCluster.await("2 pods of spot in the cache", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(spot).map(w -> w.pods().size() == 2).orElse(false));
        // The class needs 6 replicas (min = max); spot takes up to its ceiling of 8, on-demand the rest.
        Policy policy = Policy.builder().minReplicas(6).maxReplicas(6).build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", 10, 8, 1, null), spot),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", 10, null, 3, null), onDemand)),
                new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180)));
        render = new WorkloadClass("render", spot, policy, null, pools);
        supervisor = newSupervisor();
    }

    private Supervisor newSupervisor() {
        Supervisor s = new Supervisor(List.of(render), gateway.ports(), journal, clock, Runnable::run, Runnable::run,
                "ana", Duration.ofMinutes(10));
        loop = new ControlLoop(List.of(render), gateway.ports(), NONE, s, clock);
        return s;
    }

    @AfterEach
    void tearDown() {
        gateway.close();
        gateway.connection().close();
    }

    @Test
    void approveWithAnotherCountSplitsTheOperatorsTotalAsTheLoopPlacesIt() {
        tick(10);
        Proposal p = pending();
        assertEquals(List.of("spot 2→6", "on-demand 0→0"), pools(p));
        // What the dialog shows before the operator confirms: the total, split as the loop places it.
        assertEquals("12: spot 8, on-demand 4", supervisor.split(p.id(), 12).join().words());
        assertEquals("7: spot 7, on-demand 0", supervisor.split(p.id(), 7).join().words());
        assertEquals(2, cluster.replicas(NS, "render-spot"), "a preview writes nothing");

        Outcome o = supervisor.approveWith(p.id(), 12, "burst from the nightly import").join();

        assertTrue(o.ok(), o.message());
        assertEquals(8, cluster.replicas(NS, "render-spot"), "spot up to its ceiling");
        assertEquals(4, cluster.replicas(NS, "render-on-demand"), "the rest to the next pool");
        JournalRecord approved = records(Kind.APPROVED).get(0);
        assertEquals(2, approved.before());
        assertEquals(12, approved.after());
        assertTrue(approved.reason().contains("operator chose 12 instead of 6"), approved.reason());
        assertTrue(approved.reason().contains("burst from the nightly import"), approved.reason());
        // Each pool written once, through the fenced, journaled path: intent, then outcome, naming the proposal.
        assertEquals(List.of("SCALING 2→8 spot", "APPLIED 2→8 spot", "SCALING 0→4 on-demand",
                "APPLIED 0→4 on-demand"), writes());
        records(Kind.APPLIED).forEach(r -> assertEquals(p.id(), r.proposalId()));
        assertEquals(ANA, cluster.lease(spot).getSpec().getHolderIdentity());
        assertEquals(ANA, cluster.lease(onDemand).getSpec().getHolderIdentity());
        assertTrue(supervisor.state().pending().isEmpty());
    }

    @Test
    void aCountNoPoolCanHoldIsRefusedAndNothingIsWritten() {
        tick(10);
        Proposal p = pending();
        assertEquals("20: spot 8, on-demand 10; 2 replicas fit no pool (each at its ceiling or maxReplicas)",
                supervisor.split(p.id(), 20).join().words());

        Outcome o = supervisor.approveWith(p.id(), 20, "all hands").join();

        assertFalse(o.ok(), o.message());
        assertEquals(Outcome.Why.INVALID, ((Outcome.Refused) o).why());
        assertTrue(o.message().contains("2 replicas fit no pool"), o.message());
        assertEquals(2, cluster.replicas(NS, "render-spot"));
        assertEquals(0, cluster.replicas(NS, "render-on-demand"));
        assertEquals(0, records(Kind.SCALING).size());
        assertEquals(p.id(), pending().id(), "the proposal still waits");
    }

    @Test
    void theScaleBackUndoPutsEveryPoolBackInOneJournaledUndo() {
        tick(10);
        Proposal p = pending();
        assertTrue(supervisor.approveWith(p.id(), 12, "burst").join().ok());
        awaitCache(8, 4);

        Outcome o = supervisor.undo("render", "approval of render 2 → 12",
                () -> supervisor.revert("render", 2, 12, "undo of approval 2 → 12")).join();

        assertTrue(o.ok(), o.message());
        assertEquals(2, cluster.replicas(NS, "render-spot"));
        assertEquals(0, cluster.replicas(NS, "render-on-demand"));
        assertEquals(1, records(Kind.UNDONE).size(), "one undo");
        List<String> back = writes().subList(4, writes().size());
        assertEquals(List.of("SCALING 8→2 spot", "APPLIED 8→2 spot", "SCALING 4→0 on-demand",
                "APPLIED 4→0 on-demand"), back);
    }

    @Test
    void theScaleBackUndoIsRefusedWhenAPoolMovedSince() {
        tick(10);
        Proposal p = pending();
        assertTrue(supervisor.approveWith(p.id(), 12, "burst").join().ok());
        awaitCache(8, 4);
        cluster.admin.apps().deployments().inNamespace(NS).withName("render-on-demand").edit(d -> {
            d.getSpec().setReplicas(5);
            return d;
        });
        awaitCache(8, 5);

        Outcome o = supervisor.undo("render", "approval of render 2 → 12",
                () -> supervisor.revert("render", 2, 12, "undo of approval 2 → 12")).join();

        assertFalse(o.ok(), o.message());
        assertEquals(Outcome.Why.MOVED, ((Outcome.Refused) o).why());
        assertTrue(o.message().contains("on-demand moved from 4 to 5"), o.message());
        assertEquals(8, cluster.replicas(NS, "render-spot"), "no pool taken back");
        assertEquals(5, cluster.replicas(NS, "render-on-demand"));
        assertEquals(0, records(Kind.UNDONE).size());
    }

    @Test
    void aPooledProposalRestoredAfterARestartIsApprovedEachPoolWrittenOnce() {
        tick(10);
        Proposal p = pending();

        supervisor = newSupervisor(); // the console restarts: a new supervisor reads the journal
        supervisor.restore(journal.replay());
        assertEquals(p.id(), pending().id(), "restored from the journal");
        Outcome o = supervisor.approve(p.id()).join();

        assertTrue(o.ok(), o.message());
        assertEquals(6, cluster.replicas(NS, "render-spot"));
        assertEquals(0, cluster.replicas(NS, "render-on-demand"));
        assertEquals(List.of("SCALING 2→6 spot", "APPLIED 2→6 spot"), writes());
        assertEquals(0, records(Kind.WITHDRAWN).size());
        awaitCache(6, 0);
        tick(25);
        assertTrue(supervisor.state().pending().isEmpty(), "no second proposal: " + supervisor.state().pending());
        assertEquals(1, records(Kind.PROPOSED).size());
    }

    @Test
    void aRestoredPooledProposalHeldForTheOperatorOverTheFirstTickIsApproved() {
        tick(10);
        Proposal p = pending();

        supervisor = newSupervisor();
        AtomicLong wall = new AtomicLong();
        supervisor.holdProposals(Duration.ofSeconds(30), wall::get); // the console's minimum time to read
        supervisor.restore(journal.replay());
        tick(25); // the first tick after the restart: the restored proposal is held, as shown
        assertEquals(p.id(), pending().id());
        Outcome o = supervisor.approve(p.id()).join();

        assertTrue(o.ok(), o.message());
        assertEquals(List.of("SCALING 2→6 spot", "APPLIED 2→6 spot"), writes());
        assertEquals(0, records(Kind.WITHDRAWN).size());
        awaitCache(6, 0); // the next tick reads what was written, as tick() does after its own writes
        tick(40);
        assertTrue(supervisor.state().pending().isEmpty(), "no second proposal: " + supervisor.state().pending());
    }

    // ------------------------------------------------------------------ helpers

    static final MetricsSource NONE = new MetricsSource() {
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

    private Proposal pending() {
        List<Proposal> pending = supervisor.state().pending();
        assertEquals(1, pending.size(), "one proposal: " + pending);
        return pending.get(0);
    }

    private static List<String> pools(Proposal p) {
        return p.pools().stream().map(c -> c.pool() + " " + c.from() + "→" + c.to()).toList();
    }

    @Override
    ClassSnapshot tick(int secondsAfterT0) {
        clock.set(T0.plusSeconds(secondsAfterT0));
        ClassSnapshot s = loop.tick().classes().get(0);
        assertNotNull(s.placement(), s.problem());
        awaitCache(cluster.replicas(NS, "render-spot"), cluster.replicas(NS, "render-on-demand"));
        return s;
    }

    /** The next read sees what was written: the informer cache has the server's replicas. */
    private void awaitCache(int spotReplicas, int onDemandReplicas) {
        MockCluster.await("spot at " + spotReplicas + ", on-demand at " + onDemandReplicas + " in the cache",
                Duration.ofSeconds(10), () -> gateway.ports().workloads().workload(spot).orElseThrow()
                        .specReplicas() == spotReplicas && gateway.ports().workloads().workload(onDemand)
                        .orElseThrow().specReplicas() == onDemandReplicas);
    }

    private List<String> writes() {
        return journal.replay().records().stream().filter(r -> r.kind() == Kind.SCALING || r.kind() == Kind.APPLIED)
                .map(r -> r.kind() + " " + r.before() + "→" + r.after() + " "
                        + (r.reason().contains("pool on-demand") ? "on-demand"
                        : r.reason().contains("pool spot") ? "spot" : "?")).toList();
    }
}
