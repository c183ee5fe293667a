package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Simulated pools whose node capacity vanishes and comes back (issue 30). */
class PoolLedgerTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(30), Duration.ofSeconds(60));

    static PoolLedger ledger() {
        return new PoolLedger(List.of(
                new SimPool(new PoolSpec("spot", 10, null, 1, null), List.of(new Window(100, 300))),
                new SimPool(new PoolSpec("on-demand", 10, null, 3, null), List.of())), TIMING);
    }

    static Placement.Result at(PoolLedger l, int replicas, double t) {
        return l.place(replicas, T0.plusSeconds((long) t), t);
    }

    @Test
    void withCapacityEveryPodAskedForIsScheduled() {
        PoolLedger l = ledger();
        at(l, 6, 0);
        assertEquals(6, l.scheduled());
        assertEquals(0, l.pending("spot"));
    }

    @Test
    void newPodsOfAPoolWithoutCapacityStayPendingTillTheDeadlineThenTheShareMoves() {
        PoolLedger l = ledger();
        at(l, 4, 0);
        Placement.Result r = at(l, 8, 105);
        assertEquals(8, r.share("spot").replicas(), "before the deadline the pool is still asked");
        assertEquals(4, l.scheduled(), "its 4 new pods are pending: no node");
        assertEquals(4, l.pending("spot"));
        r = at(l, 8, 120);
        assertTrue(r.share("spot").available(), "15 s pending of a 30 s deadline");
        r = at(l, 8, 135);
        assertFalse(r.share("spot").available());
        assertEquals(4, r.share("spot").replicas());
        assertEquals(4, r.share("on-demand").replicas());
        assertEquals(8, l.scheduled(), "on-demand's 4 are scheduled");
        assertEquals(1, l.pending("spot"), "one probe pends");
    }

    @Test
    void capacityBackSchedulesThePendingPodsAndAfterTheHysteresisTheShareReturns() {
        PoolLedger l = ledger();
        at(l, 4, 0);
        at(l, 8, 105);
        at(l, 8, 135);
        Placement.Result r = at(l, 8, 300);
        assertEquals(0, l.pending("spot"), "the probe got its node");
        assertFalse(r.share("spot").available());
        r = at(l, 8, 360);
        assertTrue(r.share("spot").available());
        assertEquals(8, r.share("spot").replicas());
        assertEquals(0, r.share("on-demand").replicas());
        assertEquals(8, l.scheduled());
    }

    @Test
    void scaleDownRemovesPendingPodsFirst() {
        PoolLedger l = ledger();
        at(l, 4, 0);
        at(l, 8, 105);
        at(l, 5, 110);
        assertEquals(1, l.pending("spot"));
        assertEquals(4, l.scheduled());
        at(l, 3, 115);
        assertEquals(0, l.pending("spot"));
        assertEquals(3, l.scheduled());
    }
}
