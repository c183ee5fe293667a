package io.headroom.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionVerdict.State;
import io.headroom.sandbox.SandboxClassSpec.ServiceTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Producers that obey admission in the sandbox world: what they submit, what they hold and retry. */
class ProducerGateTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static SandboxWorld world(double rate) {
        SandboxClassSpec c = SandboxClassSpec.builder("c").baseRate(rate).service(ServiceTime.constant(1))
                .concurrency(1).initialReplicas(1).build();
        return new SandboxWorld(List.of(c), 5, T0);
    }

    static Instant at(double s) {
        return T0.plusNanos(Math.round(s * 1e9));
    }

    @Test
    void freeProducersSubmitEverythingAsBefore() {
        SandboxWorld free = world(10);
        free.advanceTo(at(100));
        ProducerGate.View v = free.producers("c").orElseThrow().view();
        assertEquals(ProducerGate.Mode.FREE, v.mode());
        assertEquals(0, v.jobsRejected());
        assertEquals(free.measure("c").orElseThrow().jobsArrived(), v.admitted());
    }

    @Test
    void aThrottleLetsInAtMostTheRateAndHoldsTheRestForRetry() {
        SandboxWorld w = world(10);
        ProducerGate g = w.producers("c").orElseThrow();
        g.obey(30);
        g.admission(State.THROTTLE, 2, null);
        w.advanceTo(at(100));
        ProducerGate.View v = g.view();
        long offered = w.measure("c").orElseThrow().jobsArrived();
        // 2 jobs/s over 100 s, plus at most the bucket's burst of one second's worth.
        assertTrue(v.admitted() <= 2 * 100 + 2, "admitted " + v.admitted());
        assertTrue(v.admitted() >= 2 * 100 - 10, "a throttle still lets the rate in: " + v.admitted());
        assertTrue(v.jobsRejected() > 600, "refused " + v.jobsRejected() + " of " + offered);
        assertTrue(v.rejections() > v.jobsRejected(), "refused jobs are retried and refused again");
        // Every job offered is either let in or held for a retry: none is lost.
        assertEquals(offered, v.admitted() + v.held());
        assertTrue(v.held() > 0);
        assertEquals(State.THROTTLE, v.state());
        assertEquals(2, v.rate());
    }

    @Test
    void closedLetsNothingInAndRetriesAfterTheDelayOnceOpen() {
        SandboxWorld w = world(5);
        ProducerGate g = w.producers("c").orElseThrow();
        g.obey(30);
        g.admission(State.CLOSED, 0, null);
        w.advanceTo(at(60));
        assertEquals(0, g.view().admitted());
        assertEquals(0, w.measure("c").orElseThrow().queueLength() + w.measure("c").orElseThrow().inFlight());
        int held = g.view().held();
        assertTrue(held > 200, "held " + held);
        g.admission(State.OPEN, Double.NaN, null);
        w.advanceTo(at(91));
        // Every job held at 60 s has retried by 91 s (30 s after its last refusal) and been let in.
        assertTrue(g.view().admitted() >= held, g.view() + " vs " + held);
        assertEquals(0, g.view().held(), "no job is still held 30 s after admission opened");
    }

    @Test
    void anExpiredEntryIsIgnoredProducersFailOpen() {
        SandboxWorld w = world(5);
        ProducerGate g = w.producers("c").orElseThrow();
        g.obey(30);
        g.admission(State.CLOSED, 0, at(20));
        w.advanceTo(at(19));
        long before = g.view().admitted();
        assertEquals(0, before);
        w.advanceTo(at(40));
        assertTrue(g.view().admitted() > 50, "after expiry the producers submit again: " + g.view());
        assertEquals(State.OPEN, g.view().state());
    }

    @Test
    void aFixedLimitRefusesWhileInFlightPlusWaitingReachIt() {
        SandboxWorld w = world(10); // one slot, 1 s each: 1 job/s served, 10 offered
        ProducerGate g = w.producers("c").orElseThrow();
        g.limit(5, 30);
        for (int t = 1; t <= 100; t++) {
            w.advanceTo(at(t));
            SandboxWorld.Measurements m = w.measure("c").orElseThrow();
            assertTrue(m.queueLength() + m.inFlight() <= 5, "at " + t + " s: " + m);
        }
        assertTrue(g.view().jobsRejected() > 0);
    }
}
