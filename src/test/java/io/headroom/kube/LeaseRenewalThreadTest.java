package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A console's loop thread stuck in a slow write must not let its Leases lapse: renewal runs on a
 * thread of its own. The loop is blocked here by a tick listener that waits; the Lease is renewed anyway.
 */
class LeaseRenewalThreadTest extends MockSessionFixture {
    final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void releaseTheLoop() {
        release.countDown(); // before the fixture closes the session
    }

    @Test
    void leasesAreRenewedWhileTheLoopThreadIsBlocked() throws Exception {
        cluster.deployment("search", "indexer", 2);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "up", "t0ken-for-the-test", "up", cluster.url(),
                "search");
        Path workloads = dir.resolve("workloads.yaml");
        java.nio.file.Files.writeString(workloads, MockCluster.workloads(MockCluster.unreachableUrl(),
                "indexing", "up", "search", "indexer"));
        // The shortest lease (3 s): renewed every second, so a renewal is due soon after the loop blocks.
        session = Session.connect(io.headroom.config.WorkloadsFile.read(workloads),
                Contexts.load(java.util.List.of(kubeconfig)), new MemoryJournal(), null, Duration.ofSeconds(3));
        KubeClusterGateway gateway = session.loop().cluster().byContext().get("up").adapter(KubeClusterGateway.class)
                .orElseThrow();
        assertTrue(gateway.awaitSynced(Duration.ofSeconds(15)));
        WorkloadRef ref = session.loop().classes().get(0).target();

        CountDownLatch blocked = new CountDownLatch(1);
        session.loop().addListener(r -> {
            blocked.countDown();
            try {
                release.await(); // the loop thread is stuck, as in a write that never answers
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        session.startAsync(Duration.ZERO);
        MockCluster.await("the loop thread to block", Duration.ofSeconds(15), () -> blocked.getCount() == 0);

        assertTrue(gateway.leases().orElseThrow().acquire(ref).mine());
        Instant first = renewTime(ref);
        MockCluster.await("a renewal while the loop thread is blocked", Duration.ofSeconds(40),
                () -> renewTime(ref).isAfter(first));
    }

    private Instant renewTime(WorkloadRef ref) {
        return cluster.lease(ref).getSpec().getRenewTime().toInstant();
    }
}
