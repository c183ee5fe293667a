package io.headroom.prometheus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ClassConfig;
import io.headroom.decision.Signals;
import io.headroom.history.Backfill;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.metrics.SignalHistory;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * History backfill against a real Prometheus: a day (or hours at a fine step) comes back in
 * {@code query_range} chunks that each stay under Prometheus's 11,000 points per series, lands on
 * the history's grid in domain units, and what Prometheus never had stays NaN.
 */
@ExtendWith(SharedPrometheus.class)
class HistoryBackfillIntegrationTest {

    /** Waits until the exporter has been scraped for 10 s, so the newest steps (and their 5 s rates) have data. */
    static void awaitTenSecondsOfData(SharedPrometheus.Fixture fx) {
        try (PrometheusClient c = fx.client()) {
            Await.until("10 s of samples", Duration.ofSeconds(40),
                    () -> c.query("count_over_time(hr_jobs_total{class=\"plan-a\"}[10s])"),
                    o -> o instanceof io.headroom.prometheus.QueryOutcome.Value v && v.value() >= 9);
        }
    }

    @Test
    void aDayAtFiveSecondsIsTwoRequestsUnderThePointLimit(SharedPrometheus.Fixture fx) {
        awaitTenSecondsOfData(fx);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        ClassConfig c = PrometheusIntegrationTest.cls("plan-a", PrometheusIntegrationTest.planAQueries());
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            PrometheusClient client = source.client();
            Instant now = Instant.now();
            Instant from = now.minus(Duration.ofDays(1));
            assertThrows(IllegalArgumentException.class, () -> client.queryRange("sum(hr_queue_length)", from, now,
                    Duration.ofSeconds(5)), "one request for a day at 5 s is over the limit");
            long before = client.health().requests();
            SignalHistory h = source.range("plan-a", Signals.QUEUE_LENGTH, from, now, Duration.ofSeconds(5));
            assertEquals(2, client.health().requests() - before, "17,281 points: two chunks");
            assertEquals(0, client.health().failures(), "Prometheus accepted every chunk");
            assertEquals(17_281, h.size());
            for (int i = 1; i < h.size(); i++) {
                assertEquals(5, h.times()[i] - h.times()[i - 1], 0, "one regular grid across the chunks");
            }
            assertEquals(30, h.values()[h.size() - 1], "the gauge, read at the newest step");
            assertTrue(Double.isNaN(h.values()[0]), "a day ago this Prometheus did not exist: NaN, not 0");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void backfillFillsTheClassHistoryUnderItsLivePointsInDomainUnits(SharedPrometheus.Fixture fx) {
        awaitTenSecondsOfData(fx);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Map<String, String> queries = new java.util.LinkedHashMap<>(PrometheusIntegrationTest.planAQueries());
        queries.put("replicas", "max(hr_replicas{class=\"plan-a\"})");
        ClassConfig c = PrometheusIntegrationTest.cls("plan-a", queries);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            // A 1 s tick: four hours are 14,401 points a series, so every signal takes two chunks.
            History history = new History(Duration.ofSeconds(1));
            ClassHistory h = history.of("plan-a");
            Instant now = Instant.now();
            double live = now.getEpochSecond(); // the steady rates were there just before now
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.REPLICAS.ordinal()] = 7;
            h.append(live, row); // the loop's first tick came before the backfill finished
            long before = source.client().health().requests();
            Backfill.Result r = Backfill.fill(h, source, now, Duration.ofHours(4), history.tick());
            assertEquals(2 * 5, source.client().health().requests() - before, "5 signals with a query × 2 chunks");
            assertEquals(14_401 - 1, r.points(), "every step before the live point");
            assertEquals(live, h.lastTime());
            assertEquals(7, h.value(Series.REPLICAS, h.size() - 1), "the live point is kept as recorded");
            int i = h.size() - 2; // the newest backfilled step
            assertEquals(30, h.value(Series.QUEUE_LENGTH, i));
            assertEquals(50, h.value(Series.OLDEST_AGE, i));
            assertEquals(2, h.value(Series.REPLICAS, i), "replicas from its signal, as a count");
            // The counter grows exactly 0.5/s; rate() extrapolates over its 5 s window: allow 5 %.
            assertEquals(0.5, h.value(Series.ARRIVAL_RATE, i), 0.025);
            assertEquals(8, h.value(Series.MEAN_SERVICE, i), 0.5);
            assertTrue(Double.isNaN(h.value(Series.DESIRED_REPLICAS, i)), "only a tick knows what was desired");
            assertTrue(Double.isNaN(h.value(Series.QUEUE_LENGTH, 0)), "four hours ago: no data, NaN");
            assertTrue(r.missing().stream().anyMatch(m -> m.startsWith(Signals.COMPLETION_RATE)), r.missing().toString());
        } finally {
            pool.shutdownNow();
        }
    }
}
