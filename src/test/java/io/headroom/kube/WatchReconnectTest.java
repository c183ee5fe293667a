package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The API server goes away under a synced gateway and comes back on the same address with other state.
 *
 * <p>"Goes away" is the mock server shutting down, which closes every watch connection; "comes back" is a
 * new mock server on the same loopback port ({@link MockCluster#restartedOn}). The new server's store
 * holds what the cluster looks like now (another replica count, other pods), and it has no watch history
 * from before it started: the watches fabric8 resumes from their old resourceVersion are answered 410 Gone,
 * as a real API server answers a resourceVersion its watch cache no longer holds, so the informers
 * re-list. That re-list is what the test shows: a pod that vanished while the console was cut off
 * disappears from its view, which a resumed watch alone would never tell it.
 *
 * <p>The watch reconnect interval is 100 ms (fabric8's default is 1 s, doubling up to 32 s) through
 * {@link Contexts#customize}, so the test takes a few seconds.
 */
class WatchReconnectTest {
    static final Duration WAIT = Duration.ofSeconds(15);
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @Test
    void aDroppedWatchIsReportedStaleThenReListsFromTheServerThatCameBack(@TempDir Path dir) throws Exception {
        MockCluster before = new MockCluster();
        try {
            before.deployment("payments", "worker", 2);
            before.pod("payments", "worker", "worker-a", true, "node-1");
            before.pod("payments", "worker", "worker-b", false, "node-2");
            int port = before.server.getPort();
            try (KubeConnection conn = before.connect(dir, "dev",
                    b -> b.editOrNewConfig().withWatchReconnectInterval(100).endConfig());
                 KubeClusterGateway gateway = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
                assertTrue(gateway.awaitSynced(WAIT));
                MockCluster.await("every watch to be open", WAIT, () -> gateway.health().connected());
                assertEquals(List.of("worker-a", "worker-b"), podNames(gateway.workload(ref).orElseThrow()));
                java.time.Instant stopped = java.time.Instant.now();

                before.close(); // the API server goes away; its watch connections close

                MockCluster.await("health() to report the Deployment and Pod watches down", WAIT, () -> gateway.health()
                        .notReady().containsAll(List.of("deployments in payments (watch down)", "pods in payments (watch down)")));
                ClusterHealth down = gateway.health();
                assertFalse(down.connected(), down.toString());
                assertTrue(down.synced(), "the caches keep what they had: " + down);
                assertNotNull(down.staleSince(), down.toString());
                assertEquals(down.staleSince(), gateway.health().staleSince(), "stale since the drop, not since each look");
                MockCluster.await("the outage's reason", WAIT, () -> gateway.health().lastError() != null);
                String why = gateway.health().lastError();
                assertTrue(why.contains("Connect") || why.contains("refused") || why.contains("Failed to connect"), why);
                WorkloadState cached = gateway.workload(ref).orElseThrow();
                assertEquals(2, cached.specReplicas(), "while cut off, the last state seen is served (and marked stale)");
                // Issue 26 item 5: marked as the last known, not the current: as of when the watches were last open.
                assertFalse(cached.observedAt().isAfter(stopped), cached.observedAt() + " is after the drop at " + stopped);
                assertEquals(cached.observedAt(), gateway.workload(ref).orElseThrow().observedAt(), "and it stays so");

                try (MockCluster after = MockCluster.restartedOn(port)) {
                    after.deployment("payments", "worker", 7);
                    after.pod("payments", "worker", "worker-c", true, "node-3");

                    MockCluster.await("the view to show the cluster as it is now", WAIT, () -> {
                        WorkloadState w = gateway.workload(ref).orElseThrow();
                        return w.specReplicas() == 7 && podNames(w).equals(List.of("worker-c"));
                    });
                    MockCluster.await("health() to report live again", WAIT, () -> gateway.health().connected());
                    ClusterHealth up = gateway.health();
                    assertNull(up.staleSince(), up.toString());
                    assertEquals(List.of(), up.notReady());
                    assertTrue(up.requests() > down.requests(), "re-listing and re-watching are requests: " + up);
                    WorkloadState now = gateway.workload(ref).orElseThrow();
                    assertEquals(7, now.specReplicas());
                    assertFalse(now.pods().stream().anyMatch(p -> p.name().equals("worker-a")),
                            "worker-a vanished while the console was away; the re-list removed it");
                    assertTrue(now.observedAt().isAfter(stopped), "current again: " + now.observedAt());
                }
            }
        } finally {
            before.close(); // a no-op unless an assertion failed before the server was stopped
        }
    }

    private static List<String> podNames(WorkloadState w) {
        return w.pods().stream().map(PodState::name).toList();
    }
}
