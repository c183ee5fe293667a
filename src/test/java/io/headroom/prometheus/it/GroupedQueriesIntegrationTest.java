package io.headroom.prometheus.it;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.GroupedQuery;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.metrics.SignalHistory;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.QueryOutcome;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Grouped queries against a real Prometheus: 50 classes read with one request per distinct query
 * per tick get the same values, sample times and decisions as with their own per-class queries; a
 * class whose label value is absent from the answer is no data; the backfill asks once for all.
 */
@ExtendWith(SharedPrometheus.class)
class GroupedQueriesIntegrationTest {

    static final int CLASSES = 50;
    static final SignalName[] SIGNALS = {Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE,
        Signals.MEAN_SERVICE, Signals.COMPLETION_RATE};
    static final Map<SignalName, String> GROUPED = Map.of(
            Signals.QUEUE_LENGTH, "sum by (queue) (hr_batch_queue_length)",
            Signals.OLDEST_AGE, "max by (queue) (hr_batch_oldest_age_seconds)",
            Signals.ARRIVAL_RATE, "sum by (queue) (hr_batch_arrivals_per_second)",
            Signals.MEAN_SERVICE, "max by (queue) (hr_batch_mean_service_seconds)",
            Signals.COMPLETION_RATE, "sum by (queue) (rate(hr_batch_service_seconds_count[5s]))");

    static Map<SignalName, String> perClass(String q) {
        String m = "{queue=\"" + q + "\"}";
        Map<SignalName, String> own = new LinkedHashMap<>();
        own.put(Signals.QUEUE_LENGTH, "sum(hr_batch_queue_length" + m + ")");
        own.put(Signals.OLDEST_AGE, "max(hr_batch_oldest_age_seconds" + m + ")");
        own.put(Signals.ARRIVAL_RATE, "sum(hr_batch_arrivals_per_second" + m + ")");
        own.put(Signals.MEAN_SERVICE, "max(hr_batch_mean_service_seconds" + m + ")");
        own.put(Signals.COMPLETION_RATE, "sum(rate(hr_batch_service_seconds_count" + m + "[5s]))");
        return own;
    }

    static ClassConfig cls(String name, Map<SignalName, String> own, Map<SignalName, GroupedQuery> grouped) {
        return new ClassConfig(name, new WorkloadRef("dev", "ns", "Deployment", name), own,
                Policy.builder().slotsPerReplica(4).maxReplicas(500).build(), null, null, grouped);
    }

    static Map<SignalName, GroupedQuery> grouped(String value) {
        Map<SignalName, GroupedQuery> g = new LinkedHashMap<>();
        for (SignalName s : SIGNALS) {
            g.put(s, new GroupedQuery(GROUPED.get(s), "queue", value));
        }
        return g;
    }

    /** Serves 50 queues' series and waits until Prometheus has them with a full rate window. */
    static void serveQueues(SharedPrometheus.Fixture fx) {
        queues(fx.exporter); // the fixture serves them from its start (their history grows meanwhile): idempotent
        try (var c = fx.client()) {
            Await.until("50 queues with a full rate window", Duration.ofSeconds(40),
                    () -> c.query("count(count_over_time(hr_batch_service_seconds_count[6s]) >= 5)"),
                    o -> o instanceof QueryOutcome.Value v && v.value() == CLASSES);
        }
    }

    /** The 50 queues' series (labelled queue="bqN"), served by {@code exporter}. */
    static void queues(TestExporter exporter) {
        for (int i = 0; i < CLASSES; i++) {
            String l = "queue=\"bq" + i + "\"";
            exporter.gauge("hr_batch_queue_length", l, 10 + 3 * i);
            exporter.gauge("hr_batch_oldest_age_seconds", l, 5 + i);
            exporter.gauge("hr_batch_arrivals_per_second", l, 0.1 * (i + 1));
            exporter.gauge("hr_batch_mean_service_seconds", l, 0.5 * (1 + i % 8));
            exporter.histogram("hr_batch_service_seconds", l, 0.5, 0.25 * (1 + i % 8));
        }
    }

    @Test
    void fiftyClassesCostOneRequestPerDistinctQueryAndGetTheSameValuesAndDecisions(SharedPrometheus.Fixture fx) {
        serveQueues(fx);
        List<ClassConfig> batched = new ArrayList<>();
        List<ClassConfig> own = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < CLASSES; i++) {
            names.add("c" + i);
            batched.add(cls("c" + i, Map.of(), grouped("bq" + i)));
            own.add(cls("c" + i, perClass("bq" + i), Map.of()));
        }
        batched.add(cls("absent", Map.of(), grouped("bq-absent")));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (PrometheusMetricsSource b = new PrometheusMetricsSource(fx.client(), batched, pool, Duration.ofSeconds(5),
                Clock.systemUTC());
             PrometheusMetricsSource p = new PrometheusMetricsSource(fx.client(), own, pool, Duration.ofSeconds(5),
                     Clock.systemUTC())) {
            List<String> all = new ArrayList<>(names);
            all.add("absent");
            for (int tick = 0; tick < 3; tick++) {
                long before = b.client().health().requests();
                long t0 = System.nanoTime();
                Map<String, Map<SignalName, Signal>> rb = b.read(all, Instant.now());
                Instant afterBatched = Instant.now();
                Map<String, Map<SignalName, Signal>> rp = p.read(names, Instant.now());
                Duration between = Duration.ofNanos(System.nanoTime() - t0);
                Instant now = Instant.now();
                assertEquals(SIGNALS.length + 1, b.client().health().requests() - before,
                        "one request per distinct query and one for their sample times, for 51 classes");
                assertEquals(SIGNALS.length + 1, b.details().lastTick().queries());
                assertEquals(CLASSES * (SIGNALS.length + 1), p.details().lastTick().queries(), "per class: 6 each");
                assertEquals(0, b.details().lastTick().sampleTimesFailed());
                assertEquals(SIGNALS.length, b.details().lastTick().noData(), "only the absent class");
                for (String c : names) {
                    Map<SignalName, Signal> sb = rb.get(c);
                    Map<SignalName, Signal> sp = rp.get(c);
                    for (SignalName s : SIGNALS) {
                        assertTrue(sb.get(s).present() && sp.get(s).present(), c + "." + s + ": " + sb.get(s) + " / " + sp.get(s));
                        // A 5 s rate() read a moment later may have one scrape more or less in its window
                        // (and scrapes jitter on a loaded machine): close, not equal. Gauges are exact, and
                        // the decision reads only gauges here, so it must be the same to the replica.
                        double tolerance = s.equals(Signals.COMPLETION_RATE) ? 0.3 * sp.get(s).value() : 0;
                        assertEquals(sp.get(s).value(), sb.get(s).value(), tolerance, c + "." + s);
                        // Sample times: each series' own newest scrape, so they differ by at most the
                        // scrapes (one a second) that came between the two reads.
                        Duration skew = Duration.between(sp.get(s).sampledAt(), sb.get(s).sampledAt()).abs();
                        assertTrue(skew.compareTo(between.plusMillis(1500)) <= 0,
                                c + "." + s + " sample times differ by " + skew + " (reads " + between + " apart)");
                        assertTrue(Duration.between(sb.get(s).sampledAt(), afterBatched).toSeconds() < 5,
                                "a scraped series is fresh: " + sb.get(s).sampledAt());
                    }
                    Decision db = DecisionEngine.decide(c, own.get(0).policy(), new Observation(3, 3, sb),
                            ClassMemory.initial(), now);
                    Decision dp = DecisionEngine.decide(c, own.get(0).policy(), new Observation(3, 3, sp),
                            ClassMemory.initial(), now);
                    assertEquals(dp.desiredReplicas(), db.desiredReplicas(), c + ": " + db.explanation() + " / "
                            + dp.explanation());
                    assertEquals(dp.estimatedSlots(), db.estimatedSlots(), c);
                }
                Map<SignalName, Signal> absent = rb.get("absent");
                for (SignalName s : SIGNALS) {
                    assertFalse(absent.get(s).present(), "absent." + s + " is no data, never 0: " + absent.get(s));
                    assertTrue(absent.get(s).missingReason().startsWith(
                            "EMPTY_RESULT: no series with queue=\"bq-absent\" in the grouped answer"),
                            absent.get(s).missingReason());
                }
                Decision d = DecisionEngine.decide("absent", own.get(0).policy(), new Observation(3, 3, absent),
                        ClassMemory.initial(), now);
                assertEquals(3, d.desiredReplicas(), "no data holds replicas: " + d.explanation());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void backfillAsksEachGroupedQueryOnceForAllClassesAndMatchesTheOneClassForm(SharedPrometheus.Fixture fx) {
        serveQueues(fx);
        List<ClassConfig> batched = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < CLASSES; i++) {
            names.add("c" + i);
            batched.add(cls("c" + i, Map.of(), grouped("bq" + i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrometheusMetricsSource b = new PrometheusMetricsSource(fx.client(), batched, pool, Duration.ofSeconds(5),
                Clock.systemUTC())) {
            Instant to = Instant.now().minusSeconds(2); // settled: every scrape before it is in
            Instant from = to.minus(Duration.ofHours(4)); // 14,401 points a second: two chunks
            long before = b.client().health().requests();
            Map<String, SignalHistory> all = b.rangeAll(names, Signals.QUEUE_LENGTH, from, to, Duration.ofSeconds(1));
            assertEquals(2, b.client().health().requests() - before, "two chunks for 50 classes");
            assertEquals(0, b.client().health().failures(), "every chunk under the point limit");
            for (int i : new int[] {0, 17, 49}) {
                SignalHistory one = b.range("c" + i, Signals.QUEUE_LENGTH, from, to, Duration.ofSeconds(1));
                SignalHistory split = all.get("c" + i);
                assertEquals(14_401, split.size());
                assertEquals(one.size(), split.size());
                for (int k = 0; k < one.size(); k++) {
                    assertEquals(one.times()[k], split.times()[k]);
                    assertEquals(one.values()[k], split.values()[k], 0, "c" + i + " at " + k);
                }
                assertEquals(10 + 3 * i, split.values()[split.size() - 1]);
                assertTrue(Double.isNaN(split.values()[0]), "four hours ago: NaN, not 0");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
