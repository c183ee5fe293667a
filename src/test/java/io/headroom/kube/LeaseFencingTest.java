package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One actuator per class when the consoles' clocks disagree: a Lease is judged by its resourceVersion
 * not changing for a full duration as this console sees it (client-go's rule), never by comparing the
 * holder's renewTime with the local clock; and every write re-reads the Lease right before it.
 */
class LeaseFencingTest {
    static final Duration LEASE = Duration.ofSeconds(15);
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final List<KubeClusterGateway> opened = new ArrayList<>();

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        for (String p : List.of("worker-a", "worker-b")) {
            cluster.pod("payments", "worker", p, true, "node-1");
        }
        cluster.answerAccessReviews(true, null);
    }

    @AfterEach
    void tearDown() {
        for (KubeClusterGateway g : opened) {
            g.close();
            g.connection().close();
        }
    }

    KubeClusterGateway console(String identity, ManualClock clock) throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock,
                new LeaseKeeper(c.client(), identity, clock, LEASE));
        opened.add(g);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        return g;
    }

    @Test
    void aClockFortySecondsAheadDoesNotTakeALiveLease() throws Exception {
        ManualClock anaClock = new ManualClock(T0);
        ManualClock bobClock = new ManualClock(T0.plusSeconds(40));
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", anaClock);
        KubeClusterGateway bob = console("bob@desk-2/bbbb0002", bobClock);

        ScaleResult first = ana.scaling().scale(ref, 3, null);
        assertEquals(ScaleResult.Outcome.APPLIED, first.outcome(), first.message());
        anaClock.advance(Duration.ofMillis(500));
        bobClock.advance(Duration.ofMillis(500));
        ScaleResult second = bob.scaling().scale(ref, 9, null);
        assertEquals(ScaleResult.Outcome.REFUSED, second.outcome(), "only one console may scale: " + second.message());
        assertTrue(second.message().contains("held by ana@desk-1/aaaa0001"), second.message());
        assertEquals(3, replicas());

        // Ana keeps renewing: however long Bob looks, her lease never looks expired to him.
        for (int i = 0; i < 8; i++) {
            anaClock.advance(Duration.ofSeconds(5));
            bobClock.advance(Duration.ofSeconds(5));
            ana.leases().orElseThrow().renewAll();
            bob.leases().orElseThrow().renewAll();
            assertFalse(bob.leases().orElseThrow().holds(ref), "round " + i);
            assertTrue(ana.leases().orElseThrow().holds(ref), "round " + i);
        }
        assertEquals(ScaleResult.Outcome.REFUSED, bob.scaling().scale(ref, 9, null).outcome());
        assertEquals(ScaleResult.Outcome.APPLIED, ana.scaling().scale(ref, 4, null).outcome());
        assertEquals(4, replicas());
        assertEquals("ana@desk-1/aaaa0001", lease().getSpec().getHolderIdentity());
    }

    @Test
    void aClockBehindStillTakesOverOnceTheLeaseStopsChangingForAFullDuration() throws Exception {
        ManualClock anaClock = new ManualClock(T0);
        ManualClock bobClock = new ManualClock(T0.minus(Duration.ofHours(1)));
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", anaClock);
        KubeClusterGateway bob = console("bob@desk-2/bbbb0002", bobClock);
        assertEquals(ScaleResult.Outcome.APPLIED, ana.scaling().scale(ref, 3, null).outcome());

        // Ana stops renewing (her laptop sleeps). Bob sees the same resourceVersion on every look.
        assertFalse(bob.leases().orElseThrow().acquire(ref).mine());
        bobClock.advance(LEASE.minusSeconds(1));
        bob.leases().orElseThrow().renewAll();
        assertFalse(bob.leases().orElseThrow().holds(ref), "not yet a full duration unchanged");
        // Ana's own deadline comes before anyone may take over: she stops acting first.
        anaClock.advance(LEASE.minusSeconds(1));
        assertFalse(ana.leases().orElseThrow().holds(ref), "the holder gives up before the lease can be taken");

        bobClock.advance(Duration.ofSeconds(2));
        bob.leases().orElseThrow().renewAll();
        assertTrue(bob.leases().orElseThrow().holds(ref), "a full duration unchanged, by Bob's own clock");
        assertEquals(ScaleResult.Outcome.APPLIED, bob.scaling().scale(ref, 6, null).outcome());

        ScaleResult late = ana.scaling().scale(ref, 1, null);
        assertEquals(ScaleResult.Outcome.REFUSED, late.outcome(), late.message());
        assertEquals(6, replicas());
    }

    @Test
    void aLeaseLostSinceTheLastRenewalFencesEveryWrite() throws Exception {
        ManualClock anaClock = new ManualClock(T0);
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", anaClock);
        assertEquals(ScaleResult.Outcome.APPLIED, ana.scaling().scale(ref, 3, null).outcome());
        assertTrue(ana.leases().orElseThrow().holds(ref));

        // Someone else holds the Lease now; Ana's renewal has not run since, so her own view still says "mine".
        cluster.admin.leases().inNamespace("payments").withName(LeaseKeeper.leaseName(ref)).edit(l -> {
            l.getSpec().setHolderIdentity("carol@desk-3/cccc0003");
            return l;
        });
        anaClock.advance(Duration.ofSeconds(1));

        ScaleResult r = ana.scaling().scale(ref, 7, null);
        assertEquals(ScaleResult.Outcome.REFUSED, r.outcome(), r.message());
        assertTrue(r.message().contains("carol@desk-3/cccc0003"), r.message());
        assertEquals(3, replicas());

        PodMarks.Result m = ana.drainMarks().markForDrain(ref, List.of("worker-a"), "ana-drain");
        assertEquals(List.of(), m.done());
        assertTrue(m.failed().get(0).contains("carol@desk-3/cccc0003"), m.failed().get(0));
        assertFalse(cluster.annotations("payments", "worker-a").containsKey(PodMarks.DRAIN_ANNOTATION));
        assertFalse(ana.scaling().canScale(ref).allowed());
    }

    private Lease lease() {
        return cluster.lease(ref);
    }

    private int replicas() {
        return cluster.replicas("payments", "worker");
    }
}
