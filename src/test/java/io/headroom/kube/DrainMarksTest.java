package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drain marks (design.md §5) against the mock API server: which pods get them, that the watch cache
 * shows them, that they come off again, and how each pod's failure reads.
 */
class DrainMarksTest {
    static final Duration WAIT = Duration.ofSeconds(10);
    static final String COST = Integer.toString(PodMarks.DRAIN_DELETION_COST);
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    KubeClusterGateway gateway;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 3);
        cluster.deployment("payments", "other", 1);
        // An annotation of someone else's: marks must be added beside it, and taken off without it.
        cluster.pod("payments", "worker", "worker-a", true, "node-1", Map.of("prometheus.io/scrape", "true"));
        cluster.pod("payments", "worker", "worker-b", true, "node-2");
        cluster.pod("payments", "worker", "worker-c", true, "node-1");
        cluster.pod("payments", "other", "other-a", true, "node-1");
        gateway = cluster.openGateway(dir, ref);
    }

    @Test
    void marksLandOnExactlyTheNamedPodsAndTheWatchCacheShowsThem() {
        cluster.answerAccessReviews(true, null);
        Map<String, String> uids = Map.of("worker-a", uid("worker-a"), "worker-c", uid("worker-c"));

        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-c"), "drain-7");
        assertEquals(List.of("worker-a", "worker-c"), r.done());
        assertTrue(r.ok(), r.failed().toString());

        for (String p : List.of("worker-a", "worker-c")) {
            Map<String, String> ann = cluster.annotations("payments", p);
            assertEquals(COST, ann.get(PodMarks.DELETION_COST_ANNOTATION), p);
            assertEquals("drain-7", ann.get(PodMarks.DRAIN_ANNOTATION), p);
        }
        assertEquals("true", cluster.annotations("payments", "worker-a").get("prometheus.io/scrape"),
                "a merge patch keeps the pod's other annotations");
        for (String p : List.of("worker-b", "other-a")) {
            assertFalse(cluster.annotations("payments", p).containsKey(PodMarks.DRAIN_ANNOTATION), p);
            assertFalse(cluster.annotations("payments", p).containsKey(PodMarks.DELETION_COST_ANNOTATION), p);
        }

        assertEquals(List.of("/api/v1/namespaces/payments/pods/worker-a", "/api/v1/namespaces/payments/pods/worker-c"),
                cluster.patches.stream().map(MockCluster.Patch::path).toList(), "one patch per named pod, nothing else");
        for (MockCluster.Patch q : cluster.patches) {
            assertTrue(q.contentType().startsWith("application/merge-patch+json"), q.contentType());
            String pod = q.path().substring(q.path().lastIndexOf('/') + 1);
            assertNotNull(uids.get(pod));
            assertTrue(q.body().contains("\"uid\":\"" + uids.get(pod) + "\""),
                    "the patch names the pod it checked: " + q.body());
        }

        WorkloadState w = awaitPods("the marks in the watch cache",
                pods -> pods.get("worker-a").draining() && pods.get("worker-c").draining());
        Map<String, PodState> pods = byName(w);
        assertEquals("drain-7", pods.get("worker-a").drainId());
        assertEquals(Integer.MIN_VALUE, pods.get("worker-a").deletionCost());
        assertEquals(Integer.MIN_VALUE, pods.get("worker-c").deletionCost());
        assertFalse(pods.get("worker-b").draining());
        assertNull(pods.get("worker-b").deletionCost());
    }

    @Test
    void unmarkingTakesBothMarksOffAndLeavesTheRest() {
        cluster.answerAccessReviews(true, null);
        assertTrue(gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-b"), "drain-8").ok());
        awaitPods("the marks in the cache", pods -> pods.get("worker-a").draining() && pods.get("worker-b").draining());

        PodMarks.Result r = gateway.drainMarks().unmarkDrain(ref, List.of("worker-a", "worker-b"), "drain-8");
        assertEquals(List.of("worker-a", "worker-b"), r.done());
        assertTrue(r.ok(), r.failed().toString());
        for (String p : List.of("worker-a", "worker-b")) {
            Map<String, String> ann = cluster.annotations("payments", p);
            assertFalse(ann.containsKey(PodMarks.DRAIN_ANNOTATION), p + ": " + ann);
            assertFalse(ann.containsKey(PodMarks.DELETION_COST_ANNOTATION), p + ": " + ann);
        }
        assertEquals(Map.of("prometheus.io/scrape", "true"), cluster.annotations("payments", "worker-a"));

        WorkloadState w = awaitPods("the cache to drop the marks",
                pods -> !pods.get("worker-a").draining() && !pods.get("worker-b").draining());
        for (PodState p : w.pods()) {
            assertNull(p.deletionCost(), p.name());
            assertNull(p.drainId(), p.name());
        }
        assertTrue(gateway.drainMarks().unmarkDrain(ref, List.of("worker-a"), "drain-8").ok(), "unmarking twice is harmless");
    }

    @Test
    void anUnknownPodAndAnotherWorkloadsPodFailWithReasonsWhileTheOthersAreMarked() {
        cluster.answerAccessReviews(true, null);
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-b", "ghost", "other-a"), "drain-9");
        assertEquals(List.of("worker-b"), r.done());
        assertEquals(List.of("ghost: not found in namespace payments",
                "other-a: not a pod of dev/payments/deployment/worker"), r.failed());
        assertFalse(cluster.annotations("payments", "other-a").containsKey(PodMarks.DRAIN_ANNOTATION));
        assertEquals("drain-9", cluster.annotations("payments", "worker-b").get(PodMarks.DRAIN_ANNOTATION));

        // Someone else's marks on another workload's pod are not ours to take off either.
        cluster.admin.pods().inNamespace("payments").withName("other-a").edit(p -> {
            p.getMetadata().setAnnotations(Map.of(PodMarks.DRAIN_ANNOTATION, "their-drain"));
            return p;
        });
        MockCluster.await("the other pod's mark in the cache", WAIT,
                () -> gateway.workload(new WorkloadRef("dev", "payments", "Deployment", "other")).orElseThrow()
                        .pods().get(0).draining());
        PodMarks.Result u = gateway.drainMarks().unmarkDrain(ref, List.of("worker-b", "other-a"), "drain-9");
        assertEquals(List.of("worker-b"), u.done());
        assertEquals(List.of("other-a: not a pod of dev/payments/deployment/worker"), u.failed());
        assertEquals("their-drain", cluster.annotations("payments", "other-a").get(PodMarks.DRAIN_ANNOTATION));
    }

    @Test
    void anotherDrainsMarksAreLeftAloneWhenADrainUnmarks() {
        cluster.answerAccessReviews(true, null);
        assertTrue(gateway.drainMarks().markForDrain(ref, List.of("worker-a"), "drain-16").ok());
        assertTrue(gateway.drainMarks().markForDrain(ref, List.of("worker-b"), "drain-17").ok());
        MockCluster.await("both marks in the cache", WAIT, () -> gateway.workload(ref).orElseThrow().pods().stream()
                .filter(PodState::draining).count() == 2);
        PodMarks.Result r = gateway.drainMarks().unmarkDrain(ref, List.of("worker-a", "worker-b"), "drain-16");
        assertEquals(List.of("worker-a", "worker-b"), r.done(), "nothing of drain-16's is left on either");
        assertNull(cluster.annotations("payments", "worker-a").get(PodMarks.DRAIN_ANNOTATION));
        assertEquals("drain-17", cluster.annotations("payments", "worker-b").get(PodMarks.DRAIN_ANNOTATION),
                "another drain's mark is not ours to remove");
    }

    @Test
    void aPodDeletedBetweenPlanAndUnmarkCountsAsDone() {
        cluster.answerAccessReviews(true, null);
        assertTrue(gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-b"), "drain-10").ok());
        cluster.admin.pods().inNamespace("payments").withName("worker-b").delete();
        // Whether or not the cache has seen the deletion yet, the pod is gone: nothing left to unmark.
        PodMarks.Result r = gateway.drainMarks().unmarkDrain(ref, List.of("worker-a", "worker-b"), "drain-10");
        assertEquals(List.of("worker-a", "worker-b"), r.done());
        assertTrue(r.ok(), r.failed().toString());
        assertFalse(cluster.annotations("payments", "worker-a").containsKey(PodMarks.DRAIN_ANNOTATION));
        assertNull(cluster.annotations("payments", "worker-b"));

        awaitPods("the cache to drop worker-b", pods -> !pods.containsKey("worker-b"));
        assertEquals(List.of("worker-b"), gateway.drainMarks().unmarkDrain(ref, List.of("worker-b"), "drain-10").done(),
                "also once the cache no longer has it");
        assertEquals(List.of("worker-b: not found in namespace payments"),
                gateway.drainMarks().markForDrain(ref, List.of("worker-b"), "drain-11").failed());
    }

    @Test
    void aPodDeletedBetweenTheCacheCheckAndThePatchFailsAsGone() {
        cluster.answerAccessReviews(true, null);
        cluster.server.expect().patch().withPath("/api/v1/namespaces/payments/pods/worker-c")
                .andReturn(404, status(404, "NotFound", "pods \\\"worker-c\\\" not found")).once();
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-c"), "drain-12");
        assertEquals(List.of("worker-a"), r.done());
        assertEquals(List.of("worker-c: not found (deleted since it was seen)"), r.failed());
    }

    @Test
    void aForbiddenPatchIsThatPodsFailureWithTheServersReason() {
        cluster.answerAccessReviews(true, null);
        cluster.server.expect().patch().withPath("/api/v1/namespaces/payments/pods/worker-b")
                .andReturn(403, status(403, "Forbidden", "admission webhook \\\"guard\\\" denied the request"))
                .once();
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-b"), "drain-13");
        assertEquals(List.of("worker-a"), r.done());
        assertEquals(List.of("worker-b: forbidden: HTTP 403: admission webhook \"guard\" denied the request"),
                r.failed());
    }

    @Test
    void withoutPermissionToPatchPodsNothingIsMarkedAndTheReasonSaysWhy() throws Exception {
        cluster.answerAccessReviews(false, "no RBAC policy matched");
        cluster.takeRequests();
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a", "worker-b"), "drain-14");
        assertEquals(List.of(), r.done());
        assertEquals(List.of("worker-a: not permitted to patch pods in payments: no RBAC policy matched",
                "worker-b: not permitted to patch pods in payments: no RBAC policy matched"), r.failed());
        List<RecordedRequest> sent = cluster.takeRequests();
        String review = sent.stream().filter(q -> q.getPath().equals(MockCluster.ACCESS_REVIEWS)).findFirst()
                .orElseThrow().getUtf8Body();
        for (String field : List.of("\"verb\":\"patch\"", "\"resource\":\"pods\"", "\"namespace\":\"payments\"")) {
            assertTrue(review.contains(field), field + " in " + review);
        }
        assertTrue(sent.stream().noneMatch(q -> q.getMethod().equals("PATCH")), "no pod was touched");
        assertFalse(cluster.annotations("payments", "worker-a").containsKey(PodMarks.DRAIN_ANNOTATION));
    }

    @Test
    void anotherConsolesLeaseRefusesMarksButNotTakingThemOff() throws Exception {
        cluster.answerAccessReviews(true, null);
        KubeClusterGateway ana = leased("ana@desk-1/aaaa0001");
        KubeClusterGateway bob = leased("bob@desk-2/bbbb0002");
        try {
            assertTrue(bob.drainMarks().markForDrain(ref, List.of("worker-a"), "bob-drain").ok(), "bob takes the lease and marks");
            PodMarks.Result r = ana.drainMarks().markForDrain(ref, List.of("worker-b"), "ana-drain");
            assertEquals(List.of(), r.done());
            assertEquals(1, r.failed().size());
            assertTrue(r.failed().get(0).startsWith("worker-b: observe only: held by bob@desk-2/bbbb0002"),
                    r.failed().get(0));
            assertFalse(cluster.annotations("payments", "worker-b").containsKey(PodMarks.DRAIN_ANNOTATION));
            // A console that lost the lease mid-drain must still be able to give its pods back.
            assertTrue(ana.drainMarks().unmarkDrain(ref, List.of("worker-c"), "ana-drain").ok());
        } finally {
            for (KubeClusterGateway g : List.of(ana, bob)) {
                g.close();
                g.connection().close();
            }
        }
    }

    @Test
    void anHpaManagedWorkloadIsNotMarked() {
        cluster.answerAccessReviews(true, null);
        cluster.hpa("payments", "worker-cpu", "worker", 2, 10, null);
        MockCluster.await("the HPA in the cache", WAIT, () -> gateway.autoscaler(ref).kind() == AutoscalerView.Kind.HPA);
        PodMarks.Result r = gateway.drainMarks().markForDrain(ref, List.of("worker-a"), "drain-15");
        assertEquals(List.of(), r.done());
        assertTrue(r.failed().get(0).startsWith("worker-a: refused: HorizontalPodAutoscaler payments/worker-cpu"),
                r.failed().get(0));
        assertFalse(cluster.annotations("payments", "worker-a").containsKey(PodMarks.DRAIN_ANNOTATION));
    }

    @Test
    void marksSetElsewhereAreReadAndAMalformedCostIsUnsetNotAnError() {
        cluster.pod("payments", "worker", "worker-d", true, "node-2",
                Map.of(PodMarks.DELETION_COST_ANNOTATION, "cheap", PodMarks.DRAIN_ANNOTATION, "drain-0"));
        cluster.pod("payments", "worker", "worker-e", true, "node-2", Map.of(PodMarks.DELETION_COST_ANNOTATION, "250"));
        Map<String, PodState> pods = byName(awaitPods("the new pods in the cache",
                p -> p.containsKey("worker-d") && p.containsKey("worker-e")));
        assertNull(pods.get("worker-d").deletionCost());
        assertEquals("drain-0", pods.get("worker-d").drainId());
        assertTrue(pods.get("worker-d").draining());
        assertEquals(250, pods.get("worker-e").deletionCost());
        assertFalse(pods.get("worker-e").draining());
    }

    private KubeClusterGateway leased(String identity) throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), Clock.systemUTC(),
                new LeaseKeeper(c.client(), identity, Clock.systemUTC(), Duration.ofSeconds(15)));
        assertTrue(g.awaitSynced(WAIT));
        return g;
    }

    private String uid(String pod) {
        return cluster.admin.pods().inNamespace("payments").withName(pod).get().getMetadata().getUid();
    }

    private static String status(int code, String reason, String message) {
        return "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"code\":" + code
                + ",\"reason\":\"" + reason + "\",\"message\":\"" + message + "\"}";
    }

    private WorkloadState awaitPods(String what, java.util.function.Predicate<Map<String, PodState>> condition) {
        WorkloadState[] seen = new WorkloadState[1];
        MockCluster.await(what, WAIT, () -> {
            seen[0] = gateway.workload(ref).orElseThrow();
            return condition.test(byName(seen[0]));
        });
        return Objects.requireNonNull(seen[0]);
    }

    private static Map<String, PodState> byName(WorkloadState w) {
        return w.pods().stream().collect(java.util.stream.Collectors.toMap(PodState::name, p -> p));
    }
}
