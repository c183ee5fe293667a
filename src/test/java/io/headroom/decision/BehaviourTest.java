package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory.Stamped;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** The HPA behaviour stage on its own: windows, rate policies, and when a change counts. */
class BehaviourTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void theDefaultDoublesEveryFifteenSecondsWhenChangesAreStampedWhenApplied() {
        ScalingBehavior up = ScalingBehavior.defaultUp();
        ScalingBehavior down = ScalingBehavior.defaultDown();
        int replicas = 4;
        List<Stamped> events = new ArrayList<>();
        List<Integer> path = new ArrayList<>();
        for (int tick = 0; tick < 4; tick++) {
            Instant now = T0.plusSeconds(15L * tick);
            Behaviour.Result r = Behaviour.normalise(up, down, replicas, 1000, List.of(),
                    Behaviour.recentEvents(up, down, events, now), now, false);
            events.add(new Stamped(now, r.replicas() - replicas)); // applied now, as the loop records it
            replicas = r.replicas();
            path.add(replicas);
        }
        assertEquals(List.of(8, 16, 32, 64), path, "no hold every second tick");
    }

    @Test
    void aChangeFirstSeenOnTheNextTickHalvesTheSpeed() {
        // What main did: the change applied at t was stamped when the tick at t+15 observed it.
        ScalingBehavior up = ScalingBehavior.defaultUp();
        ScalingBehavior down = ScalingBehavior.defaultDown();
        List<Stamped> late = List.of(new Stamped(T0.plusSeconds(15), 4));
        int limit = Behaviour.scaleUpLimit(up, 8, late, T0.plusSeconds(15));
        assertEquals(8, limit, "the period still holds the change: RATE_LIMITED_UP");
        List<Stamped> applied = List.of(new Stamped(T0, 4));
        assertEquals(16, Behaviour.scaleUpLimit(up, 8, applied, T0.plusSeconds(15)));
    }

    static Stream<Arguments> observed() {
        Instant last = T0;
        Instant now = T0.plusSeconds(15);
        return Stream.of(
                // changedAt known and after the last tick: counted from then
                Arguments.of(T0.plusSeconds(3), T0.plusSeconds(3)),
                // unknown: counted from now
                Arguments.of(null, now),
                // a time before the last tick cannot be this change: now
                Arguments.of(T0.minusSeconds(5), now),
                // a time in the future is not believed: now
                Arguments.of(T0.plusSeconds(60), now));
    }

    @ParameterizedTest
    @MethodSource("observed")
    void aChangeNobodyReportedCountsFromWhenTheClusterShowsIt(Instant changedAt, Instant expected) {
        ClassMemory mem = ClassMemory.initial().next(4, T0, T0, List.of(), List.of());
        Observation obs = new Observation(6, 4, java.util.Map.of(), Double.NaN, changedAt);
        List<Stamped> e = Behaviour.observedEvents(ScalingBehavior.defaultUp(), ScalingBehavior.defaultDown(), mem, obs,
                T0.plusSeconds(15));
        assertEquals(List.of(new Stamped(expected, 2)), e);
    }

    @Test
    void theScaleDownWindowHoldsTheSustainedPartNotTheBacklogShare() {
        ScalingBehavior up = ScalingBehavior.defaultUp();
        ScalingBehavior down = ScalingBehavior.defaultDown();
        // At t0 a backlog asked for 40, of which the arrivals sustain 18.
        Behaviour.Result first = Behaviour.normalise(up, down, 40, 40, 18, List.of(), List.of(), T0, false);
        assertEquals(40, first.replicas());
        // Backlog gone a minute later: the window holds 18, not 40.
        Behaviour.Result later = Behaviour.normalise(up, down, 40, 17, 17, first.recommendations(), List.of(),
                T0.plusSeconds(60), false);
        assertEquals(18, later.replicas());
        assertTrue(later.reasons().contains(Reason.of(Reason.Code.STABILISING_DOWN)));
        // The plain HPA rule holds the whole 40.
        Behaviour.Result hpa = Behaviour.normalise(up, down, 40, 40, List.of(), List.of(), T0, false);
        Behaviour.Result hpaLater = Behaviour.normalise(up, down, 40, 17, hpa.recommendations(), List.of(),
                T0.plusSeconds(60), false);
        assertEquals(40, hpaLater.replicas());
    }

    @Test
    void fromZeroTheStartIsRateLimitedButNotWindowed() {
        ScalingBehavior up = new ScalingBehavior(120, ScalingBehavior.defaultUp().rules(), ScalingBehavior.SelectPolicy.MAX);
        Behaviour.Result r = Behaviour.normalise(up, ScalingBehavior.defaultDown(), 0, 30, List.of(new Stamped(T0, 0)),
                List.of(), T0.plusSeconds(5), true);
        assertEquals(4, r.replicas(), "max(100 % of 0, 4 pods)");
        assertTrue(r.reasons().contains(Reason.of(Reason.Code.RATE_LIMITED_UP)));
        assertFalse(r.reasons().contains(Reason.of(Reason.Code.STABILISING_UP)));
    }

    @Test
    void hugeCountsSaturateInsteadOfWrapping() {
        ScalingBehavior up = new ScalingBehavior(0, List.of(ScalingRule.percent(1000, 15)), ScalingBehavior.SelectPolicy.MAX);
        int limit = Behaviour.scaleUpLimit(up, Integer.MAX_VALUE - 1, List.of(), T0);
        assertEquals(Integer.MAX_VALUE, limit);
    }
}
