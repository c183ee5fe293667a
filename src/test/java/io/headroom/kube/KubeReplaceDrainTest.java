package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import io.headroom.cluster.ReplicaBump;
import io.headroom.decision.Policy;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replacing a hung worker against fabric8's mock API server (issue 15): worker-a is ready, holds four jobs and
 * finishes none, so the decision flags it STUCK. Replace asks for one more replica (the Deployment goes 2 → 3),
 * waits for the new pod (the test plays the ReplicaSet and creates it ready), then POSTs a policy/v1 Eviction
 * for worker-a (no delete options: its own grace period; never a delete). The budget refuses first (the API
 * server's 429 naming worker-pdb): the drain shows it and retries with back-off; accepted, replicas go back
 * to 2 and the drain ends completed, saying the hung pod's jobs go back to the queue.
 */
class KubeReplaceDrainTest extends MockDrainFixture {
    static final Duration WAIT = Duration.ofSeconds(20);
    /** The eviction subresource: worker-a is behind the budget worker-pdb. */
    Evictions evictions;
    TickResult last;
    final HungWorkerMetrics metrics = new HungWorkerMetrics();

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        evictions = ReplaceConsole.twoWorkers(cluster, true);
        gateway = cluster.openGateway(dir, ref);
        WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1)
                .slotsPerReplica(4).minReplicas(1).maxReplicas(10).build());
        supervisor = new Supervisor(List.of(cls), gateway.ports(), journal, clock, Runnable::run, "ana", Duration.ofMinutes(5));
        supervisor.setPodLoad(metrics::inFlightByPod);
        loop = new ControlLoop(List.of(cls), gateway.ports(), metrics, supervisor, clock);
        MockCluster.await("both pods in the watch cache", WAIT, () -> gateway.workload(ref)
                .map(w -> w.pods().size() == 2).orElse(false));
    }

    void tick(int seconds) {
        clock.advance(Duration.ofSeconds(seconds));
        last = loop.tick();
    }

    Drain drain() {
        return supervisor.state().of("payments").drain();
    }

    int replicas() {
        return cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec()
                .getReplicas();
    }

    @Test
    void theHungPodIsReplacedThroughTheEvictionApiAndABudgetsRefusalIsShown() throws Exception {
        for (int i = 0; i < 30 && (last == null || !last.classes().get(0).decision().stuckPods().contains("worker-a"));
             i++) {
            tick(10);
        }
        assertEquals(List.of("worker-a"), last.classes().get(0).decision().stuckPods(),
                last.classes().get(0).decision().explanation());
        Outcome refused = supervisor.startReplaceDrain("payments", "worker-b", Duration.ofMinutes(5), "test").get();
        assertFalse(refused.ok(), "a pod making progress is not replaced (its jobs would be cut off)");
        assertTrue(refused.message().contains("not STUCK"), refused.message());

        Outcome o = supervisor.startReplaceDrain("payments", "worker-a", Duration.ofMinutes(5), "worker hung").get();
        assertTrue(o.ok(), o.message());
        assertEquals(3, replicas(), "a replacement is asked for first");
        // The extra replica says whose it is, why and until when, in the same write as the replicas.
        Map<String, String> bump = cluster.deploymentAnnotations("payments", "worker");
        assertEquals("2", bump.get(ReplicaBump.FROM), bump.toString());
        assertEquals("3", bump.get(ReplicaBump.TO), bump.toString());
        assertEquals(drain().marksExpireAt(), Instant.parse(bump.get(ReplicaBump.UNTIL)));
        assertTrue(bump.get(ReplicaBump.OWNER) != null && bump.get(ReplicaBump.REASON).contains("worker-a"), bump.toString());
        List<MockCluster.Patch> raised = cluster.patches.stream().filter(p -> p.path().endsWith("/deployments/worker"))
                .toList();
        assertEquals(1, raised.size(), raised.toString());
        assertTrue(raised.get(0).body().contains("\"replicas\":3") && raised.get(0).body().contains(ReplicaBump.OWNER),
                raised.get(0).body());
        assertEquals(DrainPhase.REPLACING, drain().phase(), drain().detail());
        assertTrue(evictions.bodies.isEmpty(), "nothing evicted before the replacement is ready");

        cluster.pod("payments", "worker", "worker-c", true, "node-2"); // the ReplicaSet's new pod, ready
        MockCluster.await("the replacement seen and the eviction asked", WAIT, () -> {
            tick(1);
            return !evictions.bodies.isEmpty();
        });
        Drain d = drain();
        assertEquals(DrainPhase.EVICTING, d.phase(), d.detail());
        assertTrue(d.detail().startsWith("eviction of worker-a refused (1×) by PodDisruptionBudget worker-pdb: The"
                + " disruption budget worker-pdb needs 2 healthy pods and has 2 currently; retrying in 5 s"), d.detail());
        assertEquals("worker-c", d.replace().replacement());
        tick(2);
        assertEquals(1, evictions.bodies.size(), "no retry before the back-off");
        tick(4);
        assertEquals(2, evictions.bodies.size(), "retried after 5 s");
        assertEquals(2, drain().replace().attempts());

        evictions.budgetExhausted.set(false);
        tick(10); // the third try, 10 s after the second
        assertEquals(3, evictions.bodies.size());
        Drain done = drain();
        assertEquals(DrainPhase.COMPLETED, done.phase(), done.detail());
        assertEquals("replaced worker-a by worker-c: worker-a evicted (its 4 jobs in flight go back to the queue"
                + " unfinished); replicas 3 → 2", done.detail());
        assertEquals(2, replicas(), "back to the replicas before the replacement");
        assertTrue(cluster.deploymentAnnotations("payments", "worker").keySet().stream()
                .noneMatch(k -> k.startsWith("headroom.io/bump")), "lowered back: the record goes with the replica");
        for (JsonNode body : evictions.bodies) {
            assertEquals("policy/v1", body.path("apiVersion").asString(""));
            assertEquals("Eviction", body.path("kind").asString(""));
            assertEquals("worker-a", body.path("metadata").path("name").asString(""));
            assertTrue(body.path("deleteOptions").isMissingNode(), "the pod's own grace period: " + body);
        }
        assertNotNull(cluster.admin.pods().inNamespace("payments").withName("worker-a").get(),
                "never deleted by Headroom: the API server terminates an evicted pod");

        List<JournalRecord> records = journal.replay().records().stream()
                .filter(r -> done.id().equals(r.proposalId())).toList();
        List<JournalRecord.Kind> kinds = records.stream().map(JournalRecord::kind).toList();
        assertEquals(List.of(JournalRecord.Kind.DRAIN_STARTED, JournalRecord.Kind.SCALING, JournalRecord.Kind.APPLIED,
                JournalRecord.Kind.EVICTION_REFUSED, JournalRecord.Kind.POD_EVICTED, JournalRecord.Kind.SCALING,
                JournalRecord.Kind.APPLIED, JournalRecord.Kind.DRAIN_ENDED), kinds, "the same refusal journaled once");
        JournalRecord refusal = records.get(3);
        assertEquals("PodDisruptionBudget worker-pdb", refusal.reason());
        assertTrue(refusal.detail().startsWith("payments/worker-a: The disruption budget worker-pdb"), refusal.detail());
        assertEquals(DrainPhase.COMPLETED.name(), records.get(records.size() - 1).reason());
    }

    /**
     * Issue 27 item 2, for a replacement: the scale-up the watch has not delivered is the drain's own (the view
     * is from before it), however long the watch lags; replicas put back to the count before it by another hand
     * after the write are someone else's at once (a newer version), not a lagging read.
     */
    @Test
    void aLaggingViewOfTheScaleUpIsWaitedOutAndReplicasPutBackByAnotherHandInterrupt() throws Exception {
        for (int i = 0; i < 30 && (last == null || !last.classes().get(0).decision().stuckPods().contains("worker-a"));
             i++) {
            tick(10);
        }
        cluster.holdWatchEvents("/deployments");
        assertTrue(supervisor.startReplaceDrain("payments", "worker-a", Duration.ofMinutes(5), "hung").get().ok());
        assertEquals(3, replicas(), "the server has the scale-up");
        // The mock sends its watch event after the write has answered: held back once sent, not before.
        MockCluster.await("the scale-up's watch event, held back", WAIT, () -> cluster.heldWatchEvents() > 0);
        tick(45);
        assertEquals(2, gateway.workload(ref).orElseThrow().specReplicas(), "the console's watch has not delivered it");
        assertEquals(DrainPhase.REPLACING, drain().phase(), drain().detail());

        assertTrue(cluster.releaseWatchEvents() > 0);
        MockCluster.await("the scale-up in the watch cache", WAIT, () -> gateway.workload(ref).orElseThrow()
                .specReplicas() == 3);
        tick(1);
        assertEquals(DrainPhase.REPLACING, drain().phase(), drain().detail());
        cluster.admin.apps().deployments().inNamespace("payments").withName("worker").scale(2);
        MockCluster.await("the other hand's write in the watch cache", WAIT, () -> gateway.workload(ref).orElseThrow()
                .specReplicas() == 2);
        tick(1);
        Drain d = drain();
        assertEquals(DrainPhase.INTERRUPTED, d.phase(), d.detail());
        assertTrue(d.detail().startsWith("replicas changed to 2 by someone else while waiting for the replacement;"
                + " nothing evicted, worker-a left running"), d.detail());
        assertTrue(evictions.bodies.isEmpty(), "nothing evicted");
    }
}
