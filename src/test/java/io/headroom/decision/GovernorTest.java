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
        Map<String, Signal> s = new HashMap<>();
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

    @Test
    void recoveryProbesOneReplicaAtATimeAndAProbeThatBreachesGoesBackAndWaitsLonger() {
        tick(100, 12, 6, 6, 6);
        tick(400, 12, 8, 8, 20);
        tick(420, 10, 8, 8, 20);                          // backs off to 6
        assertEquals(6, state.limit());
        Governor.Outcome o = tick(100, 12, 6, 6, 20);     // healthy at 6 but the probe waits its interval
        assertEquals(6, o.limit());
        now = now.plusSeconds(60);
        o = tick(100, 12, 6, 6, 20);                      // the interval passed: probe 7
        assertEquals(7, o.limit());
        assertEquals(Phase.PROBING, state.phase());
        o = tick(200, 11, 7, 7, 20);                      // the probe breached: back to 6, wait doubled
        assertEquals(6, o.limit());
        assertEquals(120, state.probeSeconds());
        assertFalse(state.nextProbeAt().isBefore(now.plusSeconds(90)), "the next probe waits twice as long");
    }

    @Test
    void aProbeThatHoldsResetsTheWaitAndTheLimitLiftsOnceTheEstimateFitsUnderIt() {
        tick(100, 12, 6, 6, 6);
        tick(400, 12, 8, 8, 20);
        tick(420, 10, 8, 8, 20);
        now = now.plusSeconds(120);
        tick(100, 12, 6, 6, 20);                          // probe 7
        assertEquals(7, state.limit());
        tick(100, 14, 7, 7, 20);                          // the 7th pod serves and it is healthy: probe held
        assertEquals(-1, state.probedFrom());
        assertEquals(60, state.probeSeconds());
        Governor.Outcome o = tick(100, 14, 7, 7, 5);      // load fell: the estimate fits, the limit lifts
        assertEquals(-1, o.limit());
        assertEquals(Phase.IDLE, state.phase());
    }

    @Test
    void anUnknownDependencyBlocksScaleUpButNotScaleDown() {
        Map<String, Signal> s = Map.of(Signals.DEPENDENCY, Signal.missing("empty result"));
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
