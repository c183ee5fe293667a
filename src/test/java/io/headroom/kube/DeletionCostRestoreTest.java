package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.decision.Policy;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 15, item 2: a {@code pod-deletion-cost} someone else set is remembered on the pod while a drain's
 * mark replaces it ({@value PodMarks#PRIOR_COST_ANNOTATION}: on the API server, so a console that crashes
 * loses nothing) and is back when the drain ends, however it ends: cancelled, timed out, or completed with
 * the marked pod still there (the cluster removed another one). Against fabric8's CRUD mock API server;
 * worker-b carries cost 250, set by hand; the drains are of worker-b alone (the pod panel's pod drain).
 */
class DeletionCostRestoreTest extends MockDrainFixture {
    static final Duration WAIT = Duration.ofSeconds(15);
    static final String THEIRS = "250";
    final InFlightMetrics metrics = new InFlightMetrics();
    final Map<String, Double> inFlight = metrics.inFlight;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 3);
        cluster.pod("payments", "worker", "worker-a", true, "node-1");
        cluster.pod("payments", "worker", "worker-b", true, "node-1",
                Map.of(PodMarks.DELETION_COST_ANNOTATION, THEIRS));
        cluster.pod("payments", "worker", "worker-c", true, "node-2");
        gateway = cluster.openGateway(dir, ref);
        WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1).build());
        use(DrainConsole.on(gateway, cls, new MemoryJournal(), Clock.systemUTC(), metrics));
        inFlight.putAll(Map.of("worker-a", 0.0, "worker-b", 1.0, "worker-c", 0.0));
        MockCluster.await("the cost in the watch cache", WAIT, () -> pod("worker-b") != null
                && Integer.valueOf(250).equals(pod("worker-b").deletionCost()));
    }

    Drain drain() {
        return supervisor.state().of("payments").drain();
    }

    PodState pod(String name) {
        return gateway.workload(ref).flatMap(w -> w.pods().stream().filter(p -> p.name().equals(name)).findFirst())
                .orElse(null);
    }

    /** Drains worker-b and checks its prior cost is kept on the server while the mark is on. */
    void startDrainOfB(Duration deadline) throws Exception {
        Outcome o = supervisor.startPodDrain("payments", "worker-b", deadline, "restore test").get();
        assertTrue(o.ok(), o.message());
        assertEquals(List.of("worker-b"), drain().podNames());
        Map<String, String> ann = cluster.annotations("payments", "worker-b");
        assertEquals(Integer.toString(PodMarks.DRAIN_DELETION_COST), ann.get(PodMarks.DELETION_COST_ANNOTATION));
        assertEquals(THEIRS, ann.get(PodMarks.PRIOR_COST_ANNOTATION), "the cost it replaced, kept on the pod");
        MockCluster.await("the mark in the watch cache", WAIT, () -> drain().id().equals(pod("worker-b").drainId()));
        assertEquals(250, pod("worker-b").priorCost(), "the pod panel reads the prior cost too");
        assertEquals(ann.get(PodMarks.OWNER_ANNOTATION), pod("worker-b").drainOwner(), "and who marked it");
        assertTrue(pod("worker-b").drainOwner() != null && !pod("worker-b").drainOwner().isBlank());
    }

    void assertTheirsIsBack() {
        Map<String, String> ann = cluster.annotations("payments", "worker-b");
        assertEquals(THEIRS, ann.get(PodMarks.DELETION_COST_ANNOTATION), "their cost is back: " + ann);
        assertFalse(ann.containsKey(PodMarks.PRIOR_COST_ANNOTATION), ann.toString());
        assertFalse(ann.containsKey(PodMarks.DRAIN_ANNOTATION), ann.toString());
        assertFalse(ann.containsKey(PodMarks.OWNER_ANNOTATION), ann.toString());
        assertFalse(ann.containsKey(PodMarks.EXPIRES_ANNOTATION), ann.toString());
    }

    @Test
    void aCancelledDrainGivesThePodItsCostBack() throws Exception {
        startDrainOfB(Duration.ofMinutes(5));
        loop.tick();
        assertEquals(DrainPhase.WAITING, drain().phase(), drain().detail());
        assertTrue(supervisor.cancelDrain("payments", "changed my mind").get().ok());
        assertEquals(DrainPhase.INTERRUPTED, drain().phase());
        assertTheirsIsBack();
    }

    @Test
    void aTimedOutDrainGivesThePodItsCostBack() throws Exception {
        startDrainOfB(Duration.ofMillis(300));
        MockCluster.await("the deadline", WAIT, () -> {
            loop.tick();
            return !drain().active();
        });
        assertEquals(DrainPhase.TIMED_OUT, drain().phase(), drain().detail());
        assertTheirsIsBack();
        assertEquals(3, replicasOnServer());
    }

    @Test
    void aCompletedDrainWhoseMarkedPodStayedGivesItsCostBack() throws Exception {
        startDrainOfB(Duration.ofMinutes(5));
        inFlight.put("worker-b", 0.0);
        MockCluster.await("replicas lowered", WAIT, () -> {
            loop.tick();
            return drain().phase() == DrainPhase.SCALING;
        });
        assertEquals(2, replicasOnServer());
        // The ReplicaSet removes another pod (one that turned unready goes first, whatever the costs): worker-a
        // is terminating, worker-b stays.
        // A finalizer keeps the deleted pod listed, terminating (as the kubelet's grace period would).
        cluster.admin.pods().inNamespace("payments").withName("worker-a").edit(p -> {
            p.getMetadata().setFinalizers(List.of("test.headroom.io/hold"));
            return p;
        });
        cluster.admin.pods().inNamespace("payments").withName("worker-a").delete();
        MockCluster.await("worker-a terminating in the watch cache", WAIT, () -> pod("worker-a") != null
                && pod("worker-a").terminating());
        MockCluster.await("the drain's end", WAIT, () -> {
            loop.tick();
            return !drain().active();
        });
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertTrue(drain().detail().contains("removed worker-a instead of worker-b"), drain().detail());
        assertTheirsIsBack();
    }

    @Test
    void aCostChangedByItsOwnerDuringTheDrainIsTheirsAndStays() throws Exception {
        startDrainOfB(Duration.ofMinutes(5));
        // A drain judges a changed mark only once it has seen its own (a tick after the mark reached the cache).
        MockCluster.await("the drain has seen its mark", WAIT, () -> {
            loop.tick();
            return drain().pods().stream().allMatch(io.headroom.drain.DrainPod::markSeen);
        });
        cluster.admin.pods().inNamespace("payments").withName("worker-b").edit(p -> {
            p.getMetadata().getAnnotations().put(PodMarks.DELETION_COST_ANNOTATION, "900");
            return p;
        });
        MockCluster.await("the drain sees its mark changed", WAIT, () -> {
            loop.tick();
            return !drain().active();
        });
        Map<String, String> ann = cluster.annotations("payments", "worker-b");
        assertEquals("900", ann.get(PodMarks.DELETION_COST_ANNOTATION), "a cost set since is theirs: " + ann);
        assertNull(ann.get(PodMarks.DRAIN_ANNOTATION));
        assertNull(ann.get(PodMarks.PRIOR_COST_ANNOTATION));
    }

    int replicasOnServer() {
        return cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec()
                .getReplicas();
    }
}
