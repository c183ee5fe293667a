package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.GovernorState.Phase;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The concurrency governor (step 6) on its own: hold, back off, never below healthy, probe, and back. */
class GovernorTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final DependencyGuard GUARD = new DependencyGuard(150, "db latency ms", 0.75, 60);
    static final Policy POLICY = Policy.builder().dependencyGuard(GUARD).build();

    GovernorState state = GovernorState.IDLE;
    Instant now = T0;
    Trail trail;

    Governor.Outcome tick(double latency, double completions, int current, int ready, int wanted) {
        Map<SignalName, Signal> s = new HashMap<>();
        s.put(Signals.DEPENDENCY, Signal.of(latency, now));
        s.put(Signals.COMPLETION_RATE, Signal.of(completions, now));
        trail = new Trail();
        Governor.Outcome o = Governor.step(GUARD, new Inputs(new Observation(current, ready, s), POLICY, now),
                current, ready, wanted, state, now, false, trail);
        state = o.next();
        now = now.plusSeconds(15);
        return o;
    }

    @Test
    void healthyImposesNothingButRemembersTheHealthyCount() {
        Governor.Outcome o = tick(100, 10, 6, 6, 9);
        assertEquals(-1, o.limit());
        assertEquals(6, state.lastHealthyReplicas());
        assertEquals(Phase.IDLE, state.phase());
    }

    @Test
    void aBreachHoldsThenBacksOffWhileThroughputPerReplicaFallsButNeverBelowTheLastHealthyCount() {
        tick(100, 12, 6, 6, 6);                           // healthy at 6
        Governor.Outcome o = tick(400, 12, 12, 12, 20);   // breached at 12: hold, no scale-up
        assertEquals(12, o.limit());
        assertEquals(Phase.HOLDING, state.phase());
        assertTrue(trail.has(Reason.Code.DEPENDENCY_SATURATED));
        o = tick(420, 10, 12, 12, 20);                    // still breached, per-replica throughput fell
        assertEquals(9, o.limit(), "12 × 0.75");
        assertEquals(Phase.BACKING_OFF, state.phase());
        o = tick(300, 6, 9, 9, 20);                       // fell again (0.83 → 0.67/s): 9 × 0.75 = 6.75 → 6
        assertEquals(6, o.limit());
        o = tick(250, 3, 6, 6, 20);                       // breached still, fell again: never below 6
        assertEquals(6, o.limit());
        assertTrue(String.join("; ", trail.story).contains("never below 6"), trail.story.toString());
    }

    /** Healthy at 6, breached at 8, backed off to 6: where the tests below start. */
    void backedOffToSix() {
        tick(100, 12, 6, 6, 6);
        tick(400, 12, 8, 8, 20);
        tick(420, 10, 8, 8, 20);
        assertEquals(6, state.limit());
    }

    @Test
    void aProbeUpThatDoesNotRaiseThroughputGoesBackAndTheNextWaitsTwiceAsLong() {
        backedOffToSix();
        Governor.Outcome o = tick(100, 12, 6, 6, 20);     // healthy, but the next probe waits its interval
        assertEquals(6, o.limit());
        now = now.plusSeconds(120);
        o = tick(100, 12, 6, 6, 20);                      // uncongested (at its lowest reading): probe one more
        assertEquals(7, o.limit());
        assertEquals(Phase.PROBING, state.phase());
        assertEquals(6, state.probedFrom());
        o = tick(140, 10, 7, 7, 20);                      // under the threshold, still being tried
        assertEquals(7, o.limit());
        now = now.plusSeconds(120);
        o = tick(140, 9.3, 7, 7, 20);                     // judged: 12 → 9.3 jobs/s, it did not pay
        assertEquals(6, o.limit());
        assertEquals(120, state.backoffSeconds(), "twice the guard's 60 s");
        assertTrue(String.join("; ", trail.story).contains("did not pay"), trail.story.toString());
        o = tick(100, 12, 6, 6, 20);
        assertEquals(6, o.limit(), "no new probe before the doubled wait");
    }

    @Test
    void aProbeThatBreachesGoesBackAtOnce() {
        backedOffToSix();
        now = now.plusSeconds(240);
        tick(100, 12, 6, 6, 20);                          // probe 7
        assertEquals(7, state.limit());
        Governor.Outcome o = tick(200, 11, 7, 7, 20);     // breached: back to 6, wait doubled
        assertEquals(6, o.limit());
        assertEquals(120, state.backoffSeconds(), "twice the guard's 60 s");
    }

    @Test
    void whileTheDependencyReadsSlowerThanUncongestedTheGovernorTriesOneFewerAndKeepsItIfThroughputHolds() {
        tick(100, 12, 6, 6, 6);                           // 100 ms is its uncongested reading
        tick(400, 12, 8, 8, 20);
        tick(420, 10, 8, 8, 20);                          // backs off to 6
        now = now.plusSeconds(240);
        Governor.Outcome o = tick(140, 9.5, 7, 7, 20);    // healthy (140 < 150) but congested: try one fewer
        assertEquals(5, o.limit(), "6 − 1");
        now = now.plusSeconds(120);
        o = tick(100, 10, 5, 5, 20);                      // 9.5 → 10 jobs/s with fewer: kept
        assertEquals(5, o.limit());
        assertEquals(-1, state.probedFrom());
        assertTrue(String.join("; ", trail.story).contains("paid"), trail.story.toString());
    }

    @Test
    void theLimitLiftsOnceTheEstimateFitsUnderIt() {
        backedOffToSix();
        Governor.Outcome o = tick(100, 6, 6, 6, 5);       // load fell: the estimate wants 5
        assertEquals(-1, o.limit());
        assertEquals(Phase.IDLE, state.phase());
    }

    @Test
    void anUnknownDependencyBlocksScaleUpButNotScaleDown() {
        Map<SignalName, Signal> s = Map.of(Signals.DEPENDENCY, Signal.missing("empty result"));
        Trail t = new Trail();
        Governor.Outcome up = Governor.step(GUARD, new Inputs(new Observation(5, 5, s), POLICY, now), 5, 5, 9,
                GovernorState.IDLE, now, false, t);
        assertEquals(5, up.limit());
        assertTrue(t.has(Reason.Code.DEPENDENCY_UNKNOWN));
        Governor.Outcome down = Governor.step(GUARD, new Inputs(new Observation(5, 5, s), POLICY, now), 5, 5, 3,
                GovernorState.IDLE, now, false, new Trail());
        assertEquals(-1, down.limit());
    }
}
