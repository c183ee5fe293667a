package io.headroom.drain;

import static io.headroom.drain.DrainPlannerTest.DEPLOY;
import static io.headroom.drain.DrainPlannerTest.T0;
import static io.headroom.drain.DrainPlannerTest.pod;
import static io.headroom.drain.DrainPlannerTest.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A drain of the pod the operator chose (the pod panel): that pod, one replica fewer, or why not. */
class PodDrainPlanTest {
    static final WorkloadRef STS = new WorkloadRef("prod", "work", "StatefulSet", "db");

    static DrainPlanner.Planned plan(WorkloadState w, Map<String, Double> inFlight, String pod) {
        return DrainPlanner.planPods("d1", "c", w, inFlight, List.of(pod), Duration.ofMinutes(5), Duration.ZERO, T0);
    }

    static String refused(WorkloadState w, Map<String, Double> inFlight, String pod) {
        return assertInstanceOf(DrainPlanner.Refused.class, plan(w, inFlight, pod)).reason();
    }

    @Test
    void theChosenPodEvenTheBusiestIsTheOneTakenAndReplicasGoDownByOne() {
        WorkloadState w = workload(DEPLOY, 3, pod("a", true, 5), pod("b", true, 4), pod("c", true, 3));
        DrainPlanner.Plan p = assertInstanceOf(DrainPlanner.Plan.class, plan(w, Map.of("a", 4.0, "b", 0.0, "c", 0.0), "a"));
        assertEquals(List.of("a"), p.drain().podNames());
        assertEquals(3, p.drain().from());
        assertEquals(2, p.drain().to());
        assertEquals(List.of("a"), p.mark().pods());
        assertTrue(p.drain().pods().get(0).why().startsWith("chosen by the operator; 4 in flight"),
                p.drain().pods().get(0).why());
    }

    @Test
    void refusedWhereLoweringReplicasWouldNotRemoveThatPod() {
        Map<String, Double> jobs = Map.of("a", 0.0, "b", 0.0, "c", 0.0, "db-0", 0.0, "db-1", 0.0, "db-2", 0.0);
        assertTrue(refused(workload(DEPLOY, 3, pod("a", true, 5), pod("b", false, 4), pod("c", true, 3)), jobs, "a")
                .startsWith("pod b is not ready"));
        assertTrue(refused(workload(STS, 3, pod("db-0", true, 5), pod("db-1", true, 4), pod("db-2", true, 3)), jobs,
                "db-0").contains("removes its highest ordinals (db-2)"));
        assertInstanceOf(DrainPlanner.Plan.class, plan(workload(STS, 3, pod("db-0", true, 5), pod("db-1", true, 4),
                pod("db-2", true, 3)), jobs, "db-2"));
        assertTrue(refused(workload(DEPLOY, 3, pod("a", true, 5), pod("b", true, 4)), jobs, "a")
                .contains("pods still to be created would go first"));
        assertTrue(refused(workload(DEPLOY, 2, pod("a", true, 5), pod("b", true, 4)), jobs, "zz")
                .startsWith("pod zz is not a pod of"));
        assertTrue(refused(workload(DEPLOY, 2, pod("a", true, 5), pod("b", true, 4)), Map.of("b", 0.0), "a")
                .startsWith("jobs in flight on pod a are unknown"));
    }
}
