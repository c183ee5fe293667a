package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.Policy;
import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastSettings;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The background forecasts: made from each class's week, again when due by the session's clock, never for off. */
class ForecastRunnerTest {

    static final Instant NOW = Instant.parse("2026-03-09T06:00:00Z"); // a Monday

    static WorkloadClass cls(String name, ForecastMode mode) {
        return new WorkloadClass(name, new WorkloadRef("ctx", "ns", "Deployment", name),
                Policy.builder().forecastMode(mode).build(), null);
    }

    /** A week at a minute: 5 jobs/s, 20 from 09:00 to 17:00 every day; 2 s of service. */
    static void week(History history, String name, double days) {
        ClassHistory h = history.weekOf(name);
        double[] row = new double[ClassHistory.SERIES];
        for (double t = NOW.getEpochSecond() - days * 86_400; t < NOW.getEpochSecond(); t += 60) {
            Arrays.fill(row, Double.NaN);
            double inDay = Math.floorMod((long) t, 86_400L);
            row[Series.ARRIVAL_RATE.ordinal()] = inDay >= 9 * 3600 && inDay < 17 * 3600 ? 20 : 5;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            h.append(t, row);
        }
    }

    @Test
    void everyClassIsForecastFromItsWeekAndAgainOnlyOnceFiveMinutesHavePassed() {
        ManualClock clock = new ManualClock(NOW);
        History history = new History(Duration.ofSeconds(5));
        week(history, "steady", 7);
        week(history, "young", 0.25);
        List<WorkloadClass> classes = List.of(cls("steady", ForecastMode.FORECAST_ONLY),
                cls("young", ForecastMode.PROPOSE), cls("quiet", ForecastMode.OFF));
        ForecastRunner runner = new ForecastRunner(history, () -> classes, clock, ForecastSettings.DEFAULTS,
                ForecastRunner.EVERY);
        assertNull(runner.arrivals("steady"), "nothing made before the first run");

        assertEquals(3, runner.runDue());
        Forecast a = runner.arrivals("steady");
        assertTrue(a.available(), a.reason());
        assertTrue(a.reason().contains("rose from 5 to 20 jobs/s at 09:00"), a.reason());
        assertEquals(20, a.p50()[(int) ((9 * 3600 - 6 * 3600) / a.slotSeconds()) + 1], 1e-9, "09:05 today: the weekday rise");
        assertTrue(runner.service("steady").available(), runner.service("steady").reason());
        assertEquals(2, runner.service("steady").p50()[0], 1e-9);
        assertEquals("s", runner.service("steady").unit());
        Forecast work = runner.work("steady");
        assertTrue(work.available(), work.reason());
        assertEquals(40, work.p50()[(int) ((9 * 3600 - 6 * 3600) / work.slotSeconds()) + 1], 1e-9,
                "09:05: 20 jobs/s × 2 s each, jobs in service");
        assertEquals("jobs in service", work.unit());

        Forecast young = runner.arrivals("young");
        assertFalse(young.available());
        assertTrue(young.reason().contains("6 h of history; a forecast needs 24 h"), young.reason());
        Forecast off = runner.arrivals("quiet");
        assertFalse(off.available());
        assertTrue(off.reason().contains("off"), off.reason());
        long v = runner.version();

        clock.advance(Duration.ofMinutes(4));
        assertEquals(0, runner.runDue(), "4 minutes later nothing is due");
        assertEquals(v, runner.version());
        assertTrue(a == runner.arrivals("steady"), "the same forecast still");

        clock.advance(Duration.ofMinutes(1));
        assertEquals(3, runner.runDue(), "5 minutes after the last");
        assertTrue(runner.arrivals("steady") != a);
        assertEquals(NOW.getEpochSecond() + 300, runner.arrivals("steady").start(), 0, "made at the new now");
        assertTrue(runner.version() > v);
    }

    @Test
    void refreshAllRunsOnTheExecutorGivenAndForecastsEveryClassWhateverItsLast() {
        ManualClock clock = new ManualClock(NOW);
        History full = new History(Duration.ofSeconds(5));
        week(full, "steady", 7);
        Queue<Runnable> queue = new ArrayDeque<>();
        ForecastRunner later = new ForecastRunner(full, () -> List.of(cls("steady", ForecastMode.AUTO)), clock,
                ForecastSettings.DEFAULTS, ForecastRunner.EVERY);
        later.runDue();
        Forecast first = later.arrivals("steady");
        CompletableFuture<Integer> f = later.refreshAll(queue::add);
        assertFalse(f.isDone(), "nothing runs until the executor does");
        assertTrue(first == later.arrivals("steady"));
        queue.poll().run();
        assertEquals(1, f.join(), "made again though not due");
        assertTrue(first != later.arrivals("steady"));
    }

    @Test
    void aSandboxSessionBackfillsAWeekFromItsOwnProgrammeAndForecastsEveryClass() throws Exception {
        try (Session s = Session.sandbox(7, Instant.parse("2026-11-30T10:00:00Z"), Duration.ofMinutes(10),
                new MemoryJournal())) {
            var progress = s.backfillWeek().get(60, TimeUnit.SECONDS);
            assertEquals("history: 7 days", progress.words());
            assertEquals(progress, s.weekProgress());
            for (WorkloadClass c : s.loop().classes()) {
                ClassHistory w = s.history().findWeek(c.name());
                assertEquals(History.WEEK_POINTS, w.size(), c.name());
            }
            s.forecasts().refreshAll(Runnable::run).get(60, TimeUnit.SECONDS);
            Forecast payments = s.forecasts().arrivals("payments-steady");
            assertTrue(payments.available(), payments.reason());
            // payments-steady runs 4 jobs/s with a swell to 5.5 every 10 minutes: its 5-minute slots are 4–5 jobs/s.
            assertTrue(payments.p50()[0] > 3.5 && payments.p50()[0] < 5.5, Arrays.toString(payments.p50()));
            assertTrue(s.forecasts().service("payments-steady").available());
        }
    }
}
