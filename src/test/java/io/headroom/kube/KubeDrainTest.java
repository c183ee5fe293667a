package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.supervise.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A whole drain through the supervisor against the mock API server: the idlest pod is marked on the
 * server, replicas are lowered with the marks in place once it is empty, and the drain completes
 * when that pod goes. The mock runs no controllers, so the test plays the ReplicaSet and deletes
 * the pod with the lowest deletion cost; jobs in flight per pod come from a map the test sets, as
 * a {@code podInFlight} query would answer.
 */
class KubeDrainTest extends MockDrainFixture {
    static final Duration WAIT = Duration.ofSeconds(15);
    final InFlightMetrics metrics = new InFlightMetrics();
    final Map<String, Double> inFlight = metrics.inFlight;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        use(DrainConsole.threeWorkers(cluster, dir, journal, Clock.systemUTC(), metrics));
    }

    Drain drain() {
        return supervisor.state().of("payments").drain();
    }

    @Test
    void theIdlestPodIsMarkedWaitedOnAndIsTheOneThatGoes() throws Exception {
        inFlight.putAll(Map.of("worker-a", 2.0, "worker-b", 1.0, "worker-c", 3.0));
        Outcome o = supervisor.startDrain("payments", 2, Duration.ofMinutes(5), "fewer workers at night").get();
        assertTrue(o.ok(), o.message());
        assertEquals(List.of("worker-b"), drain().podNames(), "the least loaded");
        String id = drain().id();
        assertTrue(id.startsWith("payments-drain-1-"), id);
        assertEquals(id, cluster.annotations("payments", "worker-b").get("headroom.io/drain"));
        MockCluster.await("the mark in the watch cache", WAIT, () -> gateway.workload(ref).orElseThrow().pods()
                .stream().anyMatch(p -> p.name().equals("worker-b") && id.equals(p.drainId())));

        loop.tick();
        assertEquals(DrainPhase.WAITING, drain().phase(), "worker-b still has a job: " + drain().detail());
        assertEquals(3, replicasOnServer());

        inFlight.put("worker-b", 0.0);
        loop.tick();
        assertEquals(DrainPhase.WAITING, drain().phase(), "idle once: confirmed on the next look");
        assertEquals(3, replicasOnServer());
        loop.tick();
        assertEquals(DrainPhase.SCALING, drain().phase(), drain().detail());
        assertEquals(2, replicasOnServer(), "lowered once the marked pod was empty");

        // The ReplicaSet's part: remove the pod with the lowest deletion cost.
        cluster.admin.pods().inNamespace("payments").withName("worker-b").delete();
        MockCluster.await("the drain's end", WAIT, () -> {
            loop.tick();
            return !drain().active();
        });
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals("removed worker-b; replicas 3 → 2", drain().detail());
        List<JournalRecord.Kind> kinds = journal.replay().records().stream().map(JournalRecord::kind).toList();
        assertEquals(List.of(JournalRecord.Kind.DRAIN_STARTED, JournalRecord.Kind.SCALING, JournalRecord.Kind.APPLIED,
                JournalRecord.Kind.DRAIN_ENDED), kinds);
    }

    @Test
    void aTimedOutDrainTakesItsMarksOffTheServerAndScalesNothing() throws Exception {
        inFlight.putAll(Map.of("worker-a", 2.0, "worker-b", 1.0, "worker-c", 3.0));
        assertTrue(supervisor.startDrain("payments", 2, Duration.ofMillis(300), null).get().ok());
        MockCluster.await("the deadline", WAIT, () -> {
            loop.tick();
            return !drain().active();
        });
        assertEquals(DrainPhase.TIMED_OUT, drain().phase());
        assertEquals("still running at the deadline: worker-b (1 in flight); nothing scaled, marks removed",
                drain().detail());
        assertNull(cluster.annotations("payments", "worker-b").get("headroom.io/drain"));
        assertNull(cluster.annotations("payments", "worker-b").get("controller.kubernetes.io/pod-deletion-cost"));
        assertEquals(3, replicasOnServer());
    }

    int replicasOnServer() {
        return cluster.replicas("payments", "worker");
    }
}
