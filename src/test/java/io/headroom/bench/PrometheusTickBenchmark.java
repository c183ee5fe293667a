package io.headroom.bench;

import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.QueryOutcome;
import io.headroom.prometheus.it.Await;
import io.headroom.prometheus.it.TestExporter;
import io.headroom.prometheus.it.TestPrometheus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Wall time of one metrics tick against a real Prometheus: 50 classes × 6 signals (gauges, rates
 * and a histogram mean), all issued concurrently on 8 threads. Not a test: run with
 * {@code scripts/bench PrometheusTickBenchmark [ticks]}.
 */
public final class PrometheusTickBenchmark {
    static final int CLASSES = 50;
    static final int THREADS = 8;

    public static void main(String[] args) throws Exception {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (TestExporter exporter = new TestExporter()) {
            List<ClassConfig> classes = new ArrayList<>();
            for (int i = 0; i < CLASSES; i++) {
                String c = "class=\"c" + i + "\"";
                exporter.gauge("hr_queue_length", c, 10 + i);
                exporter.gauge("hr_oldest_age_seconds", c, 5 + i);
                exporter.gauge("hr_in_flight", c, i % 7);
                exporter.counter("hr_jobs_total", c, 1000, 0.1 * (i + 1));
                exporter.histogram("hr_service_seconds", c, 0.1 * (i + 1), 0.2 * (i + 1));
                Map<String, String> q = new LinkedHashMap<>();
                q.put(Signals.QUEUE_LENGTH, "sum(hr_queue_length{" + c + "})");
                q.put(Signals.OLDEST_AGE, "max(hr_oldest_age_seconds{" + c + "})");
                q.put(Signals.ARRIVAL_RATE, "sum(rate(hr_jobs_total{" + c + "}[5s]))");
                q.put(Signals.MEAN_SERVICE, "sum(rate(hr_service_seconds_sum{" + c + "}[5s]))"
                        + " / sum(rate(hr_service_seconds_count{" + c + "}[5s]))");
                q.put(Signals.IN_FLIGHT, "sum(hr_in_flight{" + c + "})");
                q.put(Signals.COMPLETION_RATE, "sum(rate(hr_service_seconds_count{" + c + "}[5s]))");
                classes.add(new ClassConfig("c" + i, new WorkloadRef("bench", "ns", null, "w" + i), q,
                        Policy.defaults()));
            }
            long started = System.nanoTime();
            try (TestPrometheus prometheus = TestPrometheus.start(List.of(exporter.target()))) {
                System.out.printf(Locale.ROOT, "prometheus %s ready in %.1f s%n", prometheus.url(),
                        (System.nanoTime() - started) / 1e9);
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                PrometheusClient client = PrometheusClient.connect(PrometheusEndpoint.of(prometheus.url()),
                        k -> null, Clock.systemUTC());
                try (PrometheusMetricsSource source = new PrometheusMetricsSource(client, classes, pool,
                        PrometheusMetricsSource.defaultDeadline(client.timeout()), Clock.systemUTC())) {
                    Await.until("a full rate window", Duration.ofSeconds(60),
                            () -> client.query("min(count_over_time(hr_jobs_total[6s]))"),
                            o -> o instanceof QueryOutcome.Value v && v.value() >= 5);
                    System.out.printf(Locale.ROOT, "data ready %.1f s after start%n", (System.nanoTime() - started) / 1e9);
                    List<String> names = classes.stream().map(ClassConfig::name).toList();
                    for (int i = 0; i < 5; i++) {
                        source.read(names, Instant.now()); // warm-up: JIT, connection pool
                    }
                    // Side by side, alternating: the real tick (signals plus one sample-time query per class)
                    // and the same signal queries alone, as the tick was before sample times.
                    List<String> queries = classes.stream().flatMap(c -> c.queries().values().stream()).toList();
                    double[] ms = new double[ticks];
                    double[] valuesOnly = new double[ticks];
                    long requests = 0;
                    int missing = 0;
                    for (int t = 0; t < ticks; t++) {
                        boolean realFirst = t % 2 == 0;
                        if (!realFirst) {
                            valuesOnly[t] = valuesOnly(client, queries, pool);
                        }
                        long before = source.details().connection().requests();
                        long t0 = System.nanoTime();
                        Map<String, Map<String, Signal>> r = source.read(names, Instant.now());
                        ms[t] = (System.nanoTime() - t0) / 1e6;
                        requests += source.details().connection().requests() - before;
                        for (Map<String, Signal> m : r.values()) {
                            missing += (int) m.values().stream().filter(s -> !s.present()).count();
                        }
                        if (realFirst) {
                            valuesOnly[t] = valuesOnly(client, queries, pool);
                        }
                    }
                    Arrays.sort(ms);
                    Arrays.sort(valuesOnly);
                    System.out.printf(Locale.ROOT, "one tick, %d classes × 6 signals on %d threads: median %.1f ms,"
                                    + " p90 %.1f ms, min %.1f ms, max %.1f ms over %d ticks%n",
                            CLASSES, THREADS, ms[ticks / 2], ms[(int) (ticks * 0.9)], ms[0], ms[ticks - 1], ticks);
                    System.out.printf(Locale.ROOT, "HTTP requests per tick: %d; signals without data: %d of %d%n",
                            requests / ticks, missing, ticks * CLASSES * 6);
                    System.out.printf(Locale.ROOT, "the same %d signal queries without sample times: median %.1f ms,"
                                    + " p90 %.1f ms; sample times cost %.2f× per tick%n", queries.size(),
                            valuesOnly[ticks / 2], valuesOnly[(int) (ticks * 0.9)], ms[ticks / 2] / valuesOnly[ticks / 2]);
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    /** Sends every query at once on the pool and waits for all: the tick without sample times. */
    private static double valuesOnly(PrometheusClient client, List<String> queries, ExecutorService pool) {
        long t0 = System.nanoTime();
        java.util.concurrent.CompletableFuture.allOf(queries.stream()
                .map(q -> java.util.concurrent.CompletableFuture.supplyAsync(() -> client.query(q), pool))
                .toArray(java.util.concurrent.CompletableFuture[]::new)).join();
        return (System.nanoTime() - t0) / 1e6;
    }

    private PrometheusTickBenchmark() {
    }
}
