package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.DecisionEngineTest.Obs;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * A stall seen through what a real Prometheus gives (issue 29): no in-flight series at all, completions
 * at zero, S missing ("no completions in window"), the oldest age growing a second per second. The age
 * term must not run the count up (the amplification loop); after max(3 × last known S, stuckAfterSeconds)
 * of it the class is a suspected stall, and the age term asks at most one step and says why.
 */
class SuspectedStallTest {

    static final Instant T0 = DecisionEngineTest.T0;

    static Policy policy() {
        return Policy.builder().slotsPerReplica(1).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(40).build();
    }

    /** What a real exporter answers: no inFlight series; S is NaN once nothing completes. */
    static Obs prometheus(double l, double age, double lambda, double s, double completions, int replicas, Instant at) {
        Obs o = Obs.of(l, age, lambda, s).drop(Signals.IN_FLIGHT).set(Signals.COMPLETION_RATE, completions);
        if (!Double.isFinite(s)) {
            o.missing(Signals.MEAN_SERVICE, "NaN (no completions in window)");
        }
        return o.replicas(replicas).at(at);
    }

    @Test
    void anHourOldHeadWithNothingCompletingIsSuspectedOnFirstSightAndAsksOneStep() {
        // The case: a 3600 s oldest job, zero completions, no in-flight series, S unknown, 2 replicas.
        Policy p = policy().toBuilder().maxAgeSeconds(300.0).build();
        Obs o = prometheus(5, 3600, 0, Double.NaN, 0, 2, T0);
        Decision d = DecisionEngine.decide("c", p, o.build(), ClassMemory.initial(), T0);
        assertTrue(d.has(Code.AGE_BREACH), d.reasons().toString());
        assertTrue(d.has(Code.STALL_SUSPECTED), d.reasons().toString());
        assertEquals(3, d.desiredReplicas(), "one step, not ceil(2 × 3600 / 300) = 24: " + d.explanation());
        assertTrue(d.explanation().contains("nothing completed for"), d.explanation());
        assertTrue(d.explanation().contains("at most one step"), d.explanation());
    }

    @Test
    void zeroCompletionsWithAGrowingAgeAreSuspectedAfterTheWindowThenAskOneStepAtMost() {
        Policy p = policy();
        ClassMemory mem = ClassMemory.initial();
        // Flowing: 2 jobs/s of 1 s jobs on 4 replicas; the memory learns S = 1 s.
        Decision d = DecisionEngine.decide("c", p, prometheus(2, 1, 2, 1, 2, 4, T0).build(), mem, T0);
        mem = d.memory().applied(T0, 4, d.desiredReplicas());
        int replicas = d.desiredReplicas();
        Integer atSuspicion = null;
        // Then nothing completes for ten minutes: the head is stuck, the queue and the oldest age grow.
        for (int i = 1; i <= 40; i++) {
            Instant at = T0.plusSeconds(15L * i);
            double age = 1 + 15.0 * i;
            Obs o = prometheus(2 + 30 * i, age, 2, Double.NaN, 0, replicas, at);
            d = DecisionEngine.decide("c", p, o.build(), mem, at);
            if (d.has(Code.STALL_SUSPECTED)) {
                // Dated from the head's arrival: max(3 × 1 s, stuckAfterSeconds 120 s) of nothing completing.
                assertTrue(age >= Policy.DEFAULT_STUCK_AFTER_SECONDS, "too early: tick " + i);
                atSuspicion = atSuspicion == null ? replicas : atSuspicion;
                assertTrue(d.desiredReplicas() <= atSuspicion + 1, "tick " + i + ": at most one step above the "
                        + atSuspicion + " of the suspicion, got " + d.desiredReplicas() + ": " + d.explanation());
            } else {
                assertTrue(age < Policy.DEFAULT_STUCK_AFTER_SECONDS + 15, "too late: tick " + i);
            }
            mem = d.memory().applied(at, replicas, d.desiredReplicas());
            replicas = d.desiredReplicas();
        }
        assertTrue(atSuspicion != null);
        assertTrue(d.has(Code.AGE_BREACH), d.reasons().toString());
        assertTrue(d.explanation().contains("nothing completed for"), d.explanation());
        assertFalse(d.stalled(), "suspected, not the confirmed stall of the in-flight rule");
    }

    @Test
    void longJobsThatHaveNotFinishedYetAreNotSuspectedBeforeThreeServiceTimes() {
        // Jobs of 600 s: a few minutes without a completion is normal, not a stall.
        Policy p = policy();
        ClassMemory mem = ClassMemory.initial();
        Decision d = DecisionEngine.decide("c", p, prometheus(2, 1, 0.01, 600, 0.01, 8, T0).build(), mem, T0);
        mem = d.memory();
        for (int i = 1; i <= 80; i++) { // 1200 s < 3 × 600 s
            Instant at = T0.plusSeconds(15L * i);
            d = DecisionEngine.decide("c", p, prometheus(3, 1 + 15.0 * i, 0.01, Double.NaN, 0, 8, at).build(), mem, at);
            mem = d.memory();
            assertFalse(d.has(Code.STALL_SUSPECTED), "tick " + i);
        }
    }

    @Test
    void completionsResumingClearTheSuspicion() {
        Policy p = policy();
        ClassMemory mem = ClassMemory.initial();
        Decision d = DecisionEngine.decide("c", p, prometheus(2, 1, 2, 1, 2, 4, T0).build(), mem, T0);
        mem = d.memory();
        for (int i = 1; i <= 12; i++) {
            Instant at = T0.plusSeconds(15L * i);
            d = DecisionEngine.decide("c", p, prometheus(2 + 30 * i, 1 + 15.0 * i, 2, Double.NaN, 0, 4, at).build(), mem, at);
            mem = d.memory();
        }
        assertTrue(d.has(Code.STALL_SUSPECTED), d.reasons().toString());
        Instant at = T0.plusSeconds(15L * 13);
        // Dead-lettered: the backlog moves again, the age is still high; the full age term is back.
        d = DecisionEngine.decide("c", p, prometheus(300, 120, 2, 1, 6, 4, at).build(), mem, at);
        assertFalse(d.has(Code.STALL_SUSPECTED), d.reasons().toString());
        assertEquals(8, d.ageReplicas(), "ceil(4 × 120 / 60)");
    }
}
