package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import io.headroom.supervise.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * "Export / apply as KEDA" as the console does it, against fabric8's CRUD mock server (dry runs answered
 * as the API server does): the preview is the YAML with KEDA's gaps as comments and the dry run's
 * difference against the live ScaledObject, which it leaves alone; the apply writes only what was
 * reviewed, journaled before and after, posted as events on the ScaledObject and the workload; an
 * object that changed after the review is not overwritten.
 */
class ApplyFromConsoleTest extends MockSessionFixture {
    static final String LIVE = MockCluster.prometheusScaledObject("shop", "orders", "orders-worker",
            "  annotations:\n    team: payments\n");

    @BeforeEach
    void setUp() throws Exception {
        cluster.kedaInstalled();
        cluster.deployment("shop", "orders-worker", 3);
        cluster.scaledObject(LIVE);
        session = cluster.session(dir, "up", "shop", """
                prometheus: {url: "http://prometheus.monitoring:9090", timeoutSeconds: 1}
                classes:
                  - {name: orders, context: up, namespace: shop, target: {kind: Deployment, name: orders-worker},
                     signals: {queueLength: 'sum(orders_queue_depth)', oldestAge: a, arrivalRate: r, meanService: s},
                     policy: {pollIntervalSeconds: 1, minReplicas: 2, maxReplicas: 12}}
                """, journal, "ana@oncall");
    }

    Map<String, Object> liveSpec() {
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) cluster.scaledObject("shop", "orders")
                .getAdditionalProperties().get("spec");
        return spec;
    }

    List<Event> events(String reason) {
        return cluster.events("shop").stream().filter(e -> reason.equals(e.getReason())).toList();
    }

    List<JournalRecord.Kind> kinds() {
        return journal.replay().records().stream().map(JournalRecord::kind).toList();
    }

    @Test
    void thePreviewIsADryRunAndTheDifferenceAndTheApplyWritesWhatWasReviewed() throws Exception {
        KedaApply.Preview p = session.kedaApply().preview("orders").get(20, TimeUnit.SECONDS);
        assertNull(p.problem(), p.problem());
        assertTrue(p.applicable());
        assertEquals("shop/orders", p.object());
        assertTrue(p.yaml().startsWith("# "), "KEDA's gaps come first, as comments: " + p.yaml());
        assertTrue(p.yaml().contains("kind: ScaledObject"), p.yaml());
        assertTrue(p.diff().contains("~ spec.minReplicaCount: 1 → 2"), p.diff());
        assertTrue(p.diff().contains("~ spec.maxReplicaCount: 30 → 12"), p.diff());
        assertEquals(1, cluster.dryRuns.size(), "the server was asked for a dry run: " + cluster.dryRuns);
        assertTrue(cluster.dryRuns.get(0).startsWith("PUT "), cluster.dryRuns.toString());
        assertEquals(1, ((Number) liveSpec().get("minReplicaCount")).intValue(), "a preview writes nothing");
        assertTrue(journal.replay().records().isEmpty(), "nothing is journaled for a preview");

        Outcome o = session.kedaApply().apply(p, "move orders to KEDA").get(20, TimeUnit.SECONDS);
        assertTrue(o.ok(), o.message());
        assertEquals(2, ((Number) liveSpec().get("minReplicaCount")).intValue());
        assertEquals(12, ((Number) liveSpec().get("maxReplicaCount")).intValue());
        assertEquals("payments", cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace("shop").withName("orders").get().getMetadata().getAnnotations().get("team"),
                "annotations already on the object are kept");
        assertEquals(List.of(JournalRecord.Kind.SCALED_OBJECT_APPLYING, JournalRecord.Kind.SCALED_OBJECT_APPLIED),
                kinds());
        JournalRecord intent = journal.replay().records().get(0);
        assertEquals("ana@oncall", intent.user());
        assertTrue(intent.reason().startsWith("move orders to KEDA (ScaledObject shop/orders, "), intent.reason());
        assertTrue(intent.detail().contains("~ spec.minReplicaCount: 1 → 2"), intent.detail());

        MockCluster.await("events on the ScaledObject and on the workload", Duration.ofSeconds(15), () ->
                events("HeadroomAppliedScaledObject").stream().anyMatch(e -> "ScaledObject".equals(e.getInvolvedObject().getKind())
                        && e.getMessage().startsWith("ana@oncall applied"))
                        && events("HeadroomAppliedScaledObject").stream().anyMatch(e -> "orders-worker".equals(
                        e.getInvolvedObject().getName()) && e.getMessage().contains("move orders to KEDA")));
    }

    @Test
    void anObjectChangedAfterTheReviewIsNotOverwrittenAndTheRefusalIsJournaled() throws Exception {
        KedaApply.Preview p = session.kedaApply().preview("orders").get(20, TimeUnit.SECONDS);
        assertTrue(p.applicable(), String.valueOf(p.problem()));
        GenericKubernetesResource live = cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace("shop").withName("orders").get();
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) live.getAdditionalProperties().get("spec");
        spec.put("minReplicaCount", 5);
        cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace("shop").resource(live)
                .update();

        Outcome o = session.kedaApply().apply(p, "move orders to KEDA").get(20, TimeUnit.SECONDS);
        assertFalse(o.ok());
        assertTrue(o.message().contains("changed since the difference was shown"), o.message());
        assertEquals(5, ((Number) liveSpec().get("minReplicaCount")).intValue(), "not overwritten");
        assertEquals(List.of(JournalRecord.Kind.SCALED_OBJECT_APPLYING, JournalRecord.Kind.SCALED_OBJECT_REFUSED),
                kinds());
        MockCluster.await("the refusal as an event on the workload", Duration.ofSeconds(15),
                () -> !events("HeadroomScaledObjectRefused").isEmpty());
    }
}
