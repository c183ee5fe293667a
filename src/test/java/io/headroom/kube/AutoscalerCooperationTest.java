package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Headroom cooperates with an HPA (refuses, says why) and with KEDA (paused-replicas, then hands back). */
class AutoscalerCooperationTest {
    static final String SCALED_OBJECT = MockCluster.ORDERS_SCALED_OBJECT;

    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    KubeClusterGateway gateway;
    final WorkloadRef orders = new WorkloadRef("dev", "shop", "Deployment", "orders");
    final WorkloadRef billing = new WorkloadRef("dev", "shop", "Deployment", "billing");
    final WorkloadRef free = new WorkloadRef("dev", "shop", "Deployment", "free");

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.kedaInstalled();
        cluster.deployment("shop", "orders", 3);
        cluster.deployment("shop", "billing", 2);
        cluster.deployment("shop", "free", 2);
        cluster.scaledObject(SCALED_OBJECT);
        cluster.hpa("shop", "billing-cpu", "billing", 2, 10, 70);
        gateway = cluster.openGateway(dir, orders);
    }

    GenericKubernetesResource scaledObject() {
        return cluster.admin.getKubernetesSerialization().unmarshal(SCALED_OBJECT, GenericKubernetesResource.class);
    }

    @Test
    void aKedaManagedTargetIsNotDrained() {
        cluster.pod("shop", "orders", "orders-a", true, "node-1");
        MockCluster.await("KEDA's view", Duration.ofSeconds(10),
                () -> gateway.autoscaler(orders).kind() == AutoscalerView.Kind.KEDA);
        io.headroom.cluster.PodMarks.Result r = gateway.drainMarks().markForDrain(orders, List.of("orders-a"), "orders-drain-1-ab12");
        assertEquals(List.of(), r.done());
        assertTrue(r.failed().get(0).startsWith("orders-a: KEDA ScaledObject orders-so scales"), r.failed().toString());
        assertTrue(r.failed().get(0).contains("freeze or override instead"), r.failed().get(0));
    }

    @Test
    void anHpaManagedTargetIsRefusedWithTheReasonAndWhatToDo() {
        AutoscalerView v = gateway.autoscaler(billing);
        assertEquals(AutoscalerView.Kind.HPA, v.kind());
        assertEquals("billing-cpu", v.name());
        assertEquals(2, v.minReplicas());
        assertEquals(10, v.maxReplicas());
        assertEquals("cpu", v.triggers().get(0).name());

        String rv = gateway.workload(billing).orElseThrow().resourceVersion();
        ScaleResult r = gateway.scaling().scale(billing, 6, rv);
        assertEquals(ScaleResult.Outcome.REFUSED, r.outcome());
        assertTrue(r.message().contains("HorizontalPodAutoscaler shop/billing-cpu"), r.message());
        assertTrue(r.message().contains("observe mode"), r.message());
        assertEquals(2, cluster.admin.apps().deployments().inNamespace("shop").withName("billing").get().getSpec().getReplicas());
        assertTrue(cluster.patches.stream().noneMatch(p -> p.path().contains("billing")),
                "an HPA's workload is never paused, marked or annotated: " + cluster.patches);
        ActionCheck check = gateway.scaling().canScale(billing);
        assertFalse(check.allowed());
        assertEquals(r.message(), check.reason());
        assertEquals(ScaleResult.Outcome.REFUSED, gateway.scaling().dryRunScale(billing, 6).outcome());
    }

    @Test
    void aKedaManagedTargetIsFrozenThroughPausedReplicasAndHandedBack() {
        assertTrue(gateway.kedaInstalled());
        AutoscalerView v = gateway.autoscaler(orders);
        assertEquals(AutoscalerView.Kind.KEDA, v.kind());
        assertEquals("orders-so", v.name());
        assertEquals(1, v.minReplicas());
        assertEquals(30, v.maxReplicas());
        assertNull(v.pausedReplicas());
        assertEquals(List.of("prometheus", "redis"), v.triggers().stream().map(AutoscalerView.Trigger::type).toList());
        assertEquals("(redacted)", v.triggers().get(1).metadata().get("password"), "secrets never reach the view");

        String rv = gateway.workload(orders).orElseThrow().resourceVersion();
        ScaleResult r = gateway.scaling().scale(orders, 8, rv);
        assertEquals(ScaleResult.Outcome.APPLIED, r.outcome(), r.message());
        assertTrue(r.message().contains("paused at 8"), r.message());
        assertEquals("8", annotations().get(Autoscalers.PAUSED_REPLICAS));
        // Ownership before effect: KEDA's pause, who wrote it and until when, in one write.
        java.time.Instant until = java.time.Instant.parse(annotations().get(HeadroomPause.UNTIL));
        assertTrue(until.isAfter(java.time.Instant.now().plus(HeadroomPause.WRITTEN_FOR).minusSeconds(60)), until.toString());
        assertEquals(io.headroom.kube.HolderIdentity.current().split("/")[0],
                annotations().get(HeadroomPause.OWNER).split("/")[0], "this console's identity owns the pause");
        List<MockCluster.Patch> soPatches = cluster.patches.stream().filter(p -> p.path().contains("/scaledobjects/orders-so"))
                .toList();
        assertEquals(1, soPatches.size(), soPatches.toString());
        for (String a : List.of(Autoscalers.PAUSED_REPLICAS, HeadroomPause.OWNER, HeadroomPause.UNTIL, HeadroomPause.REASON)) {
            assertTrue(soPatches.get(0).body().contains(a), a + " in the pause's one write: " + soPatches.get(0).body());
        }
        assertEquals(3, cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get().getSpec().getReplicas(),
                "KEDA, not Headroom, scales a KEDA-managed workload");
        MockCluster.await("the view to show the pause", Duration.ofSeconds(10),
                () -> Integer.valueOf(8).equals(gateway.autoscaler(orders).pausedReplicas()));

        ScaleResult back = gateway.pauses().handBack(orders);
        assertEquals(ScaleResult.Outcome.APPLIED, back.outcome(), back.message());
        assertFalse(annotations().containsKey(Autoscalers.PAUSED_REPLICAS));
        assertTrue(annotations().keySet().stream().noneMatch(k -> k.startsWith("headroom.io/")),
                "the pause and its record go in the same write: " + annotations());
        assertEquals(2, cluster.patches.stream().filter(p -> p.path().contains("/scaledobjects/orders-so")).count());
        MockCluster.await("the view to show KEDA in control", Duration.ofSeconds(10),
                () -> gateway.autoscaler(orders).pausedReplicas() == null);
        assertEquals(ScaleResult.Outcome.REFUSED, gateway.pauses().handBack(free).outcome());
    }

    @Test
    void aKedaPauseWithAStaleResourceVersionIsAConflict() {
        String rv = gateway.workload(orders).orElseThrow().resourceVersion();
        cluster.admin.apps().deployments().inNamespace("shop").withName("orders").scale(5);
        ScaleResult r = gateway.scaling().scale(orders, 8, rv);
        assertEquals(ScaleResult.Outcome.CONFLICT, r.outcome(), r.message());
        assertFalse(annotations().containsKey(Autoscalers.PAUSED_REPLICAS));
    }

    @Test
    void anUnmanagedTargetHasNoOtherAutoscaler() {
        assertEquals(AutoscalerView.Kind.NONE, gateway.autoscaler(free).kind());
    }

    private Map<String, String> annotations() {
        Map<String, String> a = cluster.scaledObject("shop", "orders-so").getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }
}
