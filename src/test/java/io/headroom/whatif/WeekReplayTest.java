package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Decider;
import io.headroom.decision.Policy;
import io.headroom.sim.Simulator;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What-if over a week (issue 29): the live policy reactive, the same with the floors auto mode would hold ahead of
 * forecast rises, and KEDA's rule, on a synthetic week with a daily pattern.
 */
class WeekReplayTest {

    /** Monday 2026-11-30 00:00 UTC. */
    static final double MONDAY = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();
    static final double DAY = 86_400;
    /** The morning rise: 2 → 30 jobs/s within two minutes at 09:00, back down at 17:00. */
    static final double RISE = 9 * 3600;
    static final double FALL = 17 * 3600;

    /** {@code days} at a 15 s step from Monday 00:00: 2 jobs/s, 30 jobs/s from 09:00 to 17:00, 2 s a job. */
    static LoadHistory week(int days) {
        return week(days, Double.POSITIVE_INFINITY, 1);
    }

    /** As {@link #week(int)}, with every arrival rate from {@code after} on multiplied by {@code factor}. */
    static LoadHistory week(int days, double after, double factor) {
        int n = (int) (days * DAY / 15) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = MONDAY + 15.0 * i;
            double inDay = (15.0 * i) % DAY;
            double ramp = Math.min(1, Math.max(0, (inDay - RISE) / 120)) - Math.min(1, Math.max(0, (inDay - FALL) / 120));
            r[i] = (1 + 59 * ramp) * (t[i] >= after ? factor : 1);
            s[i] = 2;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }

    static Policy policy() {
        return Policy.builder().slotsPerReplica(4).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(30).build();
    }

    static Replay.Comparison compare(LoadHistory h, Policy edited) {
        return Replay.compare(h, policy(), edited, 1, ComparisonTable.keda(5.0), Predictive.of(h),
                Replay.Progress.NONE, Replay.Model.FLUID, Runnable::run);
    }

    /** Seconds over the objective in the hour around each morning rise from {@code fromDay} on (tick lines). */
    static double morningViolation(Replay.Run run, int fromDay, double tick) {
        double sum = 0;
        for (Simulator.TickLine l : run.ticks()) {
            double inDay = l.t() % DAY;
            if (l.t() >= fromDay * DAY && inDay >= RISE - 600 && inDay < RISE + 3000 && l.oldestAgeSeconds() > 20) {
                sum += tick;
            }
        }
        return sum;
    }

    @Test
    void predictiveFloorsCutTheMorningViolationsWithoutHoldingThePeakAllDay() {
        LoadHistory h = week(7);
        Replay.Comparison c = compare(h, policy());
        assertNotNull(c.predictive(), "a fourth run, the live policy with forecast floors");
        Predictive.Summary s = c.predictiveSummary();
        assertTrue(s.forecastsGiven() > 0 && s.floorsPlanned() >= 4, "forecasts from the second day on, a floor"
                + " ahead of each later morning: " + s + " — " + s.words());

        double reactiveMorning = morningViolation(c.current(), 2, 30);
        double predictiveMorning = morningViolation(c.predictive(), 2, 30);
        assertTrue(reactiveMorning > 0, "the reactive run is late at the 09:00 rise");
        assertTrue(predictiveMorning < reactiveMorning, "held ahead of the rise, fewer seconds over the objective: "
                + predictiveMorning + " s against " + reactiveMorning + " s reactive");
        assertTrue(c.predictive().summary().ageObjectiveViolationSeconds()
                < c.current().summary().ageObjectiveViolationSeconds(), "and over the whole week");

        // Never more replica-hours than a reactive run that holds the predictive run's peak all day.
        int peak = c.predictive().ticks().stream().mapToInt(Simulator.TickLine::replicas).max().orElseThrow();
        Policy holdPeak = policy().toBuilder().minReplicas(peak).build();
        Replay.Comparison held = Replay.compare(h, policy(), holdPeak, 1, null, null, Replay.Progress.NONE,
                Replay.Model.FLUID, Runnable::run);
        assertTrue(c.predictive().replicaHours() < held.edited().replicaHours(), "predictive "
                + c.predictive().replicaHours() + " replica-hours against " + held.edited().replicaHours()
                + " holding the peak of " + peak + " all week");
        assertTrue(c.predictive().replicaHours() >= c.current().replicaHours(), "the floors cost warm capacity");
        assertEquals(c.current().summary().jobsCompleted(), c.predictive().summary().jobsCompleted(),
                0.01 * c.current().summary().jobsCompleted(), "the same arrivals in every run");
    }

    @Test
    void theFirstDayHasNoForecastSoThePredictiveRunIsTheLiveOne() {
        LoadHistory h = week(1);
        Replay.Comparison c = compare(h, policy());
        Predictive.Summary s = c.predictiveSummary();
        assertEquals(0, s.forecastsGiven(), "a day of history is not enough to forecast: " + s.words());
        assertTrue(s.words().startsWith("no forecast in the window"), s.words());
        assertEquals(c.current().summary(), c.predictive().summary(), "no floor, the same run");
    }

    @Test
    void aForecastMadeAtAStepUsesNoDataAfterIt() {
        // The same week but for its last three days, whose load is doubled: up to their start, the predictive
        // run (and every floor it held) must be exactly the same, since no forecast may see past its own step.
        double cut = MONDAY + 3 * DAY + 6 * 3600; // Thursday 06:00, three hours before the rise
        LoadHistory a = week(5);
        LoadHistory b = week(5, cut, 2);
        Replay.Comparison ca = compare(a, policy());
        Replay.Comparison cb = compare(b, policy());
        List<Simulator.TickLine> la = ca.predictive().ticks();
        List<Simulator.TickLine> lb = cb.predictive().ticks();
        int same = 0;
        for (int i = 0; i < la.size() && MONDAY + la.get(i).t() < cut; i++) {
            assertEquals(la.get(i).desiredReplicas(), lb.get(i).desiredReplicas(), "tick " + la.get(i).t());
            assertEquals(la.get(i).replicas(), lb.get(i).replicas(), "tick " + la.get(i).t());
            assertEquals(la.get(i).oldestAgeSeconds(), lb.get(i).oldestAgeSeconds(), 1e-9, "tick " + la.get(i).t());
            same++;
        }
        assertTrue(same > 3 * DAY / 30, "compared the first three days and more: " + same + " ticks");
        // And the doubled days are seen once they come: the runs part after the cut.
        assertTrue(ca.predictive().replicaHours() < cb.predictive().replicaHours());

        // Directly: each forecast of a run is made from grid cells that end at or before its step.
        Predictive.FloorDecider d = Predictive.of(a).decider(Decider.HEADROOM_NUMBERS);
        Replay.Comparison one = Replay.compare(a, policy(), policy(), 1, null, null, Replay.Progress.NONE,
                Replay.Model.FLUID, Runnable::run);
        for (Simulator.TickLine l : one.current().ticks()) {
            double t = MONDAY + l.t();
            if (l.t() % 3600 == 0) {
                d.decide("what-if", policy(), new io.headroom.decision.Observation(l.replicas(), l.readyReplicas(),
                        java.util.Map.of()), io.headroom.decision.ClassMemory.initial(), Instant.ofEpochSecond((long) t));
                assertTrue(d.newestSeen() <= t, "a forecast at " + t + " saw data up to " + d.newestSeen());
            }
        }
        assertTrue(d.newestSeen() > MONDAY + 4 * DAY, "forecasts were made up to the end");
    }

    @Test
    void aWindowWithoutPredictiveHasNoFourthRun() {
        Replay.Comparison c = Replay.compare(week(1), policy(), policy(), 1, null);
        assertNull(c.predictive());
        assertNull(c.predictiveSummary());
    }

    /**
     * The predictive run holds a floor as the console's auto mode does: once the ramp to it begins it is not let go
     * before the rise. It took every newer plan of as many replicas, and each moved the floor's start later as the
     * ramp raised what runs: 4 → 8 → 16 → 32 → 4 → 8 … every minute for an hour (994 scale events in the week,
     * against 463 live).
     */
    @Test
    void thePredictiveRunHoldsItsFloorFromTheRampToTheRise() {
        Replay.Comparison c = WeekDecisionsPinTest.compare();
        var ticks = c.predictive().ticks();
        int drops = 0;
        for (int i = 1; i < ticks.size(); i++) {
            int before = ticks.get(i - 1).desiredReplicas();
            int now = ticks.get(i).desiredReplicas();
            if (before >= 16 && now <= before / 4) {
                drops++; // a floor's ramp let go: the reactive count of the night again
            }
        }
        int rises = c.predictiveSummary().floorsPlanned();
        assertTrue(drops <= rises, drops + " sudden drops for " + rises + " rises");
        assertTrue(c.predictive().summary().scaleEvents() <= c.current().summary().scaleEvents() + 4 * rises,
                c.predictive().summary().scaleEvents() + " scale events, live " + c.current().summary().scaleEvents());
    }
}
