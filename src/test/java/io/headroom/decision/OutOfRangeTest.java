package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory.Stamped;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A count outside min..max goes straight to the bound, as the HPA moves it (decision 0018), and how that meets
 * Headroom's own stages: windows, rate policies, missing telemetry, ceilings, scale to and from zero.
 */
class OutOfRangeTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    /** One pod a minute down: the policy that took 20 to 19 with max 10. */
    static final ScalingBehavior ONE_POD_A_MINUTE = new ScalingBehavior(300, List.of(ScalingRule.pods(1, 60)),
            ScalingBehavior.SelectPolicy.MAX);

    static Map<SignalName, Signal> queue(double waiting) {
        Map<SignalName, Signal> s = new HashMap<>();
        s.put(Signals.QUEUE_LENGTH, Signal.of(waiting, NOW));
        s.put(Signals.OLDEST_AGE, Signal.of(waiting > 0 ? 5 : 0, NOW));
        s.put(Signals.ARRIVAL_RATE, Signal.of(waiting > 0 ? 2 : 0, NOW));
        s.put(Signals.IN_FLIGHT, Signal.of(0, NOW));
        s.put(Signals.COMPLETION_RATE, Signal.of(waiting > 0 ? 2 : 0, NOW));
        s.put(Signals.MEAN_SERVICE, Signal.of(1, NOW));
        return s;
    }

    /** A class seen a tick ago at {@code current}, its window holding {@code held} since then. */
    static ClassMemory seen(int current, int held) {
        return ClassMemory.initial().next(current, NOW.minusSeconds(15), NOW.minusSeconds(15),
                List.of(new Stamped(NOW.minusSeconds(15), held)), List.of());
    }

    static Decision decide(Policy p, int current, Map<SignalName, Signal> signals, ClassMemory mem) {
        return DecisionEngine.decide("c", p, new Observation(current, current, signals), mem, NOW);
    }

    @Test
    void aboveMaxGoesStraightToMaxNotOnePodAMinute() {
        Policy p = Policy.builder().minReplicas(1).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE).build();
        Decision d = decide(p, 20, queue(0), seen(20, 20));
        assertEquals(10, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.ABOVE_MAX), d.reasons().toString());
        assertFalse(d.has(Code.RATE_LIMITED_DOWN), "no rate policy holds a count above max: " + d.reasons());
        assertFalse(d.has(Code.STABILISING_DOWN), "no window holds it either: " + d.reasons());
        assertTrue(d.explanation().contains("20 replicas, above max 10: straight to 10"), d.explanation());
        assertTrue(d.explanation().endsWith("20 → 10"), d.explanation());
        assertEquals(List.of(new Stamped(NOW.minusSeconds(15), 20)), d.memory().recommendations(),
                "the move is not a recommendation the windows remember, as the HPA records none");
    }

    @Test
    void belowMinGoesStraightToMinWhateverTheRatePolicyAllows() {
        ScalingBehavior onePodUp = new ScalingBehavior(0, List.of(ScalingRule.pods(1, 60)),
                ScalingBehavior.SelectPolicy.MAX);
        Policy p = Policy.builder().minReplicas(8).maxReplicas(20).scaleUp(onePodUp).build();
        Decision d = decide(p, 2, queue(0), seen(2, 2));
        assertEquals(8, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.BELOW_MIN), d.reasons().toString());
        assertFalse(d.has(Code.RATE_LIMITED_UP), d.reasons().toString());
    }

    @Test
    void withTelemetryMissingTheBoundStillApplies() {
        // The HPA moves an out-of-range count before it reads any metric.
        Policy p = Policy.builder().minReplicas(3).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE).build();
        Decision above = decide(p, 20, Map.of(), seen(20, 20));
        assertEquals(10, above.desiredReplicas(), above.explanation());
        assertTrue(above.has(Code.TELEMETRY_MISSING) && above.has(Code.ABOVE_MAX), above.reasons().toString());
        Decision below = decide(p, 1, Map.of(), seen(1, 1));
        assertEquals(3, below.desiredReplicas(), below.explanation());
        assertTrue(below.has(Code.BELOW_MIN), below.reasons().toString());
        Decision within = decide(p, 5, Map.of(), seen(5, 5));
        assertEquals(5, within.desiredReplicas(), "within min..max a hold is a hold");

        // A fallback floor above min still asks for more.
        Policy floor = Policy.builder().minReplicas(3).maxReplicas(10).fallback(new Fallback(1, 5)).build();
        Decision raised = decide(floor, 1, Map.of(), seen(1, 1));
        assertEquals(5, raised.desiredReplicas(), raised.explanation());
        assertTrue(raised.has(Code.FALLBACK) && raised.has(Code.BELOW_MIN), raised.reasons().toString());
        assertFalse(raised.explanation().contains("straight to 3"), raised.explanation());
    }

    @Test
    void aCeilingBelowTheBoundStillBinds() {
        Policy above = Policy.builder().minReplicas(1).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE)
                .ceilings(List.of(CeilingSpec.replicas("db", 6))).build();
        Decision d = decide(above, 20, queue(0), seen(20, 20));
        assertEquals(6, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.CEILING), d.reasons().toString());
        assertTrue(d.explanation().contains("ceiling db holds it at 6"), d.explanation());

        // Below min the ceiling wins over min, as it does for any recommendation (CEILING_BELOW_MIN).
        Policy below = Policy.builder().minReplicas(5).maxReplicas(10).ceilings(List.of(CeilingSpec.replicas("db", 3)))
                .build();
        Decision b = decide(below, 1, queue(0), seen(1, 1));
        assertEquals(3, b.desiredReplicas(), b.explanation());
        assertTrue(b.has(Code.CEILING_BELOW_MIN), b.reasons().toString());
    }

    @Test
    void idleForTheCooldownAboveMaxGoesToZeroAsKedaDoes() {
        Policy p = Policy.builder().minReplicas(0).maxReplicas(10).cooldownSeconds(60).build();
        ClassMemory idleSince = ClassMemory.initial().next(20, NOW.minusSeconds(15), NOW.minusSeconds(600), List.of(),
                List.of());
        Decision d = decide(p, 20, queue(0), idleSince);
        assertEquals(0, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.SCALE_TO_ZERO), d.reasons().toString());
        assertFalse(d.has(Code.ABOVE_MAX), d.reasons().toString());
    }

    @Test
    void fromZeroBelowMinStartsAtMinAsKedasExecutorDoes() {
        // Work waits at zero with min 3: KEDA's scaleFromZero sets minReplicaCount; the HPA would count
        // scaling as disabled (decision 0018).
        Policy p = Policy.builder().minReplicas(3).maxReplicas(50).build();
        Decision busy = decide(p, 0, queue(500), ClassMemory.initial());
        assertEquals(3, busy.desiredReplicas(), busy.explanation());
        assertTrue(busy.has(Code.BELOW_MIN) && busy.has(Code.SCALE_FROM_ZERO), busy.reasons().toString());
        Decision idle = decide(p, 0, queue(0), ClassMemory.initial());
        assertEquals(3, idle.desiredReplicas(), idle.explanation());

        // With min 0 zero is within range: the start from zero is Behaviour's, rate-limited as before.
        Decision scaleToZeroClass = decide(Policy.builder().minReplicas(0).maxReplicas(50).build(), 0, queue(500),
                ClassMemory.initial());
        assertEquals(4, scaleToZeroClass.desiredReplicas(), "max(100 % of 0, 4 pods): " + scaleToZeroClass.explanation());
        assertFalse(scaleToZeroClass.has(Code.BELOW_MIN));
    }

    @Test
    void theNumbersAloneAreTheSame() {
        Policy p = Policy.builder().minReplicas(1).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE)
                .ceilings(List.of(CeilingSpec.replicas("db", 6))).build();
        Observation o = new Observation(20, 20, queue(0));
        Decision words = DecisionEngine.decide("c", p, o, seen(20, 20), NOW);
        Decision numbers = DecisionEngine.decideNumbers("c", p, o, seen(20, 20), NOW);
        assertEquals(words.desiredReplicas(), numbers.desiredReplicas());
        assertEquals(words.reasons(), numbers.reasons());
        assertEquals(words.memory(), numbers.memory());
        assertEquals("", numbers.explanation());
    }
}
