package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drain marks (DESIGN §5) against the mock API server: the watch cache shows the marks pods carry. */
class DrainMarksTest {
    static final Duration WAIT = Duration.ofSeconds(10);
    @TempDir
    Path dir;
    MockCluster cluster;
    KubeClusterGateway gateway;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() throws Exception {
        cluster = new MockCluster();
        cluster.deployment("payments", "worker", 3);
        cluster.deployment("payments", "other", 1);
        // An annotation of someone else's: marks must be added beside it, and taken off without it.
        cluster.pod("payments", "worker", "worker-a", true, "node-1", Map.of("prometheus.io/scrape", "true"));
        cluster.pod("payments", "worker", "worker-b", true, "node-2");
        cluster.pod("payments", "worker", "worker-c", true, "node-1");
        cluster.pod("payments", "other", "other-a", true, "node-1");
        gateway = KubeClusterGateway.open(cluster.connect(dir, "dev"), List.of(ref), Clock.systemUTC(), null);
        assertTrue(gateway.awaitSynced(WAIT));
    }

    @AfterEach
    void tearDown() {
        gateway.close();
        gateway.connection().close();
        cluster.close();
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

    @Test
    void theCostAnnotationReadsAsKubernetesParsesIt() {
        assertEquals(Integer.MIN_VALUE, KubeClusterGateway.deletionCost("-2147483648"));
        assertEquals(Integer.MAX_VALUE, KubeClusterGateway.deletionCost("2147483647"));
        assertEquals(0, KubeClusterGateway.deletionCost("0"));
        for (String bad : new String[] {"2147483648", "-2147483649", "1.5", " 5", "", "ten", "0x10"}) {
            assertNull(KubeClusterGateway.deletionCost(bad), bad);
        }
        assertNull(KubeClusterGateway.deletionCost(null));
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
