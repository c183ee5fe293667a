package io.headroom.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DrainPlannerTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final WorkloadRef DEPLOY = new WorkloadRef("prod", "work", "Deployment", "worker");

    /** A pod created {@code ageMinutes} before T0. */
    static PodState pod(String name, boolean ready, int ageMinutes) {
        return new PodState(name, ready ? "Running" : "Pending", ready, T0.minusSeconds(60L * ageMinutes), null, "n1");
    }

    static WorkloadState workload(WorkloadRef ref, int replicas, PodState... pods) {
        return new WorkloadState(ref, replicas, (int) List.of(pods).stream().filter(PodState::ready).count(), "7",
                List.of(pods), T0);
    }

    static DrainPlanner.Plan plan(WorkloadState w, Map<String, Double> inFlight, int to) {
        return assertInstanceOf(DrainPlanner.Plan.class,
                DrainPlanner.plan("worker-d1", "c", w, inFlight, to, Duration.ofMinutes(5), Duration.ZERO, T0));
    }

    static String refused(WorkloadState w, Map<String, Double> inFlight, int to) {
        return assertInstanceOf(DrainPlanner.Refused.class,
                DrainPlanner.plan("worker-d1", "c", w, inFlight, to, Duration.ofMinutes(5), Duration.ZERO, T0)).reason();
    }

    @Test
    void notReadyPodsFirstThenTheLeastLoadedNewestFirst() {
        WorkloadState w = workload(DEPLOY, 5, pod("a", true, 50), pod("b", true, 40), pod("c", true, 30),
                pod("d", false, 1), pod("e", true, 20));
        DrainPlanner.Plan p = plan(w, Map.of("a", 0.0, "b", 3.0, "c", 1.0, "e", 0.0), 2);
        // d never started (Pending: no work, even with its jobs unknown); a and e are idle, e is newer.
        assertEquals(List.of("d", "e", "a"), p.drain().podNames());
        assertEquals(List.of("not started", "idle", "idle"), p.drain().pods().stream().map(DrainPod::why).toList());
        assertEquals(new DrainAction.Mark(List.of("d", "e", "a"), "worker-d1"), p.mark());
        assertEquals(DrainPhase.MARKING, p.drain().phase());
        assertEquals(T0.plus(Duration.ofMinutes(5)), p.drain().deadline());
        assertEquals(5, p.drain().from());
        assertEquals(2, p.drain().to());
    }

    @Test
    void busyPodsAreTakenWhenThereAreNotEnoughIdleOnes() {
        WorkloadState w = workload(DEPLOY, 3, pod("a", true, 5), pod("b", true, 4), pod("c", true, 3));
        DrainPlanner.Plan p = plan(w, Map.of("a", 2.0, "b", 1.0, "c", 4.0), 1);
        assertEquals(List.of("b", "a"), p.drain().podNames());
        assertEquals("1 in flight, among the least loaded", p.drain().pods().get(0).why());
        assertEquals(List.of("b (1 in flight)", "a (2 in flight)"), p.drain().busy());
    }

    @Test
    void aStatefulSetLosesItsHighestOrdinalsWhateverTheirLoad() {
        WorkloadRef sts = new WorkloadRef("prod", "work", "StatefulSet", "db-worker");
        WorkloadState w = workload(sts, 4, pod("db-worker-0", true, 9), pod("db-worker-1", true, 9),
                pod("db-worker-10", true, 1), pod("db-worker-2", true, 9));
        DrainPlanner.Plan p = plan(w, Map.of("db-worker-0", 0.0, "db-worker-1", 0.0, "db-worker-2", 3.0,
                "db-worker-10", 1.0), 2);
        assertEquals(List.of("db-worker-10", "db-worker-2"), p.drain().podNames());
        assertTrue(p.drain().pods().get(1).why().startsWith("highest ordinal; 3 in flight"));
    }

    @Test
    void refusesWhatCannotBeDrainedHonestly() {
        WorkloadState w = workload(DEPLOY, 3, pod("a", true, 5), pod("b", true, 4), pod("c", true, 3));
        assertTrue(refused(w, Map.of(), 3).contains("not below the current 3"));
        assertTrue(refused(w, Map.of(), -1).contains("negative"));
        assertEquals(List.of("b", "a"), plan(w, Map.of("a", 0.0, "b", 0.0), 1).drain().podNames(),
                "pods with known, idle jobs before a pod whose jobs are unknown");
        assertTrue(refused(w, Map.of("a", 0.0, "b", 0.0), 0).contains("jobs in flight on pod c are unknown"),
                "all three must go, and c would be taken blind");
        assertTrue(refused(workload(DEPLOY, 4, pod("a", true, 5), pod("b", true, 4), pod("c", true, 3)),
                Map.of("a", 0.0, "b", 0.0, "c", 0.0), 3).contains("3 running pods for 4 replicas"));
        List<PodState> marked = new ArrayList<>(w.pods());
        marked.set(0, new PodState("a", "Running", true, T0, null, "n1", Integer.MIN_VALUE, "worker-d0"));
        assertTrue(refused(new WorkloadState(DEPLOY, 3, 3, "7", marked, T0), Map.of("a", 0.0, "b", 0.0, "c", 0.0), 2)
                .contains("already marked by drain worker-d0"));
    }

    @Test
    void aStartedPodThatIsNotReadyIsTakenFirstButOnlyWithItsJobsKnown() {
        PodState unready = new PodState("u", "Running", false, T0, null, "n1");
        WorkloadState w = workload(DEPLOY, 3, pod("a", true, 5), pod("b", true, 4), unready);
        DrainPlanner.Plan p = plan(w, Map.of("a", 0.0, "b", 0.0, "u", 2.0), 2);
        assertEquals(List.of("u"), p.drain().podNames(), "the ReplicaSet removes unready pods first");
        assertEquals("not ready, 2 in flight", p.drain().pods().get(0).why());
        assertTrue(refused(w, Map.of("a", 0.0, "b", 0.0), 2).contains("jobs in flight on pod u are unknown"));
    }

    @Test
    void terminatingPodsAreNotCandidates() {
        PodState leaving = new PodState("x", "Running", true, T0, T0, "n1");
        WorkloadState w = workload(DEPLOY, 2, pod("a", true, 5), pod("b", true, 4), leaving);
        assertEquals(List.of("a"), plan(w, Map.of("a", 0.0, "b", 1.0, "x", 0.0), 1).drain().podNames());
    }
}
