package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

class DecisionEngineTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** A fluent observation for the tables below. */
    static final class Obs {
        int current = 1;
        int ready = -1;
        final Map<SignalName, Signal> signals = new HashMap<>();
        Instant at = T0;

        static Obs of(double l, double age, double lambda, double s) {
            Obs o = new Obs();
            o.set(Signals.QUEUE_LENGTH, l).set(Signals.OLDEST_AGE, age).set(Signals.ARRIVAL_RATE, lambda)
                    .set(Signals.MEAN_SERVICE, s).set(Signals.IN_FLIGHT, 0).set(Signals.COMPLETION_RATE, 1);
            return o;
        }

        Obs set(SignalName name, double v) {
            signals.put(name, Signal.of(v, at));
            return this;
        }

        Obs missing(SignalName name, String reason) {
            signals.put(name, Signal.missing(reason));
            return this;
        }

        Obs drop(SignalName name) {
            signals.remove(name);
            return this;
        }

        Obs replicas(int n) {
            current = n;
            return this;
        }

        Obs at(Instant t) {
            at = t;
            signals.replaceAll((k, v) -> v.present() ? Signal.of(v.value(), t) : v);
            return this;
        }

        Observation build() {
            return new Observation(current, ready < 0 ? current : ready, signals);
        }
    }

    static Decision decide(Policy p, Obs o) {
        return DecisionEngine.decide("c", p, o.build(), ClassMemory.initial(), o.at);
    }

    static Policy.Builder policy() {
        return Policy.builder().scaleUp(new ScalingBehavior(0, List.of(ScalingRule.percent(1000, 15)),
                ScalingBehavior.SelectPolicy.MAX)).scaleDown(ScalingBehavior.defaultDown().withWindow(0));
    }

    @Test
    void briefWorkedExampleGivesTwelveSlots() {
        Policy p = policy().slotsPerReplica(4).maxReplicas(100).build();
        Decision d = decide(p, Obs.of(30, 10, 0.5, 8).set(Signals.QUEUED_SERVICE, 240).replicas(3));
        assertEquals(4.0, d.incomingSlots(), 1e-9);
        assertEquals(4.0, d.backlogSlots(), 1e-9);
        assertEquals(12, d.estimatedSlots());
        assertEquals(3, d.slotReplicas());
        assertEquals(3, d.desiredReplicas());
        assertTrue(d.explanation().startsWith("(0.5/s × 8 s + 240 s / 60 s) / 0.7 = 11.4 → 12 slots → 3 replicas"),
                d.explanation());
    }

    static Stream<Arguments> slotTable() {
        // l, lambda, s, q (NaN = default L×S), k, u, d, expected slots, expected replicas
        return Stream.of(
                Arguments.of("Q defaults to L × S", 30, 0.5, 8, Double.NaN, 4, 0.7, 60, 12, 3),
                Arguments.of("zero arrivals, empty queue", 0, 0, 8, Double.NaN, 4, 0.7, 60, 0, 1),
                Arguments.of("zero arrivals, backlog only", 60, 0, 2, Double.NaN, 1, 0.5, 60, 4, 4),
                Arguments.of("u = 1 exactly", 0, 3, 2, Double.NaN, 2, 1.0, 60, 6, 3),
                Arguments.of("exact multiple not rounded up", 0, 7, 1, Double.NaN, 1, 0.7, 60, 10, 10),
                Arguments.of("explicit Q wins over L × S", 1000, 1, 1, 60, 1, 1.0, 60, 2, 2),
                Arguments.of("max replicas clamps", 0, 100, 10, Double.NaN, 1, 0.7, 60, 1429, 50));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("slotTable")
    void slotEstimate(String name, double l, double lambda, double s, double q, int k, double u, double d,
                      int slots, int replicas) {
        Policy p = policy().slotsPerReplica(k).targetUtilization(u).drainTargetSeconds(d).build();
        Obs o = Obs.of(l, 0, lambda, s).replicas(replicas);
        if (!Double.isNaN(q)) {
            o.set(Signals.QUEUED_SERVICE, q);
        }
        Decision dec = decide(p, o);
        assertEquals(slots, dec.estimatedSlots(), name);
        assertEquals(replicas, dec.desiredReplicas(), name);
    }

    static Stream<Arguments> badPolicies() {
        return Stream.of(
                Arguments.of((Runnable) () -> Policy.builder().targetUtilization(1.5).build(), "targetUtilization"),
                Arguments.of((Runnable) () -> Policy.builder().targetUtilization(0).build(), "targetUtilization"),
                Arguments.of((Runnable) () -> Policy.builder().targetUtilization(Double.NaN).build(),
                        "targetUtilization"),
                Arguments.of((Runnable) () -> Policy.builder().slotsPerReplica(0).build(), "slotsPerReplica"),
                Arguments.of((Runnable) () -> Policy.builder().drainTargetSeconds(-1).build(), "drainTargetSeconds"),
                Arguments.of((Runnable) () -> Policy.builder().minReplicas(5).maxReplicas(2).build(), "maxReplicas"),
                Arguments.of((Runnable) () -> Policy.builder().maxAgeSeconds(0.0).build(), "maxAgeSeconds"),
                Arguments.of((Runnable) () -> Policy.builder().ceilings(List.of(CeilingSpec.replicas("a", 1),
                        CeilingSpec.replicas("a", 2))).build(), "used twice"),
                Arguments.of((Runnable) () -> ScalingRule.pods(0, 15), "value"),
                Arguments.of((Runnable) () -> CeilingSpec.budget("db", -3, 10), "positive"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badPolicies")
    void invalidPolicyIsAClearError(Runnable build, String field) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build::run);
        assertTrue(e.getMessage().contains(field), e.getMessage());
    }

    static Stream<Arguments> missingInputs() {
        return Stream.of(
                Arguments.of("NaN arrival rate", Obs.of(30, 10, 0.5, 8).set(Signals.ARRIVAL_RATE, Double.NaN),
                        "arrivalRate", "NaN"),
                Arguments.of("absent queue length", Obs.of(30, 10, 0.5, 8).drop(Signals.QUEUE_LENGTH),
                        "queueLength", "not collected"),
                Arguments.of("empty result", Obs.of(30, 10, 0.5, 8).missing(Signals.MEAN_SERVICE, "empty result"),
                        "meanService", "empty result"),
                Arguments.of("+Inf service", Obs.of(30, 10, 0.5, 8).set(Signals.MEAN_SERVICE,
                        Double.POSITIVE_INFINITY), "meanService", "+Inf"),
                Arguments.of("negative queue", Obs.of(-3, 10, 0.5, 8), "queueLength", "negative"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("missingInputs")
    void missingRequiredInputHoldsReplicas(String name, Obs o, SignalName signal, String why) {
        Policy p = policy().build();
        Decision d = decide(p, o.replicas(7));
        assertEquals(7, d.desiredReplicas(), "never scale on missing data");
        assertTrue(d.telemetryMissing());
        assertTrue(d.reasons().contains(Reason.of(Code.TELEMETRY_MISSING, signal)), d.reasons().toString());
        assertNull(d.estimatedSlots(), "no estimate is invented");
        assertTrue(d.input(signal).reason().contains(why), d.input(signal).toString());
        assertTrue(d.explanation().contains("hold 7"), d.explanation());
    }

    @Test
    void staleSampleIsNotUsed() {
        Policy p = policy().pollIntervalSeconds(15).build();
        Obs o = Obs.of(0, 0, 0, 1).replicas(9);
        o.signals.put(Signals.ARRIVAL_RATE, Signal.of(0, T0.minusSeconds(31)));
        Decision d = decide(p, o);
        assertEquals(InputStatus.Status.STALE, d.input(Signals.ARRIVAL_RATE).status());
        assertEquals(9, d.desiredReplicas(), "an idle-looking but stale input does not scale down");
    }

    @Test
    void serviceTimeIsNotNeededWhenThereIsNoWork() {
        Policy p = policy().minReplicas(0).build();
        Obs o = Obs.of(0, 0, 0, 1).missing(Signals.MEAN_SERVICE, "no completions in window").replicas(0);
        Decision d = decide(p, o);
        assertFalse(d.telemetryMissing());
        assertEquals(0, d.desiredReplicas());
    }

    @Test
    void fallbackFloorAppliesAfterFailureThreshold() {
        Policy p = policy().fallback(new Fallback(3, 4)).build();
        ClassMemory m = ClassMemory.initial();
        int[] expected = {2, 2, 4};
        for (int i = 0; i < 3; i++) {
            Obs o = Obs.of(5, 1, 1, 1).missing(Signals.ARRIVAL_RATE, "HTTP 503").replicas(2)
                    .at(T0.plusSeconds(15L * i));
            Decision d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            assertEquals(expected[i], d.desiredReplicas(), "tick " + i);
            assertEquals(i == 2, d.has(Code.FALLBACK), "tick " + i);
            m = d.memory();
        }
        Obs ok = Obs.of(0, 0, 1, 1).replicas(4).at(T0.plusSeconds(45));
        Decision d = DecisionEngine.decide("c", p, ok.build(), m, ok.at);
        assertEquals(0, d.memory().failureTicks(), "recovery resets the count");
    }

    static Stream<Arguments> ceilingTable() {
        // ceilings, current, λ (S=1, k=1, u=1, no backlog), expected desired, binding
        List<CeilingSpec> brief = List.of(CeilingSpec.budget("db-connections", 200, 10),
                CeilingSpec.budget("provider-quota", 100, 6));
        return Stream.of(
                Arguments.of("brief: quota 100/6 = 16 binds", brief, 10, 30.0, 16, "provider-quota"),
                Arguments.of("no ceiling binds", brief, 10, 12.0, 12, null),
                Arguments.of("static replicas", List.of(CeilingSpec.replicas("tenant", 8)), 4, 20.0, 8, "tenant"),
                Arguments.of("ceiling above current forces scale-down", List.of(CeilingSpec.replicas("tenant", 3)),
                        6, 6.0, 3, "tenant"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ceilingTable")
    void ceilingsCapAndTheBindingOneIsNamed(String name, List<CeilingSpec> ceilings, int current, double lambda,
                                           int expected, String binding) {
        Policy p = policy().targetUtilization(1).ceilings(ceilings).build();
        Decision d = decide(p, Obs.of(0, 0, lambda, 1).replicas(current));
        assertEquals(expected, d.desiredReplicas(), name);
        assertEquals(binding, d.bindingCeiling(), name);
        assertEquals(binding != null, d.has(Code.CEILING), name);
        if (binding != null) {
            assertTrue(d.explanation().contains("ceiling " + binding + " " + expected + " binding"), d.explanation());
        }
    }

    @Test
    void ceilingBelowMinWinsAndIsFlagged() {
        Policy p = policy().minReplicas(5).ceilings(List.of(CeilingSpec.replicas("db", 3))).build();
        Decision d = decide(p, Obs.of(0, 0, 0, 1).replicas(5));
        assertEquals(3, d.desiredReplicas());
        assertTrue(d.has(Code.CEILING_BELOW_MIN));
    }

    @Test
    void dynamicCeilingWithMissingTelemetryUsesConservativeValueNeverUnlimited() {
        CeilingSpec memory = new CeilingSpec("memory", CeilingSpec.Source.constant(8192),
                CeilingSpec.Source.signal(Signals.POD_MEMORY), 6);
        CeilingSpec noFallback = new CeilingSpec("quota", CeilingSpec.Source.signal(SignalName.of("quotaBudget")),
                CeilingSpec.Source.constant(10), null);
        Policy p = policy().targetUtilization(1).ceilings(List.of(memory, noFallback)).build();

        Decision measured = decide(p, Obs.of(0, 0, 40, 1).set(Signals.POD_MEMORY, 512).set(SignalName.of("quotaBudget"), 1000)
                .replicas(4));
        assertEquals(16, measured.desiredReplicas(), "8192 / 512 = 16");
        assertEquals("memory", measured.bindingCeiling());

        Decision blind = decide(p, Obs.of(0, 0, 40, 1).replicas(4));
        assertEquals(4, blind.desiredReplicas(), "quota without data and no conservative value holds current");
        assertTrue(blind.has(Code.CEILING_FALLBACK));
        CeilingResult mem = blind.ceilings().get(0);
        assertTrue(mem.fromFallback());
        assertEquals(6, mem.limit());
    }

    @Test
    void dependencyGuardStopsScaleUpButNotScaleDown() {
        Policy p = policy().dependencyGuard(new DependencyGuard(200, "db p95 ms")).build();
        Decision up = decide(p, Obs.of(0, 0, 10, 1).set(Signals.DEPENDENCY, 450).replicas(4));
        assertEquals(4, up.desiredReplicas());
        assertTrue(up.has(Code.DEPENDENCY_SATURATED));
        assertTrue(up.explanation().contains("db p95 ms 450 > 200 → no scale-up"), up.explanation());

        Decision unknown = decide(p, Obs.of(0, 0, 10, 1).replicas(4));
        assertEquals(4, unknown.desiredReplicas());
        assertTrue(unknown.has(Code.DEPENDENCY_UNKNOWN));

        Decision healthy = decide(p, Obs.of(0, 0, 10, 1).set(Signals.DEPENDENCY, 50).replicas(4));
        assertEquals(15, healthy.desiredReplicas());

        Decision down = decide(p, Obs.of(0, 0, 0.7, 1).set(Signals.DEPENDENCY, 450).replicas(4));
        assertEquals(1, down.desiredReplicas(), "a saturated dependency never blocks scale-down");
    }

    static Stream<Arguments> ageTable() {
        // current, age, maxAge, expected age term
        return Stream.of(
                Arguments.of(4, 300.0, 120.0, 10),
                Arguments.of(4, 121.0, 120.0, 5),
                Arguments.of(0, 500.0, 120.0, 1),
                Arguments.of(10, 130.0, 120.0, 11));
    }

    @ParameterizedTest(name = "current {0}, age {1} s, objective {2} s → {3}")
    @MethodSource("ageTable")
    void ageTermScalesWithTheBreach(int current, double age, double maxAge, int expected) {
        Policy p = policy().maxAgeSeconds(maxAge).build();
        Decision d = decide(p, Obs.of(1, age, 0, 0.1).replicas(current));
        assertEquals(expected, d.ageReplicas());
        assertEquals(expected, d.desiredReplicas());
        assertTrue(d.has(Code.AGE_BREACH));
    }

    @Test
    void ageWithinObjectiveAddsNothing() {
        Policy p = policy().maxAgeSeconds(120.0).build();
        Decision d = decide(p, Obs.of(1, 100, 0, 0.1).replicas(3));
        assertNull(d.ageReplicas());
        assertFalse(d.has(Code.AGE_BREACH));
    }

    @Test
    void aHeadThatStopsMovingIsStalledWithinTwoTicksAndTheAgeTermIsWithheld() {
        Policy p = policy().maxAgeSeconds(60.0).pollIntervalSeconds(5).build();
        // Flowing: jobs complete, the oldest stays young.
        ClassMemory m = DecisionEngine.decide("c", p, Obs.of(2, 1, 1, 1).replicas(4).set(Signals.IN_FLIGHT, 3)
                .build(), ClassMemory.initial(), T0).memory();
        Decision d = null;
        // A poison message at the head: the oldest age grows by the whole tick, slots idle, completions
        // still counted over their window (not yet 0).
        for (int i = 1; i <= 14; i++) {
            Obs o = Obs.of(2 + 5 * i, 5.0 * i, 1, 1).set(Signals.COMPLETION_RATE, 0.5).set(Signals.IN_FLIGHT, 1)
                    .replicas(4).at(T0.plusSeconds(5L * i));
            d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            m = d.memory();
            if (i < 3) {
                assertFalse(d.stalled(), "not yet: tick " + i);
            } else {
                assertTrue(d.stalled(), "within two ticks of the head stopping: tick " + i);
                assertTrue(d.desiredReplicas() <= 4, "no scale-up while stalled: " + d.explanation());
            }
        }
        assertTrue(d.has(Code.STALLED));
        assertTrue(d.has(Code.AGE_BREACH), "the breach is reported: " + d.reasons());
        assertFalse(d.explanation().contains("objective → "), "the age term does not act: " + d.explanation());
        assertTrue(d.term("ageReplicas").formula().contains("not applied: stalled"), d.terms().toString());
        assertTrue(d.explanation().contains("more replicas may not help"), d.explanation());
        assertEquals(Admission.State.CLOSED, d.admission().state());

        Obs moving = Obs.of(12, 20, 1, 1).set(Signals.COMPLETION_RATE, 0.5).set(Signals.IN_FLIGHT, 4).replicas(4)
                .at(T0.plusSeconds(75));
        Decision recovered = DecisionEngine.decide("c", p, moving.build(), m, moving.at);
        assertFalse(recovered.stalled(), "busy slots and a moving head: no stall");
    }

    @Test
    void anHourOldHeadWithNothingCompletingIsStalledAndBreachedOnFirstSightWithoutS() {
        // The case against a real Prometheus: zero completions, a 3600 s oldest age, five jobs
        // waiting, S unknown. One tick (a one-shot plan) must say both AGE_BREACH and STALLED.
        Policy p = policy().maxAgeSeconds(300.0).build();
        Obs o = Obs.of(5, 3600, 0, 0).missing(Signals.MEAN_SERVICE, "NaN (no completions)")
                .set(Signals.COMPLETION_RATE, 0).set(Signals.IN_FLIGHT, 0).replicas(2);
        Decision d = decide(p, o);
        assertTrue(d.has(Code.AGE_BREACH), d.reasons().toString());
        assertTrue(d.has(Code.STALLED), d.reasons().toString());
        assertTrue(d.reasons().toString().contains("TELEMETRY_MISSING:meanService"), d.reasons().toString());
        assertEquals(2, d.desiredReplicas(), "stalled: more replicas would not help");
    }

    @Test
    void aMissingServiceTimeNeverHidesAnAgeBreach() {
        Policy p = policy().maxAgeSeconds(60.0).build();
        // Work moves (completions, busy slots) but S has no value: the age term needs none.
        Obs o = Obs.of(40, 180, 1, 0).missing(Signals.MEAN_SERVICE, "NaN").set(Signals.COMPLETION_RATE, 2)
                .set(Signals.IN_FLIGHT, 4).replicas(4);
        Decision d = decide(p, o);
        assertTrue(d.has(Code.AGE_BREACH), d.reasons().toString());
        assertFalse(d.stalled());
        assertEquals(12, d.desiredReplicas(), "ceil(4 × 180 / 60): " + d.explanation());
        assertTrue(d.reasons().toString().contains("TELEMETRY_MISSING:meanService"), d.reasons().toString());
    }

    @Test
    void noCompletionsIsAStallNotMissingTelemetry() {
        Policy p = policy().pollIntervalSeconds(5).build();
        // A healthy tick teaches the last known service time.
        ClassMemory m = DecisionEngine.decide("c", p, Obs.of(0, 0, 1, 2).replicas(3).build(),
                ClassMemory.initial(), T0).memory();
        Decision d = null;
        for (int i = 1; i <= 5; i++) {
            Obs o = Obs.of(10 * i, 5.0 * i, 1, 0).missing(Signals.MEAN_SERVICE, "no completions in window")
                    .set(Signals.COMPLETION_RATE, 0).replicas(3).at(T0.plusSeconds(5L * i));
            d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            m = d.memory();
            assertFalse(d.telemetryMissing(), "tick " + i);
        }
        assertTrue(d.stalled());
        assertEquals(3, d.desiredReplicas(), "no scale-up while stalled, though the backlog grows");
        assertTrue(d.terms().stream().anyMatch(t -> t.name().equals("S") && t.value() == 2), d.terms().toString());
    }

    @Test
    void scaleDownWaitsForTheStabilisationWindow() {
        Policy p = Policy.builder().scaleDown(ScalingBehavior.defaultDown()).build();
        ClassMemory m = ClassMemory.initial();
        // High load at t=0 recommends 10; then load drops to 1 replica's worth.
        Decision d = DecisionEngine.decide("c", p, Obs.of(0, 0, 7, 1).replicas(10).build(), m, T0);
        assertEquals(10, d.desiredReplicas());
        m = d.memory();
        for (int t = 15; t < 300; t += 15) {
            Obs o = Obs.of(0, 0, 0.7, 1).replicas(10).at(T0.plusSeconds(t));
            d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            m = d.memory();
            assertEquals(10, d.desiredReplicas(), "held at t=" + t);
            assertTrue(d.has(Code.STABILISING_DOWN));
            if (t == 180) {
                assertTrue(d.explanation().contains("scale-down window holds 10 for 120 s more"), d.explanation());
            }
        }
        Obs o = Obs.of(0, 0, 0.7, 1).replicas(10).at(T0.plusSeconds(300));
        d = DecisionEngine.decide("c", p, o.build(), m, o.at);
        assertEquals(1, d.desiredReplicas(), "the window has passed");
    }

    @Test
    void scaleUpIsImmediateByDefault() {
        Policy p = Policy.builder().build();
        Decision d = decide(p, Obs.of(0, 0, 2.1, 1).replicas(2));
        assertEquals(3, d.desiredReplicas());
    }

    static Stream<Arguments> rateTable() {
        ScalingBehavior hpaUp = ScalingBehavior.defaultUp();
        ScalingBehavior podsOnly = new ScalingBehavior(0, List.of(ScalingRule.pods(2, 60)),
                ScalingBehavior.SelectPolicy.MAX);
        ScalingBehavior minOfBoth = new ScalingBehavior(0, List.of(ScalingRule.percent(100, 15),
                ScalingRule.pods(4, 15)), ScalingBehavior.SelectPolicy.MIN);
        ScalingBehavior disabled = new ScalingBehavior(0, List.of(), ScalingBehavior.SelectPolicy.DISABLED);
        return Stream.of(
                Arguments.of("HPA default: max(100 %, 4 pods) from 2", hpaUp, 2, 40, 6),
                Arguments.of("HPA default: max(100 %, 4 pods) from 10", hpaUp, 10, 40, 20),
                Arguments.of("pods 2 per 60 s", podsOnly, 5, 40, 7),
                Arguments.of("select Min", minOfBoth, 10, 40, 14),
                Arguments.of("disabled", disabled, 5, 40, 5),
                Arguments.of("within limit", hpaUp, 5, 8, 8));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rateTable")
    void scaleUpRatePolicies(String name, ScalingBehavior up, int current, double lambda, int expected) {
        Policy p = Policy.builder().targetUtilization(1).scaleUp(up).build();
        Decision d = decide(p, Obs.of(0, 0, lambda, 1).replicas(current));
        assertEquals(expected, d.desiredReplicas(), name);
    }

    @Test
    void rateLimitCountsReplicasAlreadyAddedInThePeriod() {
        Policy p = Policy.builder().targetUtilization(1).build();
        ClassMemory m = DecisionEngine.decide("c", p, Obs.of(0, 0, 40, 1).replicas(2).build(),
                ClassMemory.initial(), T0).memory();
        // 5 s later the cluster is at 6 (the step was applied); the period started at 2, so 6 is the limit.
        Obs o = Obs.of(0, 0, 40, 1).replicas(6).at(T0.plusSeconds(5));
        Decision d = DecisionEngine.decide("c", p, o.build(), m, o.at);
        assertEquals(6, d.desiredReplicas());
        assertTrue(d.has(Code.RATE_LIMITED_UP));
        // After the 15 s period the next step is allowed: max(2 × 6, 6 + 4) = 12.
        Obs later = Obs.of(0, 0, 40, 1).replicas(6).at(T0.plusSeconds(20));
        Decision next = DecisionEngine.decide("c", p, later.build(), d.memory(), later.at);
        assertEquals(12, next.desiredReplicas());
    }

    static Stream<Arguments> downRateTable() {
        return Stream.of(
                Arguments.of("100 % per 15 s", new ScalingBehavior(0, List.of(ScalingRule.percent(100, 15)),
                        ScalingBehavior.SelectPolicy.MAX), 10, 2),
                Arguments.of("1 pod per 60 s", new ScalingBehavior(0, List.of(ScalingRule.pods(1, 60)),
                        ScalingBehavior.SelectPolicy.MAX), 10, 9),
                Arguments.of("50 % truncates", new ScalingBehavior(0, List.of(ScalingRule.percent(50, 60)),
                        ScalingBehavior.SelectPolicy.MAX), 9, 4),
                Arguments.of("disabled", new ScalingBehavior(0, List.of(), ScalingBehavior.SelectPolicy.DISABLED),
                        10, 10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("downRateTable")
    void scaleDownRatePolicies(String name, ScalingBehavior down, int current, int expected) {
        Policy p = Policy.builder().targetUtilization(1).scaleDown(down).build();
        Decision d = decide(p, Obs.of(0, 0, 2, 1).replicas(current));
        assertEquals(expected, d.desiredReplicas(), name);
    }

    @Test
    void scaleToZeroOnlyAfterTheCooldown() {
        Policy p = policy().minReplicas(0).cooldownSeconds(300).build();
        ClassMemory m = DecisionEngine.decide("c", p, Obs.of(3, 1, 0.5, 1).replicas(2).build(),
                ClassMemory.initial(), T0).memory();
        Decision d = null;
        // Last active at t=0; idle from t=15 on: the cooldown counts from the last activity.
        for (int t = 15; t < 300; t += 15) {
            Obs o = Obs.of(0, 0, 0, 1).replicas(1).at(T0.plusSeconds(t));
            d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            m = d.memory();
            assertEquals(1, d.desiredReplicas(), "cooldown at t=" + t);
            assertTrue(d.has(Code.COOLDOWN));
        }
        Obs o = Obs.of(0, 0, 0, 1).replicas(1).at(T0.plusSeconds(300));
        d = DecisionEngine.decide("c", p, o.build(), m, o.at);
        assertEquals(0, d.desiredReplicas());
        assertTrue(d.has(Code.SCALE_TO_ZERO));
    }

    @Test
    void inFlightWorkKeepsAReplicaEvenWithAnEmptyQueue() {
        Policy p = policy().minReplicas(0).cooldownSeconds(0).build();
        Decision d = decide(p, Obs.of(0, 0, 0, 1).set(Signals.IN_FLIGHT, 2).replicas(1));
        assertEquals(1, d.desiredReplicas());
    }

    @Test
    void scaleFromZeroIsImmediateWhenWorkWaits() {
        Policy p = Policy.builder().minReplicas(0).build(); // default windows and rates
        Decision d = decide(p, Obs.of(5, 2, 0, 1).set(Signals.IN_FLIGHT, 0).replicas(0));
        assertTrue(d.desiredReplicas() >= 1);
        assertTrue(d.has(Code.SCALE_FROM_ZERO));
    }

    @Test
    void fromZeroWithNoServiceTimeEverStartsAReplicaSaysSIsMissingAndIsNotStalled() {
        Policy p = Policy.builder().minReplicas(0).maxAgeSeconds(600.0).pollIntervalSeconds(5).build();
        ClassMemory m = ClassMemory.initial();
        Decision d = null;
        for (int i = 0; i < 6; i++) {
            Obs o = Obs.of(500, 30.0 + 5 * i, 0, 0).missing(Signals.MEAN_SERVICE, "no completions in window")
                    .set(Signals.COMPLETION_RATE, 0).replicas(0).at(T0.plusSeconds(5L * i));
            d = DecisionEngine.decide("c", p, o.build(), m, o.at);
            m = d.memory();
        }
        assertTrue(d.reasons().toString().contains("TELEMETRY_MISSING:meanService"),
                "with no last known S and no prior, S is missing: " + d.reasons());
        assertFalse(d.stalled(), "no consumers is not a stall");
        assertTrue(d.desiredReplicas() >= 1);
        assertTrue(d.has(Code.SCALE_FROM_ZERO));
    }

    @Test
    void fromZeroIsSizedFromTheBacklogWithThePrior() {
        Policy p = Policy.builder().minReplicas(0).slotsPerReplica(2).expectedServiceSeconds(4.0)
                .scaleUp(new ScalingBehavior(0, List.of(ScalingRule.pods(100, 15)), ScalingBehavior.SelectPolicy.MAX))
                .build();
        Obs o = Obs.of(600, 10, 0, 0).missing(Signals.MEAN_SERVICE, "NaN").set(Signals.COMPLETION_RATE, 0).replicas(0);
        Decision d = decide(p, o);
        // (0 + 600 × 4 s / 60 s) / 0.7 = 57.1 → 58 slots → 29 replicas; the start is not one at a time.
        assertEquals(29, d.slotReplicas());
        assertEquals(29, d.desiredReplicas(), d.explanation());
        assertTrue(d.term("S").formula().contains("expectedServiceSeconds"), d.terms().toString());
        assertFalse(d.telemetryMissing(), "a prior stands in for S: " + d.reasons());
    }

    @Test
    void fromZeroIsSizedFromTheBacklogWithTheLastKnownServiceTimeShowingItsAge() {
        Policy p = Policy.builder().minReplicas(0).slotsPerReplica(2).build();
        // A busy tick teaches S = 3 s; then the class idles at zero and a backlog lands.
        ClassMemory m = DecisionEngine.decide("c", p, Obs.of(0, 0, 1, 3).replicas(2).build(), ClassMemory.initial(), T0)
                .memory();
        Obs idle = Obs.of(0, 0, 0, 0).missing(Signals.MEAN_SERVICE, "NaN").replicas(0).at(T0.plusSeconds(1800));
        m = DecisionEngine.decide("c", p, idle.build(), m, idle.at).memory();
        Obs later = Obs.of(300, 5, 0, 0).missing(Signals.MEAN_SERVICE, "NaN").set(Signals.COMPLETION_RATE, 0)
                .replicas(0).at(T0.plusSeconds(3600));
        Decision d = DecisionEngine.decide("c", p, later.build(), m, later.at);
        assertEquals(3, d.term("S").value());
        assertTrue(d.term("S").formula().contains("3600 s old"), d.term("S").formula());
        // (300 × 3 s / 60 s) / 0.7 = 21.4 → 22 slots → 11 replicas, started at the rate limit (max(100 %, 4 pods)).
        assertEquals(11, d.slotReplicas());
        assertEquals(4, d.desiredReplicas());
        assertTrue(d.has(Code.RATE_LIMITED_UP));
    }

    static Stream<Arguments> admissionTable() {
        // ready, λ, S, Q, expected state
        return Stream.of(
                Arguments.of(10, 1.0, 1.0, 10.0, Admission.State.OPEN),
                Arguments.of(2, 1.9, 1.0, 600.0, Admission.State.THROTTLE),
                Arguments.of(2, 30.0, 1.0, 600.0, Admission.State.CLOSED));
    }

    @ParameterizedTest(name = "ready {0}, λ {1} → {4}")
    @MethodSource("admissionTable")
    void admissionAdvice(int ready, double lambda, double s, double q, Admission.State expected) {
        Policy p = policy().maxReplicas(20).build();
        Obs o = Obs.of(q / s, 0, lambda, s).set(Signals.QUEUED_SERVICE, q).replicas(ready);
        Decision d = decide(p, o);
        assertEquals(expected, d.admission().state(), d.admission().message());
    }

    @Test
    void sameInputsGiveTheSameDecision() {
        Policy p = policy().maxAgeSeconds(60.0).ceilings(List.of(CeilingSpec.replicas("db", 7))).build();
        Decision a = decide(p, Obs.of(40, 90, 2, 3).replicas(4));
        Decision b = decide(p, Obs.of(40, 90, 2, 3).replicas(4));
        assertEquals(a, b);
    }

    /**
     * Decision 0009's reaction gap: a class whose new pods come after its objective (15 s poll + 20 s
     * start-up ≥ 30 − 1.5 s) shows the step its replicas absorb and holds the reserve that buys back what
     * its late pods lose; {@code absorbStep} sets the target instead (1: none), and the scale-down window
     * keeps the reserve.
     */
    @Test
    void reactionGapReserveHoldsTheReplicasThatAbsorbTheTargetStep() {
        Policy.Builder b = Policy.builder().slotsPerReplica(4).maxAgeSeconds(30.0).minReplicas(2).maxReplicas(30)
                .startupSeconds(20);
        Obs o = Obs.of(0, 0, 5, 1.5).replicas(3);
        // (5/s × 1.5 s) / 0.7 = 10.7 → 11 slots → 3 replicas; the reserve (ReactionGapTest) → 5.
        Decision byDefault = decide(b.build(), o);
        assertEquals(5, byDefault.desiredReplicas(), byDefault.explanation());
        assertEquals(3, byDefault.term("slotReplicas").value(), byDefault.terms().toString());
        assertEquals(5, byDefault.term("reserve").value(), byDefault.terms().toString());
        assertEquals(35, byDefault.term("reactionGap").value());
        assertTrue(byDefault.term("absorbs").value() >= 5 && byDefault.term("absorbs").value() < 8,
                byDefault.terms().toString());
        assertTrue(byDefault.explanation().contains("→ 5 replicas (3 absorb"), byDefault.explanation());
        // absorbStep 1: no reserve, 3 held.
        Decision off = decide(b.absorbStep(1.0).build(), o);
        assertEquals(3, off.desiredReplicas(), off.explanation());
        assertNull(off.term("reserve"));
        // absorbStep 8: five replicas (worked in ReactionGapTest) → 3 → 5.
        Decision reserved = decide(b.absorbStep(8.0).build(), o);
        assertEquals(5, reserved.desiredReplicas(), reserved.explanation());
        assertEquals(5, reserved.term("reserve").value());
        assertTrue(reserved.explanation().contains("reserve for a 8× step → 5 replicas"), reserved.explanation());
        // The scale-down window holds the reserve like the incoming share: a tick later at 2/s (a change, not noise
        // the estimate would pool with 5/s) the reserve is lower, and the window keeps 5.
        Decision next = DecisionEngine.decide("c", b.absorbStep(8.0).build(), Obs.of(0, 0, 2, 1.5).replicas(5)
                .at(T0.plusSeconds(15)).build(), reserved.memory(), T0.plusSeconds(15));
        assertEquals(2, next.input(Signals.ARRIVAL_RATE).value());
        assertNull(next.term("λ"), "not pooled with the 5/s before: " + next.terms());
        assertTrue(next.term("reserve") == null || next.term("reserve").value() < 5, next.terms().toString());
        assertTrue(next.term("slotReplicas").value() < 5, next.terms().toString());
        assertEquals(5, next.desiredReplicas(), next.explanation());
        assertTrue(next.reasons().contains(Reason.of(Code.STABILISING_DOWN)), next.reasons().toString());
        // A loose objective (120 s) shows nothing and buys nothing.
        Decision loose = decide(b.absorbStep(null).maxAgeSeconds(120.0).build(), o);
        assertNull(loose.term("absorbs"));
        assertEquals(3, loose.desiredReplicas());
    }
}
