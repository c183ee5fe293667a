package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.DecisionEngineTest.Obs;
import io.headroom.decision.Reason.Code;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * A value from an answer the source warned may be incomplete (a partial answer: Thanos, Mimir and
 * VictoriaMetrics send them when a store or shard does not answer) may scale up, never down, and never
 * lowers a ceiling: the part that did not answer may be the busy part.
 */
class PartialAnswersTest {

    static final Annotations WARNED = new Annotations(List.of("partial response: store eu-1 unavailable"), List.of());

    static Obs partial(Obs o, SignalName... names) {
        for (SignalName n : names) {
            Signal s = o.signals.get(n);
            o.signals.put(n, s.annotated(WARNED));
        }
        return o;
    }

    static Decision decide(Policy p, Obs o) {
        return DecisionEngineTest.decide(p, o);
    }

    static Policy.Builder policy() {
        return DecisionEngineTest.policy().targetUtilization(1);
    }

    static Stream<Arguments> table() {
        CeilingSpec budget = new CeilingSpec("db", CeilingSpec.Source.signal(SignalName.of("dbBudget")), CeilingSpec.Source.constant(10), 6);
        CeilingSpec budgetNoFallback = new CeilingSpec("db", CeilingSpec.Source.signal(SignalName.of("dbBudget")),
                CeilingSpec.Source.constant(10), null);
        // name, policy, observation (made partial by the test's own hand), expected desired
        return Stream.of(
                Arguments.of("a partial queue that asks for more scales up", policy().build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 12, 1).replicas(4), Signals.ARRIVAL_RATE), 12),
                Arguments.of("a partial queue that asks for fewer holds", policy().build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 2, 1).replicas(9), Signals.ARRIVAL_RATE), 9),
                Arguments.of("the same answer complete scales down", policy().build(),
                        (UnaryOperator<Obs>) o -> Obs.of(0, 0, 2, 1).replicas(9), 2),
                Arguments.of("a partial empty queue does not scale to zero", policy().minReplicas(0).cooldownSeconds(0).build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 0, 1).replicas(3), Signals.QUEUE_LENGTH,
                                Signals.IN_FLIGHT, Signals.ARRIVAL_RATE), 3),
                Arguments.of("a partial budget uses the ceiling's conservative value", policy().ceilings(List.of(budget)).build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 12, 1).set(SignalName.of("dbBudget"), 0).replicas(4), SignalName.of("dbBudget")), 6),
                Arguments.of("a partial budget without a conservative value holds current",
                        policy().ceilings(List.of(budgetNoFallback)).build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 12, 1).set(SignalName.of("dbBudget"), 0).replicas(9), SignalName.of("dbBudget")), 9),
                Arguments.of("the same budget complete binds at 0", policy().ceilings(List.of(budgetNoFallback)).build(),
                        (UnaryOperator<Obs>) o -> Obs.of(0, 0, 12, 1).set(SignalName.of("dbBudget"), 0).replicas(9), 0),
                Arguments.of("a fixed ceiling below current still applies", policy()
                        .ceilings(List.of(CeilingSpec.replicas("tenant", 5))).build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 2, 1).replicas(9), Signals.ARRIVAL_RATE), 5),
                Arguments.of("maxReplicas below current still applies", policy().maxReplicas(6).build(),
                        (UnaryOperator<Obs>) o -> partial(Obs.of(0, 0, 2, 1).replicas(9), Signals.ARRIVAL_RATE), 6));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void partialAnswersMayScaleUpNeverDown(String name, Policy p, UnaryOperator<Obs> obs, int desired) {
        Obs o = obs.apply(null);
        Decision d = decide(p, o);
        assertEquals(desired, d.desiredReplicas(), name + ": " + d.explanation());
        Decision numbers = DecisionEngine.decideNumbers("c", p, o.build(), ClassMemory.initial(), o.at);
        assertEquals(d.desiredReplicas(), numbers.desiredReplicas(), "the numbers-only path agrees");
        assertEquals(d.reasons(), numbers.reasons());
    }

    @Test
    void aPartialInputIsTypedPartialWithItsWarningAndExplained() {
        Decision d = decide(policy().build(), partial(Obs.of(0, 0, 2, 1).replicas(9), Signals.ARRIVAL_RATE));
        InputStatus in = d.input(Signals.ARRIVAL_RATE);
        assertEquals(InputStatus.Status.PARTIAL, in.status());
        assertEquals("partial", in.label());
        assertEquals(2.0, in.value());
        assertEquals("partial answer: partial response: store eu-1 unavailable", in.reason());
        assertEquals(WARNED, in.annotations());
        assertFalse(in.usable(), "not usable for everything: only to scale up");
        assertTrue(d.reasons().contains(Reason.of(Code.PARTIAL_DATA, Signals.ARRIVAL_RATE)), d.reasons().toString());
        assertFalse(d.telemetryMissing(), "a partial answer is not missing data");
        assertTrue(d.explanation().contains("arrivalRate partial (partial answer: partial response: store eu-1"
                + " unavailable): may scale up on it, never down"), d.explanation());
        assertTrue(d.explanation().contains("no scale-down on a partial answer → at least 9"), d.explanation());
        assertEquals(9, d.term("partialFloor").value());
    }

    @Test
    void aStaleOrAbsurdPartialValueIsStaleOrBadDataFirst() {
        Obs o = partial(Obs.of(0, 0, 2, 1).replicas(9), Signals.ARRIVAL_RATE, Signals.QUEUE_LENGTH);
        o.signals.put(Signals.ARRIVAL_RATE, new Signal(2, o.at.minusSeconds(600), null, WARNED));
        o.signals.put(Signals.QUEUE_LENGTH, Signal.of(5e9, o.at).annotated(WARNED));
        Decision d = decide(policy().build(), o);
        assertEquals(InputStatus.Status.STALE, d.input(Signals.ARRIVAL_RATE).status());
        assertEquals(InputStatus.Status.MISSING, d.input(Signals.QUEUE_LENGTH).status());
        assertEquals(WARNED, d.input(Signals.ARRIVAL_RATE).annotations(), "the warning still shows");
        assertEquals(9, d.desiredReplicas());
    }

    @Test
    void aPartialDependencyReadingIsUnknownToTheGovernor() {
        Policy p = policy().dependencyGuard(new DependencyGuard(200, "db p95 ms")).build();
        Decision d = decide(p, partial(Obs.of(0, 0, 10, 1).set(Signals.DEPENDENCY, 50).replicas(4), Signals.DEPENDENCY));
        assertEquals(4, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.DEPENDENCY_UNKNOWN), d.reasons().toString());
    }

    @Test
    void noStallIsClaimedOnAPartialNothingCompletes() {
        Obs o = Obs.of(40, 600, 0.5, 2).set(Signals.COMPLETION_RATE, 0).replicas(3);
        Decision complete = decide(policy().build(), o);
        assertTrue(complete.stalled(), "the complete answer shows a stall: " + complete.explanation());
        Decision d = decide(policy().build(), partial(o, Signals.COMPLETION_RATE));
        assertFalse(d.stalled(), d.explanation());
    }

    @Test
    void aPartialValueIsNotRememberedAsTheLastKnownServiceTime() {
        Obs o = partial(Obs.of(10, 0, 1, 30).replicas(3), Signals.MEAN_SERVICE);
        Decision d = DecisionEngine.decide("c", policy().build(), o.build(), ClassMemory.initial(), o.at);
        assertTrue(Double.isNaN(d.memory().lastMeanService()), "partial S = 30 not kept");
        assertEquals(InputStatus.Status.PARTIAL, d.input(Signals.MEAN_SERVICE).status());
    }
}
