package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A forecast floor (issue 29): held ahead of a forecast rise, a preference the reactive decision may exceed. */
class ForecastFloorTest {
    static final Instant T = Instant.parse("2026-01-02T08:50:00Z");
    static final ForecastFloor HOLD_12 = new ForecastFloor(12, T, T.plusSeconds(900),
            "the last 5 weekdays rose from 5 to 38 jobs/s at 09:00");

    static Decision decide(Policy p, Instant at, double lambda, int current, ForecastFloor floor) {
        java.util.Map<SignalName, Signal> s = new java.util.HashMap<>();
        s.put(Signals.QUEUE_LENGTH, Signal.of(0, at));
        s.put(Signals.ARRIVAL_RATE, Signal.of(lambda, at));
        s.put(Signals.MEAN_SERVICE, Signal.of(1, at));
        s.put(Signals.IN_FLIGHT, Signal.of(0, at));
        s.put(Signals.COMPLETION_RATE, Signal.of(lambda, at));
        return DecisionEngine.decide("c", p, new Observation(current, current, s).withForecastFloor(floor),
                ClassMemory.initial(), at);
    }

    @Test
    void insideItsWindowTheFloorRaisesTheDecisionAndSaysWhy() {
        Policy p = Policy.builder().build();
        Decision d = decide(p, T.plusSeconds(60), 1, 8, HOLD_12);
        assertEquals(12, d.desiredReplicas(), d.explanation());
        Decision paced = decide(p, T.plusSeconds(60), 1, 2, HOLD_12);
        assertEquals(6, paced.desiredReplicas(), "the scale-up rate policy still paces the steps: " + paced.explanation());
        assertTrue(d.has(Code.FORECAST_FLOOR), d.reasons().toString());
        assertEquals(12, d.term("forecastFloor").value());
        assertTrue(d.explanation().contains("forecast floor 12 until 09:05 UTC"), "a time of day, not an instant: "
                + d.explanation());
        assertTrue(d.explanation().contains("rose from 5 to 38 jobs/s"), d.explanation());
    }

    @Test
    void beforeAndAfterItsWindowItDoesNothing() {
        Policy p = Policy.builder().build();
        for (Instant at : List.of(T.minusSeconds(1), T.plusSeconds(900), T.plusSeconds(3600))) {
            Decision d = decide(p, at, 1, 2, HOLD_12);
            assertFalse(d.has(Code.FORECAST_FLOOR), at + ": " + d.explanation());
            assertTrue(d.desiredReplicas() < 12, at + ": " + d.explanation());
        }
    }

    @Test
    void theReactiveDecisionMayExceedItAndMaxAndCeilingsStillBind() {
        Decision busy = decide(Policy.builder().maxReplicas(100).build(), T.plusSeconds(60), 40, 12, HOLD_12);
        assertTrue(busy.desiredReplicas() > 12, busy.explanation());
        assertFalse(busy.has(Code.FORECAST_FLOOR), "the estimate is above the floor: " + busy.explanation());
        Decision max = decide(Policy.builder().maxReplicas(8).build(), T.plusSeconds(60), 1, 2, HOLD_12);
        assertTrue(max.desiredReplicas() <= 8, max.explanation());
        Decision capped = decide(Policy.builder().ceilings(List.of(CeilingSpec.replicas("db", 5))).build(),
                T.plusSeconds(60), 1, 2, HOLD_12);
        assertEquals(5, capped.desiredReplicas(), "a ceiling protects a downstream; a forecast is a preference");
    }

    @Test
    void aFloorBelowTheCurrentCountNeverLowersIt() {
        Policy p = Policy.builder().build();
        Decision d = decide(p, T.plusSeconds(60), 30, 40, new ForecastFloor(3, T, T.plusSeconds(900), ""));
        assertTrue(d.desiredReplicas() >= 30, d.explanation());
        assertFalse(d.has(Code.FORECAST_FLOOR), d.explanation());
    }

    @Test
    void aFloorMustEndAfterItStarts() {
        assertThrows(IllegalArgumentException.class, () -> new ForecastFloor(3, T, T, ""));
        assertThrows(IllegalArgumentException.class, () -> new ForecastFloor(-1, T, T.plusSeconds(1), ""));
    }

    @Test
    void theModeIsReadFromItsWord() {
        assertEquals(ForecastMode.PROPOSE, ForecastMode.parse("propose"));
        assertEquals(ForecastMode.FORECAST_ONLY, ForecastMode.parse("forecast-only"));
        assertEquals(ForecastMode.AUTO, ForecastMode.parse(" AUTO "));
        assertEquals(null, ForecastMode.parse("sometimes"));
        assertEquals(ForecastMode.FORECAST_ONLY, Policy.builder().build().forecastMode(), "the default acts on nothing");
    }

    /** Two floors are for the same rise when their windows meet; touching end to start, or none, is not. */
    @Test
    void floorsForTheSameRiseAreThoseWhoseWindowsMeet() {
        ForecastFloor a = new ForecastFloor(8, T, T.plusSeconds(600), "a");
        assertTrue(a.overlaps(new ForecastFloor(12, T.plusSeconds(300), T.plusSeconds(900), "later, meeting")));
        assertTrue(new ForecastFloor(12, T.plusSeconds(300), T.plusSeconds(900), "b").overlaps(a), "either way round");
        assertTrue(a.overlaps(new ForecastFloor(4, T.plusSeconds(100), T.plusSeconds(200), "inside")));
        assertFalse(a.overlaps(new ForecastFloor(12, T.plusSeconds(600), T.plusSeconds(900), "from its end on")));
        assertFalse(a.overlaps(new ForecastFloor(12, T.minusSeconds(600), T, "until its start")));
        assertFalse(a.overlaps(null));
    }
}
