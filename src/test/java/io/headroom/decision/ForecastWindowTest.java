package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scale-down window relaxed by a forecast floor (issue 29, decision 0030): only in propose/auto, only with a floor
 * that brings back at least what the window holds; the scale-down is the reactive decision on current data.
 */
class ForecastWindowTest {
    static final Instant T = Instant.parse("2026-01-02T10:00:00Z");

    /** S = 2 s, 4 slots a replica, u = 0.8: 30 jobs/s needs 19 replicas, 2 jobs/s needs 2. */
    static Policy policy(ForecastMode mode) {
        return Policy.builder().slotsPerReplica(4).targetUtilization(0.8).minReplicas(2).maxReplicas(80).forecastMode(mode).build();
    }

    static Observation obs(double lambda, int current, ForecastFloor floor, Instant at) {
        Map<SignalName, Signal> s = new HashMap<>();
        s.put(Signals.QUEUE_LENGTH, Signal.of(0, at));
        s.put(Signals.OLDEST_AGE, Signal.of(0, at));
        s.put(Signals.ARRIVAL_RATE, Signal.of(lambda, at));
        s.put(Signals.MEAN_SERVICE, Signal.of(2, at));
        s.put(Signals.IN_FLIGHT, Signal.of(Math.min(lambda * 2, current * 4), at));
        s.put(Signals.COMPLETION_RATE, Signal.of(lambda, at));
        return new Observation(current, current, s).withForecastFloor(floor);
    }

    /** A burst at 30 jobs/s for a minute at 19 replicas, then 2 jobs/s: the decision 60 s after it ends. */
    static Decision afterBurst(ForecastMode mode, ForecastFloor floor) {
        return afterBurst(mode, floor, 8);
    }

    /** The same, {@code last} ticks of 15 s after the burst began (it ends after tick 3). */
    static Decision afterBurst(ForecastMode mode, ForecastFloor floor, int last) {
        Policy p = policy(mode);
        ClassMemory mem = ClassMemory.initial();
        Decision d = null;
        int current = 19;
        for (int i = 0; i <= last; i++) {
            Instant at = T.plusSeconds(15L * i);
            double lambda = i < 4 ? 30 : 2;
            d = DecisionEngine.decide("c", p, obs(lambda, current, floor, at), mem, at);
            mem = d.memory();
            current = d.desiredReplicas();
        }
        return d;
    }

    static final ForecastFloor NEXT = new ForecastFloor(20, T.plusSeconds(540), T.plusSeconds(660),
            "p80 31 jobs/s × 2 s at 10:10 needs 20 replicas");

    @Test
    void withoutAFloorTheWindowHoldsTheBurstsReplicas() {
        Decision d = afterBurst(ForecastMode.AUTO, null);
        assertEquals(19, d.desiredReplicas(), d.explanation());
        assertTrue(d.has(Code.STABILISING_DOWN), d.reasons().toString());
    }

    @Test
    void aFloorThatBringsThemBackShortensTheWindowAndSaysWhen() {
        assertEquals(19, afterBurst(ForecastMode.AUTO, NEXT, 4).desiredReplicas(), "one low tick is not enough");
        Decision d = afterBurst(ForecastMode.AUTO, NEXT, 5);
        assertEquals(2, d.desiredReplicas(), "the reactive decision on current data: " + d.explanation());
        assertTrue(d.has(Code.FORECAST_WINDOW_SHORTENED), d.reasons().toString());
        assertEquals(30, d.term("windowShortened").value());
        assertTrue(d.explanation().contains("scale-down window shortened to 30 s: the forecast floor brings 20 back"
                + " at 10:09"), d.explanation());
        Decision approved = afterBurst(ForecastMode.PROPOSE, NEXT);
        assertEquals(2, approved.desiredReplicas(), approved.explanation());
    }

    @Test
    void inForecastOnlyOrOffTheFloorRelaxesNothing() {
        for (ForecastMode m : new ForecastMode[] {ForecastMode.FORECAST_ONLY, ForecastMode.OFF}) {
            Decision d = afterBurst(m, NEXT);
            assertEquals(19, d.desiredReplicas(), m + ": " + d.explanation());
            assertFalse(d.has(Code.FORECAST_WINDOW_SHORTENED), d.reasons().toString());
        }
    }

    @Test
    void aFloorBelowWhatTheWindowHoldsOrLapsedRelaxesNothing() {
        ForecastFloor low = new ForecastFloor(10, NEXT.from(), NEXT.until(), "");
        Decision d = afterBurst(ForecastMode.AUTO, low);
        assertEquals(19, d.desiredReplicas(), d.explanation());
        assertFalse(d.has(Code.FORECAST_WINDOW_SHORTENED));
        ForecastFloor lapsed = new ForecastFloor(20, T.minusSeconds(600), T.minusSeconds(300), "");
        assertEquals(19, afterBurst(ForecastMode.AUTO, lapsed).desiredReplicas());
    }

    @Test
    void theReleasedHoldDoesNotComeBackWhenTheFloorIsGone() {
        Policy p = policy(ForecastMode.AUTO);
        Decision d = afterBurst(ForecastMode.AUTO, NEXT);
        Instant at = T.plusSeconds(15L * 9);
        Decision next = DecisionEngine.decide("c", p, obs(2, d.desiredReplicas(), null, at), d.memory(), at);
        assertEquals(2, next.desiredReplicas(), next.explanation());
    }
}
