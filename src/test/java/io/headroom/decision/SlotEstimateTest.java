package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Steps 1 to 3 on their own: the fast arrival estimate, D_eff, where S comes from, and bad data. */
class SlotEstimateTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    static Map<SignalName, Signal> signals(Instant at, double l, double age, double lambda, double s, double completions) {
        Map<SignalName, Signal> m = new HashMap<>();
        m.put(Signals.QUEUE_LENGTH, Signal.of(l, at));
        m.put(Signals.OLDEST_AGE, Signal.of(age, at));
        m.put(Signals.ARRIVAL_RATE, Signal.of(lambda, at));
        m.put(Signals.MEAN_SERVICE, Signal.of(s, at));
        m.put(Signals.COMPLETION_RATE, Signal.of(completions, at));
        m.put(Signals.IN_FLIGHT, Signal.of(0, at));
        return m;
    }

    static SlotEstimate.Result estimate(Policy p, Observation obs, ClassMemory mem, Instant now) {
        return SlotEstimate.estimate(p, new Inputs(obs, p, now), obs, mem, now, new Trail());
    }

    static ClassMemory afterTick(Policy p, Observation obs, Instant at) {
        return DecisionEngine.decide("c", p, obs, ClassMemory.initial(), at).memory();
    }

    @Test
    void aBurstShowsInOneTickThroughNetGrowth() {
        Policy p = Policy.builder().slotsPerReplica(4).build();
        ClassMemory m = afterTick(p, new Observation(3, 3, signals(T0, 0, 0, 5, 1.5, 5)), T0);
        Instant now = T0.plusSeconds(15);
        // 40 jobs/s arrive, 8/s complete: the queue grows by 480 in 15 s; the 60 s rate still says 13.
        SlotEstimate.Result e = estimate(p, new Observation(3, 3, signals(now, 480, 12, 13, 1.5, 8)), m, now);
        assertEquals(13, e.lambda());
        assertEquals(40, e.lambdaUp(), 1e-9);
    }

    @Test
    void queueNoiseIsNotABurst() {
        Policy p = Policy.builder().slotsPerReplica(4).build();
        ClassMemory m = afterTick(p, new Observation(3, 3, signals(T0, 2, 1, 5, 1.5, 5)), T0);
        Instant now = T0.plusSeconds(15);
        // +15 jobs in 15 s at 5 jobs/s is within 2σ of Poisson noise (2 × √75 ≈ 17).
        SlotEstimate.Result e = estimate(p, new Observation(3, 3, signals(now, 17, 2, 5, 1.5, 5)), m, now);
        assertEquals(5, e.lambdaUp());
    }

    @Test
    void aShrinkingQueueNeverLowersTheRate() {
        Policy p = Policy.builder().build();
        ClassMemory m = afterTick(p, new Observation(3, 3, signals(T0, 500, 30, 10, 1, 10)), T0);
        Instant now = T0.plusSeconds(15);
        SlotEstimate.Result e = estimate(p, new Observation(3, 3, signals(now, 100, 20, 10, 1, 30)), m, now);
        assertEquals(10, e.lambdaUp(), "the slow, configured rate for the way down");
    }

    static Stream<Arguments> drainTargets() {
        // objective, age, measured start-up (NaN: none), policy start-up → D_eff
        return Stream.of(
                Arguments.of(null, 50.0, Double.NaN, 30.0, 60.0),        // no objective: D
                Arguments.of(300.0, 10.0, Double.NaN, 30.0, 60.0),       // plenty of time: D
                Arguments.of(120.0, 40.0, Double.NaN, 30.0, 50.0),       // 120 − 40 − 30
                Arguments.of(120.0, 40.0, 60.0, 30.0, 20.0),             // measured start-up wins: 120 − 40 − 60
                Arguments.of(120.0, 100.0, 60.0, 30.0, 10.0),            // past the point of no return: D_min
                Arguments.of(60.0, 90.0, Double.NaN, 30.0, 10.0));       // breached: D_min
    }

    @ParameterizedTest(name = "objective {0}, age {1}, start-up {2} → D_eff {4}")
    @MethodSource("drainTargets")
    void theBacklogDrainsBeforeTheObjectiveBreaks(Double objective, double age, double measured, double prior,
                                                  double expected) {
        Policy p = Policy.builder().maxAgeSeconds(objective).startupSeconds(prior).build();
        Observation obs = new Observation(2, 2, signals(T0, 100, age, 1, 1, 1), measured, null);
        SlotEstimate.Result e = estimate(p, obs, ClassMemory.initial(), T0);
        assertEquals(expected, e.dEff(), 1e-9);
        assertEquals(100 / expected, e.backlog(), 1e-9, "Q / D_eff with Q = L × S");
    }

    @Test
    void aMeasuredStartUpIsRememberedWhenThePodsThatShowedItAreGone() {
        Policy p = Policy.builder().maxAgeSeconds(120.0).build();
        ClassMemory m = DecisionEngine.decide("c", p, new Observation(2, 2, signals(T0, 0, 0, 1, 1, 1), 75, null),
                ClassMemory.initial(), T0).memory();
        assertEquals(75, m.startupSeconds());
        Instant now = T0.plusSeconds(15);
        SlotEstimate.Result e = estimate(p, new Observation(2, 2, signals(now, 50, 20, 1, 1, 1)), m, now);
        assertEquals(75, e.startup());
        assertEquals(25, e.dEff(), 1e-9);
    }

    @Test
    void theOldestAgeSpentWaitingOnStartingPodsIsATerm() {
        Policy p = Policy.builder().maxAgeSeconds(120.0).build();
        Map<SignalName, Signal> s = signals(T0, 40, 60, 1, 1, 1);
        Decision fromZero = DecisionEngine.decide("c", p, new Observation(3, 0, s, Double.NaN, null,
                T0.minusSeconds(40)), ClassMemory.initial(), T0);
        assertEquals(40, fromZero.term("waitingOnStartup").value());
        assertTrue(fromZero.term("waitingOnStartup").formula().contains("(67 %) is pods starting from zero"),
                fromZero.term("waitingOnStartup").formula());
        Decision some = DecisionEngine.decide("c", p, new Observation(5, 3, s, Double.NaN, null, T0.minusSeconds(90)),
                ClassMemory.initial(), T0);
        assertEquals(60, some.term("waitingOnStartup").value(), "never more than the oldest age");
        assertNull(DecisionEngine.decide("c", p, new Observation(3, 3, s), ClassMemory.initial(), T0)
                .term("waitingOnStartup"), "nothing starting");
    }

    static Stream<Arguments> absurd() {
        return Stream.of(
                Arguments.of(Signals.QUEUE_LENGTH, 1e12),
                Arguments.of(Signals.QUEUE_LENGTH, 4294967296e3),
                Arguments.of(Signals.ARRIVAL_RATE, 1e9),
                Arguments.of(Signals.MEAN_SERVICE, 1e8),
                Arguments.of(Signals.OLDEST_AGE, 1e10));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("absurd")
    void anAbsurdValueIsBadDataAndHoldsNeverScalesDown(SignalName signal, double value) {
        Policy p = Policy.builder().maxAgeSeconds(60.0).build();
        Map<SignalName, Signal> s = signals(T0, 10, 5, 2, 1, 2);
        s.put(signal, Signal.of(value, T0));
        Decision d = DecisionEngine.decide("c", p, new Observation(8, 8, s), ClassMemory.initial(), T0);
        assertEquals(8, d.desiredReplicas(), d.explanation());
        assertTrue(d.reasons().contains(Reason.of(Code.TELEMETRY_MISSING, signal)), d.reasons().toString());
        assertTrue(d.input(signal).reason().startsWith("bad data"), d.input(signal).reason());
    }

    @Test
    void largeButRealValuesSaturateAtMaxReplicasAndNeverWrap() {
        Policy p = Policy.builder().maxReplicas(1000)
                .scaleUp(new ScalingBehavior(0, List.of(ScalingRule.pods(100000, 15)), ScalingBehavior.SelectPolicy.MAX))
                .build();
        // A hundred million jobs of a day each: the slot count exceeds an int, the decision is max replicas.
        Map<SignalName, Signal> s = signals(T0, 1e8, 5, 1e6, 86400, 1);
        Decision d = DecisionEngine.decide("c", p, new Observation(10, 10, s), ClassMemory.initial(), T0);
        assertEquals(Integer.MAX_VALUE, d.estimatedSlots());
        assertEquals(1000, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.MAX_REPLICAS));
    }

    @Test
    void sComesFromLiveThenLastKnownThenThePriorElseItIsUnknown() {
        Policy prior = Policy.builder().expectedServiceSeconds(9.0).build();
        Map<SignalName, Signal> noS = signals(T0, 10, 1, 1, 1, 1);
        noS.put(Signals.MEAN_SERVICE, Signal.missing("NaN"));
        assertEquals(SlotEstimate.ServiceSource.PRIOR, estimate(prior, new Observation(1, 1, noS), ClassMemory.initial(), T0).sSource());
        SlotEstimate.Result none = estimate(Policy.defaults(), new Observation(1, 1, noS), ClassMemory.initial(), T0);
        assertEquals(SlotEstimate.ServiceSource.UNKNOWN, none.sSource());
        assertNull(none.slots(), "no S and work waiting: nothing to estimate with");
        ClassMemory m = afterTick(prior, new Observation(1, 1, signals(T0, 0, 0, 1, 4, 1)), T0);
        SlotEstimate.Result last = estimate(prior, new Observation(1, 1, noS), m, T0.plusSeconds(5));
        assertEquals(SlotEstimate.ServiceSource.LAST_KNOWN, last.sSource());
        assertEquals(4, last.s());
        assertNotNull(last.slots());
        assertFalse(last.partial());
    }
}
