package io.headroom.baseline;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** KEDA's length rule as KEDA and the HPA run it: ceil(L / listLength), tolerance, activation, nulls. */
class KedaLengthRuleTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Policy POLICY = Policy.builder().minReplicas(0).maxReplicas(100)
            .scaleDown(ScalingBehavior.defaultDown().withWindow(0)).build();

    static Observation obs(int current, Double waiting, Double inFlight) {
        Map<SignalName, Signal> s = new HashMap<>();
        if (waiting != null) {
            s.put(Signals.QUEUE_LENGTH, Signal.of(waiting, T0));
        } else {
            s.put(Signals.QUEUE_LENGTH, Signal.missing("empty result"));
        }
        if (inFlight != null) {
            s.put(Signals.IN_FLIGHT, Signal.of(inFlight, T0));
        }
        return new Observation(current, current, s);
    }

    static Decision decide(KedaLengthRule r, Observation o) {
        return r.decide("c", POLICY, o, ClassMemory.initial(), T0);
    }

    static Stream<Arguments> table() {
        // rule, current, waiting, in flight → desired
        return Stream.of(
                Arguments.of(KedaLengthRule.of(5), 4, 40.0, 0.0, 8),                           // ceil(40 / 5)
                Arguments.of(KedaLengthRule.of(5), 4, 21.0, 0.0, 4),                           // 21/20 within 10 %
                Arguments.of(KedaLengthRule.of(5), 4, 23.0, 0.0, 5),                           // 23/20 beyond it
                Arguments.of(KedaLengthRule.of(5), 4, 40.0, 100.0, 8),                         // waiting only
                Arguments.of(new KedaLengthRule(5, 0, true, true), 20, 40.0, 100.0, 28),      // + in flight (SQS)
                Arguments.of(KedaLengthRule.of(5), 0, 3.0, 0.0, 1),                            // activation: 0 → 1
                Arguments.of(new KedaLengthRule(5, 10, false, true), 0, 3.0, 0.0, 0));         // below activation
    }

    @ParameterizedTest(name = "{0}: {1} replicas, {2} waiting, {3} in flight → {4}")
    @MethodSource("table")
    void recommendsAsTheHpaWouldOnKedasMetric(KedaLengthRule rule, int current, double waiting, double inFlight,
                                              int expected) {
        assertEquals(expected, decide(rule, obs(current, waiting, inFlight)).desiredReplicas());
    }

    @Test
    void anEmptyResultReadsAsZeroByDefaultAndScalesDown() {
        Decision d = decide(KedaLengthRule.of(5), obs(6, null, 0.0));
        assertEquals(1, d.desiredReplicas(), "ignoreNullValues: missing is 0, so the HPA's minimum of 1");
        assertTrue(d.explanation().contains("ignoreNullValues"), d.explanation());
    }

    @Test
    void withIgnoreNullValuesOffAMissingLengthHolds() {
        Decision d = decide(new KedaLengthRule(5, 0, false, false), obs(6, null, 0.0));
        assertEquals(6, d.desiredReplicas());
        assertTrue(d.has(Reason.Code.TELEMETRY_MISSING));
    }

    @Test
    void toZeroOnlyAfterTheCooldown() {
        KedaLengthRule r = KedaLengthRule.of(5);
        Decision d = r.decide("c", POLICY, obs(2, 0.0, 0.0), ClassMemory.initial(), T0);
        assertEquals(1, d.desiredReplicas(), "inactive, cooldown not over");
        Decision later = r.decide("c", POLICY, obs(1, 0.0, 0.0), d.memory(), T0.plusSeconds(301));
        assertEquals(0, later.desiredReplicas());
        assertTrue(later.has(Reason.Code.SCALE_TO_ZERO));
    }

    @Test
    void scaleUpFollowsTheHpaDefaultRatePolicy() {
        Decision d = decide(KedaLengthRule.of(5), obs(3, 1000.0, 0.0));
        assertEquals(7, d.desiredReplicas(), "max(100 %, 4 pods) per 15 s from 3");
        assertTrue(d.has(Reason.Code.RATE_LIMITED_UP));
    }

    static final ScalingBehavior ONE_POD_A_MINUTE = new ScalingBehavior(300,
            List.of(io.headroom.decision.ScalingRule.pods(1, 60)), ScalingBehavior.SelectPolicy.MAX);

    @Test
    void aboveMaxKedasHpaGoesStraightToMaxEvenWhenTheScalerErrs() {
        // horizontal.go reconcileAutoscaler: a count above maxReplicas goes to it before any metric is read.
        Policy p = Policy.builder().minReplicas(1).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE).build();
        Decision d = KedaLengthRule.of(5).decide("c", p, obs(20, 0.0, 0.0), ClassMemory.initial(), T0);
        assertEquals(10, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Reason.Code.ABOVE_MAX), d.reasons().toString());
        Decision erring = new KedaLengthRule(5, 0, false, false).decide("c", p, obs(20, null, 0.0),
                ClassMemory.initial(), T0);
        assertEquals(10, erring.desiredReplicas(), erring.explanation());
        assertTrue(erring.has(Reason.Code.TELEMETRY_MISSING) && erring.has(Reason.Code.ABOVE_MAX));
    }

    @Test
    void atZeroBelowMinReplicaCountKedasExecutorSetsIt() {
        // kedacore/keda pkg/scaling/executor/scale_scaledobjects.go: inactive and below minReplicaCount → it;
        // active at zero → minReplicaCount (scaleFromZero), without the HPA's rate policies.
        Policy p = Policy.builder().minReplicas(6).maxReplicas(20).build();
        Decision inactive = KedaLengthRule.of(5).decide("c", p, obs(0, 0.0, 0.0), ClassMemory.initial(), T0);
        assertEquals(6, inactive.desiredReplicas(), inactive.explanation());
        assertTrue(inactive.has(Reason.Code.BELOW_MIN), inactive.reasons().toString());
        Decision active = KedaLengthRule.of(5).decide("c", p, obs(0, 500.0, 0.0), ClassMemory.initial(), T0);
        assertEquals(6, active.desiredReplicas(), "not the HPA's 4 from zero: " + active.explanation());
        assertTrue(active.has(Reason.Code.SCALE_FROM_ZERO));
        Decision scaleToZeroClass = decide(KedaLengthRule.of(5), obs(0, 0.0, 0.0));
        assertEquals(0, scaleToZeroClass.desiredReplicas(), "minReplicaCount 0: stays at zero");
    }

    @Test
    void theHpaOnCpuMovesOutOfRangeCountsAndLeavesZeroAlone() {
        Policy p = Policy.builder().minReplicas(2).maxReplicas(10).scaleDown(ONE_POD_A_MINUTE).build();
        HpaCpuRule hpa = new HpaCpuRule(0.7, 0.5);
        Decision above = hpa.decide("c", p, new Observation(12, 12, Map.of()), ClassMemory.initial(), T0);
        assertEquals(10, above.desiredReplicas(), "no CPU metrics, yet above max: " + above.explanation());
        assertTrue(above.has(Reason.Code.ABOVE_MAX));
        Decision below = hpa.decide("c", p, new Observation(1, 1, Map.of()), ClassMemory.initial(), T0);
        assertEquals(2, below.desiredReplicas(), below.explanation());
        // horizontal_test.go TestZeroReplicas: at zero with minReplicas 3 scaling is disabled; nothing moves.
        Decision zero = hpa.decide("c", Policy.builder().minReplicas(3).maxReplicas(5).build(),
                new Observation(0, 0, Map.of()), ClassMemory.initial(), T0);
        assertEquals(0, zero.desiredReplicas(), zero.explanation());
    }

    @Test
    void parsesRulesAndNamesWhatIsWrong() {
        Baselines.Named k = Baselines.parse("keda:listLength=7.5,activation=2,inFlight=true");
        assertEquals("keda:listLength=7.5,activation=2,inFlight=true", k.label()); // options that differ are named
        assertEquals(new KedaLengthRule(7.5, 2, true, true), k.decider());
        assertEquals(new HpaCpuRule(0.8, HpaCpuRule.DEFAULT_BUSY_POD_CPU), Baselines.parse("hpa-cpu:target=80").decider());
        for (String bad : List.of("", "keda", "keda:listLength=x", "keda:listLength=5,colour=red", "keda:listLength=0",
                "mystery:a=1", "keda:inFlight=maybe,listLength=5")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Baselines.parse(bad), bad);
            assertTrue(e.getMessage().length() > 10, e.getMessage());
        }
    }

    @Test
    void theHpaOnCpuStaysSatisfiedWhileABacklogBuilds() {
        // Every slot busy, 5,000 jobs waiting: an I/O-bound pod is at half its CPU request, under the 70 % target.
        Map<SignalName, Signal> s = Map.of(Signals.IN_FLIGHT, Signal.of(16, T0), Signals.QUEUE_LENGTH, Signal.of(5000, T0));
        Policy p = Policy.builder().slotsPerReplica(4).build();
        Decision d = new HpaCpuRule(0.7, 0.5).decide("c", p, new Observation(4, 4, s), ClassMemory.initial(), T0);
        assertTrue(d.desiredReplicas() <= 4, d.explanation());
    }
}
