package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nothing left behind: drain marks carry their owner, an expiry and the deletion cost they replaced.
 * A console that dies mid-drain leaves them on the pods; another console (another identity, a later
 * clock) that sees them expired clears them, restores the prior cost and journals it, and leaves a
 * live console's unexpired marks alone.
 */
class LeftBehindMarksTest {
    static final Duration WAIT = Duration.ofSeconds(15);
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    /** The annotations' names are a contract with workers and other consoles: spelled out here. */
    static final String OWNER = "headroom.io/drain-owner";
    static final String EXPIRES = "headroom.io/drain-expires";
    static final String PRIOR = "headroom.io/prior-deletion-cost";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1).build());

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 3);
        cluster.pod("payments", "worker", "worker-a", true, "node-1");
        // The cost someone gave worker-b before any drain: a drain must give it back.
        cluster.pod("payments", "worker", "worker-b", true, "node-1",
                Map.of(PodMarks.DELETION_COST_ANNOTATION, "250"));
        cluster.pod("payments", "worker", "worker-c", true, "node-2");
    }

    KubeClusterGateway console(String identity, ManualClock clock) throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock,
                new LeaseKeeper(c.client(), identity, clock, Duration.ofSeconds(15)));
        assertTrue(g.awaitSynced(WAIT));
        return g;
    }

    static MetricsSource quiet(Map<String, Double> inFlight) {
        return new InFlightMetrics(inFlight);
    }

    @Test
    void marksCarryOwnerExpiryAndPriorCostAndADrainGivesTheCostBack() throws Exception {
        ManualClock clock = new ManualClock(T0);
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", clock);
        try {
            assertTrue(ana.drainMarks().markForDrain(ref, List.of("worker-b"), "drain-1").ok());
            Map<String, String> marked = cluster.annotations("payments", "worker-b");
            assertEquals("drain-1", marked.get(PodMarks.DRAIN_ANNOTATION));
            assertEquals(Integer.toString(PodMarks.DRAIN_DELETION_COST), marked.get(PodMarks.DELETION_COST_ANNOTATION));
            assertEquals("ana@desk-1/aaaa0001", marked.get(OWNER));
            Instant expires = Instant.parse(marked.get(EXPIRES));
            assertTrue(expires.isAfter(T0), "a mark set without a drain's deadline still expires: " + expires);
            assertEquals("250", marked.get(PRIOR));
            MockCluster.await("the mark in the cache", WAIT, () -> marked(ana, "worker-b"));

            assertTrue(ana.drainMarks().unmarkDrain(ref, List.of("worker-b"), "drain-1").ok());
            assertEquals(Map.of(PodMarks.DELETION_COST_ANNOTATION, "250"), cluster.annotations("payments", "worker-b"),
                    "every mark gone and the prior cost back");
        } finally {
            ana.close();
            ana.connection().close();
        }
    }

    @Test
    void aConsoleThatDiedMidDrainLeavesMarksThatAnotherConsoleClearsOnceExpired() throws Exception {
        // Ana's console starts a drain of worker-b (idle), then dies: no unmark, no lease release.
        ManualClock anaClock = new ManualClock(T0);
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", anaClock);
        Supervisor anaSupervisor = new Supervisor(List.of(cls), ana.ports(), new MemoryJournal(), anaClock, Runnable::run,
                "ana", Duration.ofMinutes(5));
        anaSupervisor.setPodLoad(c -> Map.of("worker-a", 1.0, "worker-b", 0.0, "worker-c", 2.0));
        Outcome started = anaSupervisor.startDrain("payments", 2, Duration.ofMinutes(5), "night").get();
        assertTrue(started.ok(), started.message());
        String drainId = anaSupervisor.state().of("payments").drain().id();
        Map<String, String> marked = cluster.annotations("payments", "worker-b");
        assertEquals(drainId, marked.get(PodMarks.DRAIN_ANNOTATION));
        Instant expires = Instant.parse(marked.get(EXPIRES));
        assertTrue(expires.isAfter(T0.plus(Duration.ofMinutes(5))), "marks outlive the drain's deadline: " + expires);
        ana.connection().close(); // the process is gone

        // Carol's console is alive and draining worker-c; its marks have not expired.
        cluster.admin.pods().inNamespace("payments").withName("worker-c").edit(p -> {
            Map<String, String> ann = new java.util.HashMap<>(p.getMetadata().getAnnotations() == null ? Map.of()
                    : p.getMetadata().getAnnotations());
            p.getMetadata().setAnnotations(ann);
            ann.putAll(Map.of(PodMarks.DRAIN_ANNOTATION, "carol-drain",
                    PodMarks.DELETION_COST_ANNOTATION, Integer.toString(PodMarks.DRAIN_DELETION_COST),
                    OWNER, "carol@desk-3/cccc0003",
                    EXPIRES, T0.plus(Duration.ofHours(2)).toString()));
            return p;
        });

        // An hour later, Bob's console looks at the class (another identity, its own clock).
        ManualClock bobClock = new ManualClock(T0.plus(Duration.ofHours(1)));
        KubeClusterGateway bob = console("bob@desk-2/bbbb0002", bobClock);
        try {
            MockCluster.await("both marks in Bob's cache", WAIT, () -> marked(bob, "worker-b") && marked(bob, "worker-c"));
            MemoryJournal bobJournal = new MemoryJournal();
            Supervisor bobSupervisor = new Supervisor(List.of(cls), bob.ports(), bobJournal, bobClock, Runnable::run, "bob",
                    Duration.ofMinutes(5));
            ControlLoop loop = new ControlLoop(List.of(cls), bob.ports(), quiet(Map.of()), bobSupervisor, bobClock);
            loop.tick();

            assertEquals(Map.of(PodMarks.DELETION_COST_ANNOTATION, "250"), cluster.annotations("payments", "worker-b"),
                    "expired marks cleared, the prior cost restored");
            Map<String, String> carol = cluster.annotations("payments", "worker-c");
            assertEquals("carol-drain", carol.get(PodMarks.DRAIN_ANNOTATION), "a live console's marks stay");
            assertEquals(Integer.toString(PodMarks.DRAIN_DELETION_COST), carol.get(PodMarks.DELETION_COST_ANNOTATION));

            List<JournalRecord> unmarked = bobJournal.replay().records().stream()
                    .filter(r -> r.kind() == JournalRecord.Kind.DRAIN_UNMARKED).toList();
            assertEquals(1, unmarked.size(), bobJournal.replay().records().toString());
            JournalRecord r = unmarked.get(0);
            assertEquals(drainId, r.proposalId());
            assertEquals("payments", r.className());
            assertTrue(r.detail().contains("worker-b") && r.detail().contains("ana@desk-1/aaaa0001")
                    && r.detail().contains("expired"), r.detail());
            assertFalse(r.detail().contains("worker-c"), r.detail());

            // Once the cache shows them gone, the next ticks have nothing more to clear or journal.
            MockCluster.await("the cleared marks in Bob's cache", WAIT, () -> !marked(bob, "worker-b"));
            loop.tick();
            assertEquals(1, bobJournal.replay().records().stream()
                    .filter(x -> x.kind() == JournalRecord.Kind.DRAIN_UNMARKED).count());
        } finally {
            bob.close();
            bob.connection().close();
        }
    }

    private boolean marked(KubeClusterGateway g, String pod) {
        return g.workload(ref).orElseThrow().pods().stream().filter(p -> p.name().equals(pod))
                .anyMatch(PodState::draining);
    }
}
