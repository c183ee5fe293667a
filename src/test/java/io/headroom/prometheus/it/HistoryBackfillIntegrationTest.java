package io.headroom.prometheus.it;

import io.headroom.decision.SignalName;
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

    /** Waits until Prometheus holds 10 s of the exporter's samples, so the newest steps (and their 5 s rates) have data. */
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
        Map<SignalName, String> queries = new java.util.LinkedHashMap<>(PrometheusIntegrationTest.planAQueries());
        queries.put(Signals.REPLICAS, "max(hr_replicas{class=\"plan-a\"})");
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
            assertTrue(r.missing().stream().anyMatch(m -> m.startsWith(Signals.COMPLETION_RATE.id())), r.missing().toString());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The start-up backfill as the session runs it (issue 13 item 2): a day for 50 classes whose
     * signals are grouped queries, at a 5 s tick. Each distinct query goes in two {@code query_range}
     * chunks for all 50 classes (17,281 points a series: 11,000 + 6,281), Prometheus accepts every
     * chunk, and every class's history holds the day on one grid with its own value.
     */
    @Test
    void aDayOfStartUpBackfillForFiftyGroupedClassesIsTwoChunksPerDistinctQueryUnderTheLimit(
            SharedPrometheus.Fixture fx) {
        GroupedQueriesIntegrationTest.serveQueues(fx);
        try (PrometheusClient c = fx.client()) {
            // The grid's newest step may lie up to 5 s before now: wait for 15 s of the queues' samples.
            Await.until("15 s of the queues' samples", Duration.ofSeconds(60),
                    () -> c.query("min(count_over_time(hr_batch_queue_length[15s]))"),
                    o -> o instanceof io.headroom.prometheus.QueryOutcome.Value v && v.value() >= 14);
        }
        List<ClassConfig> classes = new java.util.ArrayList<>();
        List<String> names = new java.util.ArrayList<>();
        for (int i = 0; i < GroupedQueriesIntegrationTest.CLASSES; i++) {
            names.add("c" + i);
            classes.add(GroupedQueriesIntegrationTest.cls("c" + i, Map.of(),
                    GroupedQueriesIntegrationTest.grouped("bq" + i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), classes, pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            History history = new History(Duration.ofSeconds(5));
            assertEquals(17_281, history.capacity(), "a day at 5 s, both ends");
            Instant now = Instant.now().minusSeconds(2); // settled: every scrape before it is in
            long before = source.client().health().requests();
            List<Backfill.Result> results = Backfill.fillAll(history, source, names, now, ClassHistory.SPAN);
            long requests = source.client().health().requests() - before;
            int distinct = GroupedQueriesIntegrationTest.SIGNALS.length;
            assertEquals(2L * distinct, requests, "two chunks per distinct query, whatever the class count");
            assertEquals(0, source.client().health().failures(), "Prometheus accepted every chunk");
            assertEquals(50, results.size());
            assertEquals(17_281, results.get(0).points(), results.get(0).toString());
            assertTrue(results.get(0).missing().stream().allMatch(m -> m.contains("no query for")),
                    "only the signals it has no query for: " + results.get(0));
            for (int i : new int[] {0, 23, 49}) {
                ClassHistory h = history.find("c" + i);
                assertEquals(17_281, h.size(), "c" + i + ": the whole day on the grid");
                assertEquals(5, h.time(1) - h.time(0), 0);
                assertEquals(5, h.time(h.size() - 1) - h.time(h.size() - 2), 0, "one grid across the chunks");
                assertEquals(10 + 3 * i, h.value(Series.QUEUE_LENGTH, h.size() - 1), "its own label's value");
                assertEquals(5 + i, h.value(Series.OLDEST_AGE, h.size() - 1));
                assertTrue(Double.isNaN(h.value(Series.QUEUE_LENGTH, 0)), "a day ago: NaN, not 0");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * The limit the chunks keep under is Prometheus's own: a range of more than 11,000 steps in a
     * single request is refused by this server (asked directly, past the client's own guard).
     */
    @Test
    void prometheusItselfRefusesARangeOfMoreThan11000Steps(SharedPrometheus.Fixture fx) throws Exception {
        long end = Instant.now().getEpochSecond();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.function.LongFunction<java.net.http.HttpResponse<String>> ask = points -> {
            String q = "query=" + java.net.URLEncoder.encode("sum(hr_queue_length)", java.nio.charset.StandardCharsets.UTF_8)
                    + "&start=" + (end - (points - 1)) + "&end=" + end + "&step=1";
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(fx.url().resolve("/api/v1/query_range?" + q))
                        .timeout(Duration.ofSeconds(10)).GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        // Prometheus counts steps, not points: 11,000 steps (11,001 points) pass, one more does not.
        // The client keeps to 11,000 points, one under what the server takes.
        java.net.http.HttpResponse<String> at = ask.apply(PrometheusClient.MAX_POINTS + 1);
        assertEquals(200, at.statusCode(), at.body());
        java.net.http.HttpResponse<String> over = ask.apply(PrometheusClient.MAX_POINTS + 2);
        assertEquals(400, over.statusCode(), "one step more is refused");
        assertTrue(over.body().contains("11,000") || over.body().contains("11000"), over.body());
    }
}
