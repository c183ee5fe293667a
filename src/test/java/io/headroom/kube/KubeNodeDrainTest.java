package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.decision.Policy;
import io.headroom.drain.NodeDrain;
import io.headroom.drain.NodeDrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node drain through the supervisor against the mock API server: the node is cordoned on the server,
 * Headroom's pod is marked and waited on, every pod is evicted through the eviction subresource (never a
 * delete), a PodDisruptionBudget's 429 is shown with the budget it names and retried with back-off on
 * the supervisor's clock, and the drain ends completed, or timed out naming the pods still there. The
 * mock runs no controllers and CRUD mode cannot evict: an expectation answers the eviction subresource as
 * the API server would (429 with the budget's Status while the budget allows no disruption, else 201),
 * and the test plays the API server's part after an accepted eviction by deleting the pod.
 */
class KubeNodeDrainTest extends MockDrainFixture {
    static final String PDB_STATUS = Evictions.pdbStatus("api-pdb");
    final InFlightMetrics metrics = new InFlightMetrics();
    final Map<String, Double> inFlight = metrics.inFlight;
    final NodeRef node1 = new NodeRef("dev", "node-1");
    /** The eviction subresource; web/api-1 is behind the budget api-pdb. */
    Evictions evictions;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 2);
        cluster.node("node-1");
        cluster.node("node-2");
        pod("payments", "worker-a", "node-1", "ReplicaSet", "worker-7d4f", "worker");
        pod("payments", "worker-b", "node-2", "ReplicaSet", "worker-7d4f", "worker");
        pod("web", "api-1", "node-1", "ReplicaSet", "api-5c9b", "api");
        pod("kube-system", "proxy-x", "node-1", "DaemonSet", "kube-proxy", "proxy");
        evictions = new Evictions(cluster, "api-pdb").answer("web", "api-1", true).answer("payments", "worker-a", false);
        gateway = cluster.openGateway(dir, ref);
        WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1).build());
        use(DrainConsole.on(gateway, cls, journal, clock, metrics));
    }

    /** A running, ready pod of {@code app} on {@code node}, controlled by {@code ownerKind}/{@code owner}. */
    void pod(String ns, String name, String node, String ownerKind, String owner, String app) {
        cluster.newPod(ns, name).app(app).onNode(node).ownedBy(ownerKind, owner).created("2026-12-01T09:00:00Z")
                .create();
    }

    /** One tick a few seconds later, after the API server did its part. */
    void tick(int seconds) {
        clock.advance(Duration.ofSeconds(seconds));
        evictions.carryOut();
        loop.tick();
    }

    NodeDrain drain() {
        return supervisor.nodeDrains().stream().filter(d -> d.node().equals(node1)).findFirst().orElseThrow();
    }

    boolean unschedulable(String node) {
        return cluster.cordoned(node);
    }

    @Test
    void theNodesAndTheirPodsAreReadFromTheServer() {
        List<NodeState> nodes = gateway.nodes().nodes("dev");
        assertEquals(List.of("node-1", "node-2"), nodes.stream().map(n -> n.ref().name()).toList());
        NodeState n1 = gateway.nodes().node(node1).orElseThrow();
        assertEquals(List.of("kube-system/proxy-x", "payments/worker-a", "web/api-1"),
                n1.pods().stream().map(p -> p.key()).toList());
        assertEquals("DaemonSet", n1.pods().get(0).ownerKind());
        assertFalse(n1.unschedulable());
        assertTrue(n1.ready());
    }

    @Test
    void aBudgetsRefusalIsShownWithTheBudgetRetriedWithBackOffAndTheDrainCompletes() throws Exception {
        inFlight.put("worker-a", 1.0);
        Outcome o = supervisor.startNodeDrain(node1, Duration.ofMinutes(10), "kernel upgrade").get();
        assertTrue(o.ok(), o.message());
        assertTrue(unschedulable("node-1"), "cordoned on the server");
        assertFalse(unschedulable("node-2"));
        String id = drain().id();
        assertEquals(id, cluster.annotations("payments", "worker-a").get("headroom.io/drain"),
                "Headroom's pod is drained the Headroom way first: marked");
        assertEquals(List.of("kube-system/proxy-x (DaemonSet kube-proxy: it runs on every node)"), drain().left());

        // The first eviction of web/api-1 went at once and the budget refused it: shown with the budget's name.
        assertEquals(1, drain().refusals().size());
        NodeDrain.Refusal r = drain().refusals().get(0);
        assertEquals("web/api-1", r.pod());
        assertEquals("api-pdb", r.budget());
        assertEquals("The disruption budget api-pdb needs 2 healthy pods and has 2 currently", r.message());
        assertEquals(clock.instant().plusSeconds(5), r.retryAt());

        tick(2);
        assertEquals(1, drain().refusals().size(), "not asked again before the back-off");
        assertEquals(1, evictions.bodies.size(), "worker-a is busy: not evicted yet");
        tick(4);
        assertEquals(2, drain().refusals().size(), "asked again after 5 s, refused again");
        assertEquals(clock.instant().plusSeconds(10), drain().refusals().get(1).retryAt(), "then twice as long");

        inFlight.put("worker-a", 0.0);
        tick(2);
        assertEquals(List.of("payments/worker-a"), List.copyOf(evictions.accepted), "idle: now evicted");
        assertNotNull(cluster.admin.pods().inNamespace("payments").withName("worker-a").get(),
                "evicted, not deleted: the API server removes it, not the console");
        evictions.budgetExhausted.set(false); // the replacement elsewhere is ready: the budget allows one disruption
        for (int i = 0; i < 10 && drain().active(); i++) {
            tick(3);
        }
        assertEquals(NodeDrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals("drained node-1: payments/worker-a, web/api-1 gone; left kube-system/proxy-x (DaemonSet"
                + " kube-proxy: it runs on every node); it stays cordoned until uncordoned", drain().detail());
        assertTrue(unschedulable("node-1"));
        for (JsonNode body : evictions.bodies) {
            assertEquals("policy/v1", body.path("apiVersion").asString(""));
            assertEquals("Eviction", body.path("kind").asString(""));
            assertTrue(body.path("deleteOptions").isMissingNode(), "the pod's own grace period: " + body);
        }

        Outcome u = supervisor.uncordon(node1, "upgrade done").get();
        assertTrue(u.ok(), u.message());
        assertFalse(unschedulable("node-1"), "uncordoned: one action");

        List<Kind> kinds = journal.replay().records().stream().map(JournalRecord::kind).toList();
        assertEquals(List.of(Kind.NODE_DRAIN_STARTED, Kind.NODE_CORDONED, Kind.EVICTION_REFUSED, Kind.POD_EVICTED,
                Kind.POD_EVICTED, Kind.NODE_DRAIN_ENDED, Kind.NODE_UNCORDONED), kinds,
                "the same refusal journaled once; every eviction and the end");
        JournalRecord refused = journal.replay().records().get(2);
        assertEquals("node-1", refused.node());
        assertEquals("PodDisruptionBudget api-pdb", refused.reason());
        assertEquals("payments", journal.replay().records().get(3).className(), "worker-a's eviction names its class");
    }

    @Test
    void aDrainTheBudgetKeepsRefusingTimesOutNamingThePodsStillThere() throws Exception {
        inFlight.put("worker-a", 2.0);
        assertTrue(supervisor.startNodeDrain(node1, Duration.ofSeconds(30), null).get().ok());
        for (int i = 0; i < 20 && drain().active(); i++) {
            tick(3);
        }
        assertEquals(NodeDrainPhase.TIMED_OUT, drain().phase());
        assertTrue(drain().detail().startsWith("still on node-1 at the deadline: payments/worker-a (2 in flight),"
                + " web/api-1 (refused "), drain().detail());
        assertTrue(drain().detail().contains("by PodDisruptionBudget api-pdb: The disruption budget api-pdb needs 2"
                + " healthy pods and has 2 currently"), drain().detail());
        assertTrue(drain().detail().endsWith("; marks removed, the node stays cordoned"), drain().detail());
        assertNull(cluster.annotations("payments", "worker-a").get("headroom.io/drain"), "marks removed");
        assertNull(cluster.annotations("payments", "worker-a").get("controller.kubernetes.io/pod-deletion-cost"));
        assertNotNull(cluster.admin.pods().inNamespace("web").withName("api-1").get());
        assertTrue(unschedulable("node-1"), "a timed-out drain leaves the node cordoned; uncordon is one action");
        assertTrue(drain().refusals().size() >= 3, "retried: " + drain().refusals());
    }

    @Test
    void theStatusOfA429NamesTheBudgetAndOtherAnswersAreNotMistakenForOne() {
        EvictionResult r = KubeNodes.evictionResult(429, PDB_STATUS, null);
        assertEquals(EvictionResult.Outcome.REFUSED_BY_BUDGET, r.outcome());
        assertEquals("api-pdb", r.budget());
        EvictionResult twoBudgets = KubeNodes.evictionResult(500, "{\"kind\":\"Status\",\"message\":\"This pod"
                + " has more than one PodDisruptionBudget, which the eviction subresource does not support.\"}", null);
        assertEquals(EvictionResult.Outcome.FAILED, twoBudgets.outcome());
        assertTrue(twoBudgets.message().contains("more than one PodDisruptionBudget"), twoBudgets.message());
        EvictionResult throttled = KubeNodes.evictionResult(429, "{\"kind\":\"Status\",\"message\":\"too many"
                + " requests\",\"details\":{\"retryAfterSeconds\":7}}", null);
        assertEquals(EvictionResult.Outcome.FAILED, throttled.outcome(), "a 429 naming no budget is the API's throttle");
        assertEquals(7, throttled.retryAfterSeconds());
        assertEquals(EvictionResult.Outcome.GONE, KubeNodes.evictionResult(404, "{}", null).outcome());
        assertEquals(EvictionResult.Outcome.EVICTED, KubeNodes.evictionResult(201, "{}", null).outcome());
    }

    /**
     * Issue 28: before a node drain starts, its confirmation reads the budgets on the API server: api-pdb (min
     * available 1, allowing no disruption now, as its status says) covers web/api-1 on node-1, so the preview
     * lists the pods per class (payments first), the budget with what it asks and allows, and api-1 waiting.
     * Reading it starts nothing: the node stays schedulable.
     */
    @Test
    void thePreviewReadsTheBudgetsOnTheServerAndStartsNothing() throws Exception {
        cluster.admin.policy().v1().podDisruptionBudget().inNamespace("web").resource(
                new io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder()
                        .withNewMetadata().withName("api-pdb").withNamespace("web").endMetadata()
                        .withNewSpec().withMinAvailable(new io.fabric8.kubernetes.api.model.IntOrString(1))
                        .withNewSelector().addToMatchLabels("app", "api").endSelector().endSpec()
                        .withNewStatus().withDisruptionsAllowed(0).withCurrentHealthy(1).withDesiredHealthy(1)
                        .withExpectedPods(1).endStatus().build()).create();
        loop.tick();
        io.headroom.drain.NodeDrainPreview p = supervisor.previewNodeDrain(node1).get(30, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(null, p.refused());
        assertEquals(List.of("payments", "other pods in web"), p.groups().stream()
                .map(io.headroom.drain.NodeDrainPreview.Group::title).toList());
        assertEquals(List.of("payments/worker-a"), p.groups().get(0).pods());
        assertEquals(List.of("web/api-pdb: min available 1 (1 healthy, 1 needed), allows 0 evictions now; 1 of its"
                + " pods is on this node"), p.budgets());
        assertTrue(p.waits().stream().anyMatch(w -> w.startsWith("web/api-1 waits for api-pdb")), p.waits().toString());
        assertFalse(cluster.admin.nodes().withName("node-1").get().getSpec().getUnschedulable() == Boolean.TRUE,
                "asking starts nothing");
        assertTrue(supervisor.nodeDrains().isEmpty());
    }
}
