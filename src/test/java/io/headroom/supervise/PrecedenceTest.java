package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.supervise.Precedence.Apply;
import io.headroom.supervise.Precedence.Cause;
import io.headroom.supervise.Precedence.Hold;
import io.headroom.supervise.Precedence.Input;
import io.headroom.supervise.Precedence.Plan;
import io.headroom.supervise.Precedence.Propose;
import io.headroom.supervise.Precedence.Rejection;
import io.headroom.supervise.Precedence.StartDrain;
import io.headroom.supervise.Precedence.Step;
import io.headroom.supervise.Precedence.Withhold;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Freeze > override > mode, as a table: one decision in, one step (and whether a proposal goes) out. */
class PrecedenceTest {
    static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    static final Freeze FROZEN = new Freeze("incident 4711", NOW.plusSeconds(600), "alice", NOW);
    static final ReplicaOverride PIN_6 = new ReplicaOverride(6, NOW.plusSeconds(600), "load test", "alice", NOW);

    /** A class at 3 replicas whose decision wants {@code desired}. */
    static Input in(Freeze f, ReplicaOverride o, Mode m, int desired) {
        return new Input(f, o, m, 3, desired, desired != 3, false, true, null, null, NOW);
    }

    static Input drains(Mode m, int desired, Instant autoDrainAfter) {
        return new Input(null, null, m, 3, desired, true, true, true, autoDrainAfter, null, NOW);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // name, input, step, what the step says (or its target), proposal withdrawn because
                Arguments.of("a freeze beats an override", in(FROZEN, PIN_6, Mode.AUTO, 9), Withhold.class,
                        "frozen until", null),
                Arguments.of("a freeze beats auto", in(FROZEN, null, Mode.AUTO, 9), Withhold.class, "incident 4711", null),
                Arguments.of("a freeze in observe mode", in(FROZEN, null, Mode.OBSERVE, 9), Withhold.class, "frozen",
                        null),
                Arguments.of("an override applies even in observe mode", in(null, PIN_6, Mode.OBSERVE, 2), Apply.class,
                        "override: load test", null),
                Arguments.of("an override that holds already", new Input(null, PIN_6, Mode.AUTO, 6, 9, true, false,
                        true, null, null, NOW), Withhold.class, "override pins 6", null),
                Arguments.of("observe mode decides and does nothing", in(null, null, Mode.OBSERVE, 9), Withhold.class,
                        "observe mode", "observe mode"),
                Arguments.of("auto applies", in(null, null, Mode.AUTO, 9), Apply.class, "auto", "auto mode"),
                Arguments.of("auto with nothing to do", in(null, null, Mode.AUTO, 3), Hold.class, "", "auto mode"),
                Arguments.of("auto drains a scale-down", drains(Mode.AUTO, 1, null), StartDrain.class, "1", "auto mode"),
                Arguments.of("auto waits after a drain that did not complete", drains(Mode.AUTO, 1, NOW.plusSeconds(60)),
                        Withhold.class, "the last drain did not complete", "auto mode"),
                Arguments.of("auto drains again once the wait is over", drains(Mode.AUTO, 1, NOW.minusSeconds(1)),
                        StartDrain.class, "1", "auto mode"),
                Arguments.of("auto scales up without a drain", drains(Mode.AUTO, 5, null), Apply.class, "auto",
                        "auto mode"),
                Arguments.of("supervised proposes", in(null, null, Mode.SUPERVISED, 9), Propose.class, "9", null),
                Arguments.of("supervised proposes a scale-down too (the approval drains)", drains(Mode.SUPERVISED, 1,
                        null), Propose.class, "1", null),
                Arguments.of("supervised with nothing to do withdraws", in(null, null, Mode.SUPERVISED, 3), Hold.class,
                        "", "the decision now holds 3"),
                Arguments.of("a rejected change is not proposed again", new Input(null, null, Mode.SUPERVISED, 3, 9,
                        true, false, true, null, new Rejection(3, 9, NOW.plusSeconds(60)), NOW), Withhold.class,
                        "rejected by the operator", null),
                Arguments.of("another change than the rejected one is", new Input(null, null, Mode.SUPERVISED, 3, 8,
                        true, false, true, null, new Rejection(3, 9, NOW.plusSeconds(60)), NOW), Propose.class, "8",
                        null),
                Arguments.of("a rejection is forgotten after its time", new Input(null, null, Mode.SUPERVISED, 3, 9,
                        true, false, true, null, new Rejection(3, 9, NOW), NOW), Propose.class, "9", null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void theStepFollowsFreezeThenOverrideThenMode(String name, Input input, Class<? extends Step> kind, String says,
                                                   String withdraw) {
        Plan plan = Precedence.decide(input);
        Step step = plan.step();
        assertEquals(kind, step.getClass(), step.toString());
        String text = step instanceof Withhold w ? w.why() : step instanceof Apply a ? a.why() + " " + a.to()
                : step instanceof Propose p ? p.from() + " → " + p.to() : step instanceof StartDrain d ? "" + d.to() : "";
        assertTrue(text.contains(says), text);
        assertEquals(withdraw, plan.withdraw());
    }

    @org.junit.jupiter.api.Test
    void anOverrideIsTheOnlyApplyThatRepinsAfterAConflict() {
        assertEquals(Cause.OVERRIDE, ((Apply) Precedence.decide(in(null, PIN_6, Mode.SUPERVISED, 2)).step()).cause());
        assertEquals(Cause.AUTO, ((Apply) Precedence.decide(in(null, null, Mode.AUTO, 9)).step()).cause());
    }

    @org.junit.jupiter.api.Test
    void aDrainStopsForAFreezeOrForLoadItWouldCut() {
        io.headroom.drain.Drain d = new io.headroom.drain.Drain("orders-drain-1-ab", "orders",
                new io.headroom.cluster.WorkloadRef("prod", "ns", "Deployment", "orders"), 4, 2, java.util.List.of(),
                NOW, NOW.plusSeconds(300), java.time.Duration.ofSeconds(60), null, null,
                io.headroom.drain.DrainPhase.WAITING, "", null);
        assertEquals("frozen (incident 4711)", Precedence.drainStop(FROZEN, d, 2));
        assertEquals("the load rose: the decision now wants 5 replicas", Precedence.drainStop(null, d, 5));
        assertEquals(null, Precedence.drainStop(null, d, 4));
    }
}
