package io.headroom.prometheus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ClassConfig;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.history.WeekBackfill;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The week the forecast reads, backfilled from a real Prometheus (issue 29): 28 {@code query_range} chunks of 6 h
 * at 60 s per signal, newest first, every one accepted, progress said in days after each, and a stop between chunks.
 */
@ExtendWith(SharedPrometheus.class)
class WeekBackfillIntegrationTest {

    /**
     * Waits until Prometheus holds a sample every second for the last 126 s or more. The test reads the rate at the
     * settled minute, which may be as much as 120 s back, over a 5 s window: a window that began before the first
     * sample holds three or four samples and extrapolates to 0.25 or 0.35 jobs/s for 0.5 (seen in CI with the
     * 122 s this waited for before). 127 samples in 130 s means the oldest of them is at least 126 s old.
     */
    static void awaitTheSettledMinutesWindow(SharedPrometheus.Fixture fx) {
        try (PrometheusClient c = fx.client()) {
            Await.until("126 s of samples", Duration.ofSeconds(200),
                    () -> c.query("count_over_time(hr_jobs_total{class=\"plan-a\"}[130s])"),
                    o -> o instanceof io.headroom.prometheus.QueryOutcome.Value v && v.value() >= 127);
        }
    }

    @Test
    void aWeekIsTwentyEightChunksPerSignalNewestFirstWithProgressAndLandsInTheWeekTier(SharedPrometheus.Fixture fx) {
        awaitTheSettledMinutesWindow(fx);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ClassConfig c = PrometheusIntegrationTest.cls("plan-a", PrometheusIntegrationTest.planAQueries());
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            History history = new History(Duration.ofSeconds(5));
            Instant now = Instant.now();
            long before = source.client().health().requests();
            List<WeekBackfill.Progress> seen = new ArrayList<>();
            WeekBackfill.Progress last = WeekBackfill.run(history, source, List.of("plan-a"), now, History.WEEK,
                    WeekBackfill.CHUNK, seen::add, () -> false);
            assertEquals(28 * 4, source.client().health().requests() - before, "4 signals with a query × 28 chunks");
            assertEquals(0, source.client().health().failures(), "Prometheus accepted every chunk");
            assertEquals(WeekBackfill.State.DONE, last.state(), last.toString());
            assertTrue(last.foundSeconds() > 0 && last.foundSeconds() < 3600,
                    "this Prometheus has minutes of arrivals: " + last);
            assertTrue(last.words().matches("history: \\d+ min of 7 days \\(the source has no older\\)"),
                    "what Prometheus had, not what was asked: " + last.words());
            assertEquals(29, seen.size(), "the start and one per chunk");
            assertEquals("history: 3 of 7 days…", seen.get(12).words());
            ClassHistory week = history.findWeek("plan-a");
            // Only the newest chunk holds anything this Prometheus had: the older chunks' answers, all NaN, cost no room.
            assertEquals(6 * 60 + 1, week.size(), "the newest 6 h at a minute, both ends");
            long settled = (now.getEpochSecond() - 60) / 60 * 60;
            assertEquals(settled - 6 * 3600, week.time(0), 0);
            for (int i = 1; i < week.size(); i++) {
                assertEquals(60, week.time(i) - week.time(i - 1), 0, "no duplicate at a chunk's edge");
            }
            int newest = week.size() - 1;
            assertEquals(settled, week.time(newest), 0, "the last whole minute a minute old");
            assertEquals(30, week.value(Series.QUEUE_LENGTH, newest), "the gauge at the newest settled minute");
            assertEquals(0.5, week.value(Series.ARRIVAL_RATE, newest), 0.025, "0.5 jobs/s, in domain units");
            assertTrue(Double.isNaN(week.value(Series.QUEUE_LENGTH, 0)), "6 h ago this Prometheus did not exist: NaN");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void stoppedAfterThreeChunksItAsksNoMoreAndSaysHowFarItGot(SharedPrometheus.Fixture fx) {
        HistoryBackfillIntegrationTest.awaitTenSecondsOfData(fx);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ClassConfig c = PrometheusIntegrationTest.cls("plan-a", PrometheusIntegrationTest.planAQueries());
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            History history = new History(Duration.ofSeconds(5));
            long before = source.client().health().requests();
            int[] chunks = new int[1];
            WeekBackfill.Progress last = WeekBackfill.run(history, source, List.of("plan-a"), Instant.now(),
                    History.WEEK, WeekBackfill.CHUNK, p -> chunks[0] = p.chunksDone(), () -> chunks[0] >= 3);
            assertEquals(WeekBackfill.State.STOPPED, last.state());
            assertEquals(3 * 4, source.client().health().requests() - before, "no request after the stop");
            assertEquals("history: 18 h of 7 days (stopped)", last.words());
            assertEquals(6 * 60 + 1, history.findWeek("plan-a").size(), "the newest chunk; the two before it were empty");
        } finally {
            pool.shutdownNow();
        }
    }
}
