package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.DecisionEngineTest.Obs;
import io.headroom.decision.Reason.Code;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * No scale-up lost to an outage (issue 29): while data is missing, the decision keeps stepping toward
 * the last complete decision's target when it was above the current count, within the rate policy,
 * never lower, and says so.
 */
class OutageScaleUpTest {

    static final Instant T0 = DecisionEngineTest.T0;

    /** The HPA's default behaviour: up max(100 %, 4 pods) per 15 s, no up window; down 300 s window. */
    static Policy policy() {
        return Policy.builder().slotsPerReplica(4).maxReplicas(60).maxAgeSeconds(120.0)
                .fallback(new Fallback(3, 4)).build();
    }

    static Obs allMissing(int replicas, Instant at) {
        Obs o = new Obs();
        for (SignalName s : java.util.List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE,
                Signals.MEAN_SERVICE, Signals.IN_FLIGHT, Signals.COMPLETION_RATE)) {
            o.missing(s, "metrics outage");
        }
        return o.replicas(replicas).at(at);
    }

    /** One tick: decide, then apply the change as the loop does, and return the decision. */
    static Decision tick(Policy p, Obs o, ClassMemory[] mem) {
        Decision d = DecisionEngine.decide("c", p, o.build(), mem[0], o.at);
        mem[0] = d.memory().applied(o.at, d.currentReplicas(), d.desiredReplicas());
        return d;
    }

    @Test
    void aDecidedScaleUpContinuesThroughAnOutage() {
        Policy p = policy();
        ClassMemory[] mem = {ClassMemory.initial()};
        // 30 jobs/s × 2 s = 60 slots / 0.7 → 86 slots → 22 replicas (plus the backlog): the rate policy allows 4 → 8.
        Decision first = tick(p, Obs.of(200, 10, 30, 2).replicas(4).at(T0), mem);
        int target = first.recommendedReplicas();
        assertTrue(target > 16, "the complete decision wants far more than two steps: " + target);
        assertEquals(8, first.desiredReplicas(), "the rate policy allows 4 → 8");

        Decision d2 = tick(p, allMissing(8, T0.plusSeconds(15)), mem);
        assertTrue(d2.telemetryMissing());
        assertEquals(16, d2.desiredReplicas(), "keeps stepping toward " + target + " within the rate policy");
        assertTrue(d2.reasons().contains(Reason.of(Code.CONTINUING_SCALE_UP, String.valueOf(target))),
                d2.reasons().toString());
        assertTrue(d2.reasons().contains(Reason.of(Code.TELEMETRY_MISSING, Signals.QUEUE_LENGTH)), d2.reasons().toString());
        assertTrue(d2.explanation().contains("last complete decision's target " + target), d2.explanation());
        assertFalse(d2.explanation().contains("hold 8"), "stepping, not held: " + d2.explanation());

        Decision d3 = tick(p, allMissing(16, T0.plusSeconds(30)), mem);
        assertEquals(Math.min(32, target), d3.desiredReplicas());
        Decision d4 = tick(p, allMissing(d3.desiredReplicas(), T0.plusSeconds(45)), mem);
        assertEquals(target, d4.desiredReplicas(), "reaches the target and stops there");
        Decision d5 = tick(p, allMissing(target, T0.plusSeconds(60)), mem);
        assertEquals(target, d5.desiredReplicas(), "never beyond the target on missing data");
        assertFalse(d5.reasons().stream().anyMatch(r -> r.code() == Code.CONTINUING_SCALE_UP), d5.reasons().toString());
    }

    @Test
    void aTargetBelowTheCurrentCountIsNotPursued() {
        Policy p = policy();
        ClassMemory[] mem = {ClassMemory.initial()};
        // Idle: the complete decision wants fewer; the change is not applied (say a supervised class's proposal waits).
        Obs idle = Obs.of(0, 0, 0.5, 1).replicas(10).at(T0);
        Decision first = DecisionEngine.decide("c", p, idle.build(), mem[0], T0);
        mem[0] = first.memory();
        assertTrue(first.desiredReplicas() < 10, "the complete decision wanted fewer: " + first.desiredReplicas());
        Decision d2 = tick(p, allMissing(10, T0.plusSeconds(15)), mem);
        assertEquals(10, d2.desiredReplicas(), "never lower on missing data");
        assertFalse(d2.reasons().stream().anyMatch(r -> r.code() == Code.CONTINUING_SCALE_UP), d2.reasons().toString());
    }

    @Test
    void aCountRaisedByOthersAboveTheTargetIsHeld() {
        Policy p = policy();
        ClassMemory[] mem = {ClassMemory.initial()};
        Decision first = tick(p, Obs.of(200, 10, 30, 2).replicas(4).at(T0), mem);
        int target = first.recommendedReplicas();
        // Someone scaled it past the target between ticks: the outage holds that count, never lowers it.
        Decision d2 = tick(p, allMissing(target + 5, T0.plusSeconds(15)), mem);
        assertEquals(target + 5, d2.desiredReplicas());
    }

    @Test
    void aLaterCompleteDecisionReplacesTheTarget() {
        Policy p = policy();
        ClassMemory[] mem = {ClassMemory.initial()};
        tick(p, Obs.of(200, 10, 30, 2).replicas(4).at(T0), mem);
        // The burst is over by the next complete tick: its target is the current count, nothing to pursue.
        Decision calm = tick(p, Obs.of(0, 0, 0.5, 1).replicas(8).at(T0.plusSeconds(15)), mem);
        assertEquals(8, calm.desiredReplicas(), "the scale-down window holds 8");
        Decision d3 = tick(p, allMissing(8, T0.plusSeconds(30)), mem);
        assertEquals(8, d3.desiredReplicas(), "the old target is forgotten");
    }
}
