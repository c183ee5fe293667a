package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.PodState;
import io.headroom.cluster.Redecision;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class KubeClusterGatewayTest {
    static final Duration WAIT = Duration.ofSeconds(10);
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
        cluster.deployment("payments", "worker", 2);
        cluster.deployment("payments", "other", 1);
        cluster.pod("payments", "worker", "worker-a", true, "node-1");
        cluster.pod("payments", "worker", "worker-b", false, "node-2");
        cluster.pod("payments", "other", "other-a", true, "node-1");
        gateway = cluster.openGateway(dir, ref);
    }

    @Test
    void readsTheWorkloadAndItsPodsFromTheWatchCache() {
        WorkloadState w = gateway.workload(ref).orElseThrow();
        assertEquals(2, w.specReplicas());
        assertEquals(List.of("worker-a", "worker-b"), w.pods().stream().map(PodState::name).toList());
        PodState a = w.pods().get(0);
        assertTrue(a.ready());
        assertEquals("Running", a.phase());
        assertEquals("node-1", a.node());
        assertFalse(w.pods().get(1).ready());
        assertEquals("Pending", w.pods().get(1).phase());
        assertEquals(1, w.readyReplicas(), "no controller status yet: ready pods count");
        assertTrue(gateway.workload(new WorkloadRef("dev", "payments", "Deployment", "missing")).isEmpty());
    }

    @Test
    void aWatchedChangeReachesListenersAndReadsWithoutPolling() {
        List<ClusterEvent> events = new CopyOnWriteArrayList<>();
        gateway.addListener(events::add);
        long before = gateway.health().requests();
        Deployment d = cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get();
        d.getSpec().setReplicas(6);
        cluster.admin.apps().deployments().inNamespace("payments").resource(d).update();
        cluster.pod("payments", "worker", "worker-c", true, "node-3");

        MockCluster.await("the update event", WAIT, () -> events.stream().anyMatch(
                e -> e.type() == ClusterEvent.Type.UPDATED && e.name().equals("worker")));
        MockCluster.await("the cache to show 6 replicas and 3 pods", WAIT, () -> {
            WorkloadState w = gateway.workload(ref).orElseThrow();
            return w.specReplicas() == 6 && w.pods().size() == 3;
        });
        for (int i = 0; i < 100; i++) {
            gateway.workload(ref);
        }
        ClusterHealth h = gateway.health();
        assertTrue(h.connected(), h.toString());
        assertTrue(h.synced());
        assertTrue(h.lastEventAt() != null);
        assertEquals(before, h.requests(), "reads come from the watch cache, not from requests");
    }

    @Test
    void aStaleResourceVersionIsReDecidedAgainstTheFreshStateNotOverwritten() {
        WorkloadState seen = gateway.workload(ref).orElseThrow();
        // Someone else scales after we read.
        cluster.admin.apps().deployments().inNamespace("payments").withName("worker").scale(5);

        assertEquals(ScaleResult.Outcome.CONFLICT, gateway.scaling().scale(ref, 3, seen.resourceVersion()).outcome());
        assertEquals(5, replicas(), "a stale write never lands");

        AtomicInteger calls = new AtomicInteger();
        List<Integer> seenByRedecider = new CopyOnWriteArrayList<>();
        ScaleResult r = gateway.scaling().scale(ref, 3, seen.resourceVersion(), fresh -> {
            calls.incrementAndGet();
            seenByRedecider.add(fresh.specReplicas());
            return Redecision.propose(fresh.specReplicas() + 2);
        }, 3);
        assertEquals(ScaleResult.Outcome.APPLIED, r.outcome(), r.message());
        assertEquals(1, calls.get());
        assertEquals(List.of(5), seenByRedecider, "the re-decision sees the state the server has");
        assertEquals(7, replicas());
    }

    @Test
    void aReDecisionMayGiveUpWithItsReason() {
        WorkloadState seen = gateway.workload(ref).orElseThrow();
        cluster.admin.apps().deployments().inNamespace("payments").withName("worker").scale(9);
        ScaleResult r = gateway.scaling().scale(ref, 3, seen.resourceVersion(),
                fresh -> Redecision.giveUp("an operator scaled it by hand; proposal withdrawn"), 3);
        assertEquals(ScaleResult.Outcome.CONFLICT, r.outcome());
        assertTrue(r.message().contains("proposal withdrawn"), r.message());
        assertTrue(r.message().contains("now 9 replicas"), r.message());
        assertEquals(9, replicas());
    }

    @Test
    void aCurrentResourceVersionScales() {
        WorkloadState seen = gateway.workload(ref).orElseThrow();
        ScaleResult r = gateway.scaling().scale(ref, 4, seen.resourceVersion());
        assertEquals(ScaleResult.Outcome.APPLIED, r.outcome(), r.message());
        assertEquals(4, replicas());
        MockCluster.await("the cache to follow", WAIT, () -> gateway.workload(ref).orElseThrow().specReplicas() == 4);
    }

    private int replicas() {
        return cluster.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec().getReplicas();
    }
}
