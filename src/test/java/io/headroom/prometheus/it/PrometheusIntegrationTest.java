package io.headroom.prometheus.it;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.prometheus.History;
import io.headroom.prometheus.NoDataReason;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.QueryOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The client and the MetricsSource against a real Prometheus holding an exporter's known values. */
@ExtendWith(SharedPrometheus.class)
class PrometheusIntegrationTest {

    static ClassConfig cls(String name, Map<SignalName, String> queries) {
        return new ClassConfig(name, new WorkloadRef("dev", "ns", "Deployment", name), queries, Policy.defaults());
    }

    static Map<SignalName, String> planAQueries() {
        Map<SignalName, String> q = new LinkedHashMap<>();
        q.put(Signals.QUEUE_LENGTH, "sum(hr_queue_length{class=\"plan-a\"})");
        q.put(Signals.OLDEST_AGE, "max(hr_oldest_age_seconds{class=\"plan-a\"})");
        q.put(Signals.ARRIVAL_RATE, "sum(rate(hr_jobs_total{class=\"plan-a\"}[5s]))");
        q.put(Signals.MEAN_SERVICE, "sum(rate(hr_service_seconds_sum{class=\"plan-a\"}[5s]))"
                + " / sum(rate(hr_service_seconds_count{class=\"plan-a\"}[5s]))");
        return q;
    }

    @Test
    void gaugesAreReadBackAndChangesAreSeen(SharedPrometheus.Fixture fx) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        ClassConfig c = cls("it-gauge", Map.of(Signals.QUEUE_LENGTH, "sum(hr_queue_length{class=\"it-gauge\"})",
                Signals.OLDEST_AGE, "max(hr_oldest_age_seconds{class=\"it-gauge\"})"));
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            Map<SignalName, Signal> s = source.read(List.of("it-gauge"), Instant.now()).get("it-gauge");
            assertEquals(10.0, s.get(Signals.QUEUE_LENGTH).value());
            assertEquals(5.0, s.get(Signals.OLDEST_AGE).value());
            // Prometheus stamps an instant query's sample with its evaluation time: now, give or take.
            Duration age = Duration.between(s.get(Signals.QUEUE_LENGTH).sampledAt(), Instant.now()).abs();
            assertTrue(age.toSeconds() < 5, "sample age " + age);

            fx.exporter.gauge("hr_queue_length", "class=\"it-gauge\"", 45);
            fx.exporter.gauge("hr_oldest_age_seconds", "class=\"it-gauge\"", 17.5);
            // Both gauges: a scrape (or an instant query) may fall between the two changes and see one of them.
            Map<SignalName, Signal> after = Await.until("the new gauge values", Duration.ofSeconds(20),
                    () -> source.read(List.of("it-gauge"), Instant.now()).get("it-gauge"),
                    m -> m.get(Signals.QUEUE_LENGTH).present() && m.get(Signals.QUEUE_LENGTH).value() == 45
                            && m.get(Signals.OLDEST_AGE).present() && m.get(Signals.OLDEST_AGE).value() == 17.5);
            assertEquals(17.5, after.get(Signals.OLDEST_AGE).value());
            PrometheusMetricsSource.Health h = source.details();
            assertEquals(3, h.lastTick().queries(), "two signals and one sample-time query");
            assertEquals(0, h.lastTick().sampleTimesFailed());
            assertEquals(0, h.lastTick().noData());
            assertEquals(0, h.connection().failures());
            assertNotNull(h.connection().lastSuccessAt());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSeriesThatStopsUpdatingIsStaleWhilePrometheusStillShowsIt(SharedPrometheus.Fixture fx) {
        // A pushed series whose sender stopped 20 s ago, beside a live one. Prometheus writes no staleness
        // marker for a series with its own timestamps, so a plain instant query keeps answering.
        Instant stopped = Instant.now().minusSeconds(20).truncatedTo(ChronoUnit.MILLIS);
        fx.exporter.gaugeAt("hr_pushed_queue_length", "class=\"frozen\"", 12, stopped);
        fx.exporter.gauge("hr_pushed_oldest_age_seconds", "class=\"frozen\"", 4);
        String lengthQuery = "sum(hr_pushed_queue_length{class=\"frozen\"})";
        try (PrometheusClient c = fx.client()) {
            QueryOutcome.Value plain = (QueryOutcome.Value) Await.until("the pushed series", Duration.ofSeconds(20),
                    () -> c.query(lengthQuery), o -> o instanceof QueryOutcome.Value);
            assertEquals(12.0, plain.value());
            assertTrue(Duration.between(plain.sampledAt(), Instant.now()).abs().toSeconds() < 5,
                    "an instant query stamps its answer with the evaluation time: " + plain.sampledAt());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        ClassConfig frozen = new ClassConfig("frozen", new WorkloadRef("dev", "ns", "Deployment", "frozen"),
                Map.of(Signals.QUEUE_LENGTH, lengthQuery,
                        Signals.OLDEST_AGE, "max(hr_pushed_oldest_age_seconds{class=\"frozen\"})",
                        Signals.ARRIVAL_RATE, "vector(0.5)", Signals.MEAN_SERVICE, "vector(8)"),
                Policy.builder().pollIntervalSeconds(1).build());
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(frozen), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            Instant now = Instant.now();
            Map<SignalName, Signal> s = source.read(List.of("frozen"), now).get("frozen");
            assertEquals(12.0, s.get(Signals.QUEUE_LENGTH).value());
            assertEquals(stopped, s.get(Signals.QUEUE_LENGTH).sampledAt(), "the sample's own time");
            Duration liveAge = Duration.between(s.get(Signals.OLDEST_AGE).sampledAt(), now);
            assertTrue(liveAge.toMillis() < 3000, "the live series was scraped within a second or two: " + liveAge);

            Decision d = DecisionEngine.decide("frozen", frozen.policy(),
                    new Observation(3, 3, s), ClassMemory.initial(), now);
            InputStatus q = d.inputs().stream()
                    .filter(i -> i.name().equals(Signals.QUEUE_LENGTH)).findFirst().orElseThrow();
            assertEquals(InputStatus.Status.STALE, q.status());
            assertTrue(q.reason().matches("sample [\\d.]+ s old \\(limit 2 s\\)"), q.reason());
            assertTrue(Duration.between(stopped, now).toSeconds() >= 20);
            assertEquals(3, d.desiredReplicas(), "a stale required input holds replicas: " + d.explanation());
            assertEquals(0, source.details().lastTick().sampleTimesFailed());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void counterRatesAndHistogramMeansMatchTheExporter(SharedPrometheus.Fixture fx) {
        fx.awaitSteadyRates();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(),
                List.of(cls("plan-a", planAQueries())), pool, Duration.ofSeconds(5), Clock.systemUTC())) {
            Map<SignalName, Signal> s = source.read(List.of("plan-a"), Instant.now()).get("plan-a");
            assertEquals(30.0, s.get(Signals.QUEUE_LENGTH).value());
            assertEquals(50.0, s.get(Signals.OLDEST_AGE).value());
            // The counter grows exactly 0.5/s; rate() extrapolates over a 5 s window: allow 5 %.
            assertEquals(0.5, s.get(Signals.ARRIVAL_RATE).value(), 0.025);
            // sum and count share scrape times, so extrapolation cancels in the ratio: 4 s/s ÷ 0.5/s = 8 s.
            assertEquals(8.0, s.get(Signals.MEAN_SERVICE).value(), 0.08);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void jobsInFlightPerPodAreReadOnDemandAndNeverInATick(SharedPrometheus.Fixture fx) {
        // Two containers' series for w-0 (summed by pod), a pod with no number, and another class's pod.
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"drain-it\",container=\"a\",pod=\"w-0\"", 2);
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"drain-it\",container=\"b\",pod=\"w-0\"", 1);
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"drain-it\",container=\"a\",pod=\"w-1\"", 0);
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"drain-it\",container=\"a\",pod=\"w-2\"", 1.5);
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"drain-it\",container=\"a\",pod=\"w-3\"", Double.NaN);
        fx.exporter.gauge("hr_worker_jobs_in_flight", "class=\"other\",container=\"a\",pod=\"x-0\"", 9);
        Map<SignalName, String> q = new LinkedHashMap<>();
        q.put(Signals.QUEUE_LENGTH, "sum(hr_queue_length{class=\"plan-a\"})");
        q.put(Signals.OLDEST_AGE, "max(hr_oldest_age_seconds{class=\"plan-a\"})");
        ClassConfig c = new ClassConfig("drain-it", new WorkloadRef("dev", "ns", "Deployment", "drain-it"), q,
                Policy.defaults(), "sum by (pod) (hr_worker_jobs_in_flight{class=\"drain-it\"})");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(c), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            Map<String, Double> byPod = Await.until("the per-pod series", Duration.ofSeconds(20),
                    () -> source.inFlightByPod("drain-it"), m -> m.size() >= 3);
            assertEquals(Map.of("w-0", 3.0, "w-1", 0.0, "w-2", 1.5), byPod,
                    "exactly the exporter's pods of this class; the NaN pod is left out");

            long before = source.details().connection().requests();
            Map<SignalName, Signal> tick = source.read(List.of("drain-it"), Instant.now()).get("drain-it");
            assertEquals(Set.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE), tick.keySet(), "nothing per pod in a tick");
            assertEquals(30.0, tick.get(Signals.QUEUE_LENGTH).value());
            assertEquals(3, source.details().lastTick().queries(), "two signals and one sample-time query");
            assertEquals(before + 3, source.details().connection().requests(),
                    "the tick sent its own queries and not podInFlight");
            assertEquals(0, source.details().lastTick().sampleTimesFailed());

            assertEquals(byPod, source.inFlightByPod("drain-it"));
            assertEquals(before + 4, source.details().connection().requests(), "one request per on-demand read");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void realPrometheusAnswersBecomeTypedNoData(SharedPrometheus.Fixture fx) {
        try (PrometheusClient c = fx.client()) {
            assertEquals(NoDataReason.EMPTY_RESULT, noData(c.query("hr_no_such_metric")).reason());
            assertEquals(NoDataReason.MULTIPLE_SERIES, noData(c.query("hr_multi")).reason());
            assertEquals(3.0, assertInstanceOf(QueryOutcome.Value.class, c.query("sum(hr_multi)")).value());
            assertEquals(NoDataReason.NAN_OR_INF, noData(c.query("sum(hr_multi) / 0 - sum(hr_multi) / 0")).reason());
            assertEquals(NoDataReason.NAN_OR_INF, noData(c.query("sum(hr_multi) / 0")).reason());
            QueryOutcome.NoData bad = noData(c.query("sum(hr_multi"));
            assertEquals(NoDataReason.QUERY_ERROR, bad.reason());
            assertTrue(bad.message().startsWith("bad data: "), bad.message());
            assertEquals(NoDataReason.QUERY_ERROR, noData(c.query("hr_multi[1m]")).reason());
            // The real server's scalar and string answers, read as api.md documents them.
            assertEquals(2.5, assertInstanceOf(QueryOutcome.Value.class, c.query("scalar(vector(2.5))")).value());
            assertEquals("the query's result is a string, not a number", noData(c.query("\"hello\"")).message());
            // A long query goes as a POST form and still works.
            String longQuery = "sum(hr_multi)" + " + 0 * sum(hr_multi)".repeat(100);
            assertTrue(longQuery.length() > PrometheusClient.POST_THRESHOLD);
            assertEquals(3.0, assertInstanceOf(QueryOutcome.Value.class, c.query(longQuery)).value());
            QueryOutcome.Value withStats = assertInstanceOf(QueryOutcome.Value.class,
                    c.query("sum(hr_multi)", null, true));
            assertNotNull(withStats.stats());
            assertTrue(withStats.stats().totalQueryableSamples() >= 2, withStats.stats().toString());
            // Only Prometheus's own error (bad_data) is a failure of the connection; data problems are not.
            assertEquals(1, c.health().failures());
        }
    }

    @Test
    void historyBackfillsOnAGridWithGapsBeforeTheFirstScrape(SharedPrometheus.Fixture fx) {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(),
                List.of(cls("plan-a", planAQueries())), pool, Duration.ofSeconds(5), Clock.systemUTC())) {
            // 15 minutes back reaches long before Prometheus started. Right after the first scrape the
            // only sample may be newer than the whole second the range ends on: wait for one inside it.
            History h = Await.until("a history with data", Duration.ofSeconds(20), () -> {
                Instant to = Instant.now();
                return source.history("plan-a", Signals.QUEUE_LENGTH, to.minus(Duration.ofMinutes(15)), to, 900);
            }, History::present);
            assertEquals(Duration.ofSeconds(1), h.step());
            assertTrue(h.size() >= 900 && h.size() <= 902, "points: " + h.size());
            assertTrue(Double.isNaN(h.values()[0]), "no data 15 minutes ago is a gap, not 0");
            int last = h.size() - 1;
            assertEquals(30.0, h.values()[last], "the newest point: " + h.times()[last]);
            for (int i = 1; i < h.size(); i++) {
                assertEquals(1.0, h.times()[i] - h.times()[i - 1]);
                assertTrue(Double.isNaN(h.values()[i]) || h.values()[i] == 30.0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    static QueryOutcome.NoData noData(QueryOutcome o) {
        return assertInstanceOf(QueryOutcome.NoData.class, o);
    }
}
