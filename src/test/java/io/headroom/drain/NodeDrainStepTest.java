package io.headroom.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodePod;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodMarks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeDrainStepTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final NodeRef NODE = new NodeRef("dev", "node-1");

    static NodePod pod(String ns, String name, String ownerKind) {
        return new NodePod(ns, name, "Running", ownerKind, ownerKind == null ? null : "owner", null, null);
    }

    static NodeState node(boolean cordoned, NodePod... pods) {
        return new NodeState(NODE, cordoned, true, List.of(pods), T0);
    }

    static NodeDrain started(NodeState n, Map<String, String> classes) {
        NodeDrainStep.Planned p = NodeDrainStep.plan("d1", n, classes, Duration.ofMinutes(10), Duration.ofSeconds(60), T0);
        NodeDrain d = assertInstanceOf(NodeDrainStep.Plan.class, p).drain();
        return NodeDrainStep.cordoned(d, NodeResult.ok("cordoned"), T0).drain();
    }

    @Test
    void daemonSetStaticAndFinishedPodsAreLeftAndTheRestTaken() {
        NodeState n = node(false, pod("kube-system", "proxy", "DaemonSet"), pod("kube-system", "etcd", "Node"),
                new NodePod("jobs", "done", "Succeeded", "Job", "j", null, null), pod("web", "api-1", "ReplicaSet"),
                pod("payments", "worker-a", "ReplicaSet"));
        NodeDrainStep.Plan p = (NodeDrainStep.Plan) NodeDrainStep.plan("d1", n, Map.of("payments/worker-a", "payments"),
                Duration.ofMinutes(10), Duration.ZERO, T0);
        assertEquals(List.of("web/api-1", "payments/worker-a"), p.drain().pods().stream().map(NodeDrainPod::key).toList());
        assertEquals(3, p.drain().left().size(), p.drain().left().toString());
        assertEquals(NodeDrainPod.State.FINISHING_WORK, p.drain().pods().get(1).state());
        assertEquals(NodeDrainPhase.CORDONING, p.drain().phase());
    }

    @Test
    void aPodNoControllerWouldRecreateRefusesThePlan() {
        NodeDrainStep.Planned p = NodeDrainStep.plan("d1", node(false, pod("web", "bare", null)), Map.of(),
                Duration.ofMinutes(10), Duration.ZERO, T0);
        assertTrue(assertInstanceOf(NodeDrainStep.Refused.class, p).reason().contains("web/bare"));
    }

    @Test
    void afterTheCordonHeadroomPodsAreMarkedAndOthersEvictedAtOnce() {
        NodeState n = node(false, pod("web", "api-1", "ReplicaSet"), pod("payments", "worker-a", "ReplicaSet"));
        NodeDrainStep.Plan p = (NodeDrainStep.Plan) NodeDrainStep.plan("d1", n, Map.of("payments/worker-a", "payments"),
                Duration.ofMinutes(10), Duration.ZERO, T0);
        NodeDrainStep.Step s = NodeDrainStep.cordoned(p.drain(), NodeResult.ok("ok"), T0);
        assertEquals(List.of(new NodeDrainAction.Mark("payments", List.of("worker-a"), "d1", p.drain().marksExpireAt()),
                new NodeDrainAction.Evict("web", "api-1")), s.actions());
        assertEquals(NodeDrainPhase.DRAINING, s.drain().phase());
    }

    @Test
    void aRefusedCordonEndsFailedWithNothingEvicted() {
        NodeDrainStep.Plan p = (NodeDrainStep.Plan) NodeDrainStep.plan("d1", node(false, pod("web", "a", "ReplicaSet")),
                Map.of(), Duration.ofMinutes(10), Duration.ZERO, T0);
        NodeDrainStep.Step s = NodeDrainStep.cordoned(p.drain(), NodeResult.failed("HTTP 403: forbidden"), T0);
        assertEquals(NodeDrainPhase.FAILED, s.drain().phase());
        assertEquals(List.of(), s.actions());
        assertEquals("could not cordon node-1: HTTP 403: forbidden; nothing evicted", s.drain().detail());
    }

    @ParameterizedTest(name = "attempt {0}, Retry-After {1} s → {2} s")
    @CsvSource({"1,0,5", "2,0,10", "3,0,20", "4,0,40", "5,0,60", "9,0,60", "1,30,30", "4,10,40"})
    void backOffDoublesUpToAMinuteAndHonoursRetryAfter(int attempt, long retryAfter, long seconds) {
        assertEquals(Duration.ofSeconds(seconds), NodeDrainStep.backoff(attempt, retryAfter));
    }

    @Test
    void aBudgetRefusalIsLoggedWithTheBudgetAndRetriedOnlyWhenTheBackOffIsOver() {
        NodeState n = node(true, pod("web", "api-1", "ReplicaSet"));
        NodeDrain d = started(n, Map.of());
        d = NodeDrainStep.evicted(d, "web/api-1", EvictionResult.refusedByBudget("api-pdb", 0,
                "The disruption budget api-pdb needs 2 healthy pods and has 2 currently"), T0).drain();
        assertEquals(1, d.refusals().size());
        assertEquals("api-pdb", d.refusals().get(0).budget());
        assertEquals(T0.plusSeconds(5), d.pods().get(0).nextAttemptAt());
        assertTrue(d.detail().contains("refused by PodDisruptionBudget api-pdb"), d.detail());

        NodeDrainStep.Step early = NodeDrainStep.observe(d, n, Map.of(), Set.of(), T0.plusSeconds(4));
        assertEquals(List.of(), early.actions(), "not before the back-off");
        NodeDrainStep.Step due = NodeDrainStep.observe(d, n, Map.of(), Set.of(), T0.plusSeconds(5));
        assertEquals(List.of(new NodeDrainAction.Evict("web", "api-1")), due.actions());

        d = NodeDrainStep.evicted(due.drain(), "web/api-1", EvictionResult.refusedByBudget("api-pdb", 0, "again"),
                T0.plusSeconds(5)).drain();
        assertEquals(T0.plusSeconds(15), d.pods().get(0).nextAttemptAt(), "twice as long the second time");
        assertEquals(2, d.refusals().size());
    }

    @Test
    void headroomPodsAreEvictedOnlyOnceIdleAfterTheNoticeGrace() {
        NodeState n = node(true, pod("payments", "worker-a", "ReplicaSet"));
        NodeDrain d = started(n, Map.of("payments/worker-a", "payments"));
        Map<String, Map<String, Double>> idle = Map.of("payments", Map.of("worker-a", 0.0));
        assertEquals(List.of(), NodeDrainStep.observe(d, n, idle, Set.of(), T0.plusSeconds(30)).actions(),
                "idle, but the worker may not have seen its mark yet");
        NodeDrainStep.Step busy = NodeDrainStep.observe(d, n, Map.of("payments", Map.of("worker-a", 2.0)), Set.of(),
                T0.plusSeconds(61));
        assertEquals(List.of(), busy.actions());
        assertEquals(2.0, busy.drain().pods().get(0).inFlight());
        NodeDrainStep.Step now = NodeDrainStep.observe(busy.drain(), n, idle, Set.of(), T0.plusSeconds(62));
        assertEquals(List.of(new NodeDrainAction.Evict("payments", "worker-a")), now.actions());
        assertEquals(List.of(), NodeDrainStep.observe(busy.drain(), n, idle, Set.of("payments"), T0.plusSeconds(62))
                .actions(), "a frozen class's pods are not evicted");
    }

    @Test
    void theDrainCompletesWhenEveryPodHasLeftTheNode() {
        NodeState n = node(true, pod("web", "api-1", "ReplicaSet"), pod("kube-system", "proxy", "DaemonSet"));
        NodeDrain d = started(n, Map.of());
        d = NodeDrainStep.evicted(d, "web/api-1", EvictionResult.evicted(), T0).drain();
        assertEquals(NodeDrainPod.State.EVICTED, d.pods().get(0).state());
        NodeDrainStep.Step s = NodeDrainStep.observe(d, node(true, pod("kube-system", "proxy", "DaemonSet")), Map.of(),
                Set.of(), T0.plusSeconds(10));
        assertEquals(NodeDrainPhase.COMPLETED, s.drain().phase());
        assertEquals("drained node-1: web/api-1 gone; left kube-system/proxy (DaemonSet owner: it runs on every node);"
                + " it stays cordoned until uncordoned", s.drain().detail());
    }

    @Test
    void atTheDeadlineTheDrainTimesOutNamingThePodsStillThereAndUnmarksHeadroomPods() {
        NodeState n = node(true, pod("web", "api-1", "ReplicaSet"), pod("payments", "worker-a", "ReplicaSet"));
        NodeDrain d = started(n, Map.of("payments/worker-a", "payments"));
        d = NodeDrainStep.evicted(d, "web/api-1", EvictionResult.refusedByBudget("api-pdb", 0, "needs 2 healthy"), T0)
                .drain();
        NodeDrainStep.Step s = NodeDrainStep.observe(d, n, Map.of("payments", Map.of("worker-a", 1.0)), Set.of(),
                T0.plus(Duration.ofMinutes(10)));
        assertEquals(NodeDrainPhase.TIMED_OUT, s.drain().phase());
        assertEquals("still on node-1 at the deadline: web/api-1 (refused 1× by PodDisruptionBudget api-pdb: needs 2"
                + " healthy), payments/worker-a (1 in flight); marks removed, the node stays cordoned", s.drain().detail());
        assertEquals(List.of(new NodeDrainAction.Unmark("payments", List.of("worker-a"), "d1")), s.actions());
    }

    @Test
    void someoneUncordoningTheNodeInterruptsTheDrain() {
        NodeDrain d = started(node(true, pod("web", "api-1", "ReplicaSet")), Map.of());
        NodeDrainStep.Step s = NodeDrainStep.observe(d, node(false, pod("web", "api-1", "ReplicaSet")), Map.of(),
                Set.of(), T0.plusSeconds(1));
        assertEquals(NodeDrainPhase.INTERRUPTED, s.drain().phase());
    }

    @Test
    void podsThatCouldNotBeMarkedAreEvictedAsKubectlWould() {
        NodeDrain d = started(node(true, pod("payments", "worker-a", "ReplicaSet")), Map.of("payments/worker-a", "payments"));
        NodeDrainStep.Step s = NodeDrainStep.marked(d, "payments", PodMarks.Result.refused(List.of("worker-a"),
                "KEDA manages it"), T0);
        assertEquals(List.of(new NodeDrainAction.Evict("payments", "worker-a")), s.actions());
        assertTrue(s.drain().detail().contains("as kubectl drain would"), s.drain().detail());
    }

    @Test
    void cancelStopsAndUnmarks() {
        NodeDrain d = started(node(true, pod("payments", "worker-a", "ReplicaSet")), Map.of("payments/worker-a", "payments"));
        NodeDrainStep.Step s = NodeDrainStep.cancel(d, "cancelled by ana", T0.plusSeconds(3));
        assertEquals(NodeDrainPhase.INTERRUPTED, s.drain().phase());
        assertEquals(List.of(new NodeDrainAction.Unmark("payments", List.of("worker-a"), "d1")), s.actions());
    }
}
