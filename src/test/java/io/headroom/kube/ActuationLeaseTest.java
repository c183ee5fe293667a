package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two consoles contend for one class's Lease: one actuates, the other observes, takeover only after expiry. */
class ActuationLeaseTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    KubeClusterGateway ana;
    KubeClusterGateway bob;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        ana = console("ana@desk-1/aaaa0001");
        bob = console("bob@desk-2/bbbb0002");
    }

    KubeClusterGateway console(String identity) throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock,
                new LeaseKeeper(c.client(), identity, clock, Duration.ofSeconds(15)));
        assertTrue(g.awaitSynced(Duration.ofSeconds(10)));
        return g;
    }

    @AfterEach
    void tearDown() {
        for (KubeClusterGateway g : List.of(ana, bob)) {
            g.close();
            g.connection().close();
        }
    }

    @Test
    void onlyTheHolderActuatesAndTheOtherTakesOverOnlyAfterExpiry() {
        ScaleResult first = ana.scaling().scale(ref, 3, null);
        assertEquals(ScaleResult.Outcome.APPLIED, first.outcome(), first.message());
        assertEquals("ana@desk-1/aaaa0001", lease().getSpec().getHolderIdentity());

        ScaleResult denied = bob.scaling().scale(ref, 9, null);
        assertEquals(ScaleResult.Outcome.REFUSED, denied.outcome());
        assertTrue(denied.message().contains("held by ana@desk-1/aaaa0001"), denied.message());
        assertFalse(bob.scaling().canScale(ref).allowed());
        assertEquals(3, replicas());

        // Ana renews within the duration; Bob still cannot take it.
        clock.advance(Duration.ofSeconds(10));
        ana.leases().orElseThrow().renewAll();
        clock.advance(Duration.ofSeconds(10));
        bob.leases().orElseThrow().renewAll();
        assertFalse(bob.leases().orElseThrow().holds(ref));
        assertEquals(ScaleResult.Outcome.APPLIED, ana.scaling().scale(ref, 4, null).outcome());

        // Ana stops renewing (crashed, asleep). Bob takes over once he has seen her lease stand still
        // for a whole duration (her scale renewed it after his last look: his count starts again now).
        clock.advance(Duration.ofSeconds(16));
        assertFalse(ana.leases().orElseThrow().holds(ref), "a lease we could not renew lapses by our own clock too");
        bob.leases().orElseThrow().renewAll();
        assertFalse(bob.leases().orElseThrow().holds(ref), "a version Bob has only just seen is not expired");
        clock.advance(Duration.ofSeconds(15));
        bob.leases().orElseThrow().renewAll();
        LeaseState s = bob.leases().orElseThrow().state(ref).orElseThrow();
        assertTrue(s.mine());
        assertTrue(s.note().contains("took over from ana@desk-1/aaaa0001"), s.note());
        assertEquals(1, lease().getSpec().getLeaseTransitions());
        assertEquals(ScaleResult.Outcome.APPLIED, bob.scaling().scale(ref, 6, null).outcome());

        ana.leases().orElseThrow().renewAll();
        assertFalse(ana.leases().orElseThrow().state(ref).orElseThrow().mine());
        ScaleResult late = ana.scaling().scale(ref, 1, null);
        assertEquals(ScaleResult.Outcome.REFUSED, late.outcome());
        assertTrue(late.message().contains("bob@desk-2/bbbb0002"), late.message());
        assertEquals(6, replicas());
    }

    @Test
    void closingReleasesSoAnotherConsoleNeedNotWait() throws Exception {
        assertTrue(ana.leases().orElseThrow().acquire(ref).mine());
        ana.close();
        assertNull(lease().getSpec().getHolderIdentity());
        assertTrue(bob.leases().orElseThrow().acquire(ref).mine(), "no waiting for expiry after a release");
        ana = console("ana@desk-1/aaaa0003");
    }

    @Test
    void aScheduledRenewalKeepsTheLease() {
        // The keeper asks for a renewal every duration / 3 (at least 1 s); this scheduler notes what was
        // asked and runs the first one at once instead of after a second of wall time.
        java.util.List<Long> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.ScheduledThreadPoolExecutor scheduler = new java.util.concurrent.ScheduledThreadPoolExecutor(1) {
            @Override
            public java.util.concurrent.ScheduledFuture<?> scheduleWithFixedDelay(Runnable task, long initialDelay,
                                                                                 long delay, java.util.concurrent.TimeUnit unit) {
                asked.add(unit.toMillis(initialDelay));
                asked.add(unit.toMillis(delay));
                return super.scheduleWithFixedDelay(task, 0, delay, unit);
            }
        };
        try {
            LeaseKeeper k = new LeaseKeeper(ana.connection().client(), "ana@desk-1/aaaa0009", clock, Duration.ofSeconds(3));
            assertTrue(k.acquire(ref).mine());
            clock.advance(Duration.ofSeconds(2));
            k.start(scheduler);
            assertEquals(java.util.List.of(1000L, 1000L), asked, "renewed every duration / 3, the first after as long");
            Instant renewedTo = clock.instant();
            MockCluster.await("a scheduled renewal", Duration.ofSeconds(10),
                    () -> lease().getSpec().getRenewTime().toInstant().equals(renewedTo));
        } finally {
            scheduler.shutdownNow();
        }
    }

    private Lease lease() {
        return cluster.lease(ref);
    }

    private int replicas() {
        return cluster.replicas("payments", "worker");
    }
}
