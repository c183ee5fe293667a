package io.headroom.bench;

import io.headroom.decision.SignalName;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.config.GroupedQuery;
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
 * One metrics tick against a real Prometheus for 50, 200 and 1,000 classes × 6 signals (gauges,
 * rates and a histogram mean), per-class queries (each class its own PromQL, plus its sample-time
 * query) and grouped queries (each signal once for all classes, {@code sum by (queue) (…)}, plus one
 * sample-time query) side by side, alternating, in one run: HTTP requests per tick and tick time.
 * The exporter serves as many queues as the largest size in every case (a fleet's Prometheus holds
 * every queue). Not a test: run with {@code scripts/bench PrometheusTickBenchmark [ticks] [sizes]}, sizes
 * comma-separated (default {@code 50,200,1000}; the fleet's figure: {@code 10 1000,5000}).
 */
public final class PrometheusTickBenchmark {
    static final int[] SIZES = {50, 200, 1000};
    static final int THREADS = 8;
    /** Long enough that a per-class tick of 1,000 classes is measured, not cut off (the console's is 4.5 s). */
    static final Duration DEADLINE = Duration.ofSeconds(60);

    static Map<SignalName, String> perClass(String c) {
        Map<SignalName, String> q = new LinkedHashMap<>();
        q.put(Signals.QUEUE_LENGTH, "sum(hr_queue_length{" + c + "})");
        q.put(Signals.OLDEST_AGE, "max(hr_oldest_age_seconds{" + c + "})");
        q.put(Signals.ARRIVAL_RATE, "sum(rate(hr_jobs_total{" + c + "}[5s]))");
        q.put(Signals.MEAN_SERVICE, "sum(rate(hr_service_seconds_sum{" + c + "}[5s]))"
                + " / sum(rate(hr_service_seconds_count{" + c + "}[5s]))");
        q.put(Signals.IN_FLIGHT, "sum(hr_in_flight{" + c + "})");
        q.put(Signals.COMPLETION_RATE, "sum(rate(hr_service_seconds_count{" + c + "}[5s]))");
        return q;
    }

    static final Map<SignalName, String> GROUPED = Map.of(
            Signals.QUEUE_LENGTH, "sum by (queue) (hr_queue_length)",
            Signals.OLDEST_AGE, "max by (queue) (hr_oldest_age_seconds)",
            Signals.ARRIVAL_RATE, "sum by (queue) (rate(hr_jobs_total[5s]))",
            Signals.MEAN_SERVICE, "sum by (queue) (rate(hr_service_seconds_sum[5s]))"
                    + " / sum by (queue) (rate(hr_service_seconds_count[5s]))",
            Signals.IN_FLIGHT, "sum by (queue) (hr_in_flight)",
            Signals.COMPLETION_RATE, "sum by (queue) (rate(hr_service_seconds_count[5s]))");

    record Figures(long requests, double median, double p90, double max, int noData) {
    }

    public static void main(String[] args) throws Exception {
        int ticks = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int[] sizes = args.length > 1 ? Arrays.stream(args[1].split(",")).mapToInt(Integer::parseInt).toArray() : SIZES;
        final int queues = Arrays.stream(sizes).max().orElseThrow();
        try (TestExporter exporter = new TestExporter()) {
            for (int i = 0; i < queues; i++) {
                String c = "queue=\"q" + i + "\"";
                exporter.gauge("hr_queue_length", c, 10 + i);
                exporter.gauge("hr_oldest_age_seconds", c, 5 + i % 100);
                exporter.gauge("hr_in_flight", c, i % 7);
                exporter.counter("hr_jobs_total", c, 1000, 0.1 * (1 + i % 50));
                exporter.histogram("hr_service_seconds", c, 0.1 * (1 + i % 50), 0.2 * (1 + i % 50));
            }
            long started = System.nanoTime();
            try (TestPrometheus prometheus = TestPrometheus.start(List.of(exporter.target()))) {
                System.out.printf(Locale.ROOT, "prometheus %s ready in %.1f s; %d queues × 7 series%n",
                        prometheus.url(), (System.nanoTime() - started) / 1e9, queues);
                ExecutorService pool = Executors.newFixedThreadPool(THREADS);
                try {
                    PrometheusClient probe = client(prometheus);
                    Await.until("a full rate window", Duration.ofSeconds(90),
                            () -> probe.query("count(count_over_time(hr_jobs_total[6s]) >= 5)"),
                            o -> o instanceof QueryOutcome.Value v && v.value() == queues);
                    probe.close();
                    System.out.printf(Locale.ROOT, "data ready %.1f s after start; %d ticks per mode and size,"
                            + " %d query threads%n%n", (System.nanoTime() - started) / 1e9, ticks, THREADS);
                    System.out.println("classes  requests/tick           tick median ms       tick p90 ms          "
                            + "signals without data");
                    System.out.println("         per-class  grouped   per-class  grouped   per-class  grouped   "
                            + "per-class  grouped   median ratio");
                    for (int n : sizes) {
                        List<ClassConfig> own = new ArrayList<>();
                        List<ClassConfig> grouped = new ArrayList<>();
                        for (int i = 0; i < n; i++) {
                            WorkloadRef w = new WorkloadRef("bench", "ns", null, "w" + i);
                            own.add(new ClassConfig("c" + i, w, perClass("queue=\"q" + i + "\""), Policy.defaults()));
                            Map<SignalName, GroupedQuery> g = new LinkedHashMap<>();
                            for (SignalName s : perClass("").keySet()) {
                                g.put(s, new GroupedQuery(GROUPED.get(s), "queue", "q" + i));
                            }
                            grouped.add(new ClassConfig("c" + i, w, Map.of(), Policy.defaults(), null, null, g));
                        }
                        List<String> names = own.stream().map(ClassConfig::name).toList();
                        try (PrometheusMetricsSource a = source(prometheus, own, pool);
                             PrometheusMetricsSource b = source(prometheus, grouped, pool)) {
                            for (int i = 0; i < 3; i++) { // warm-up: JIT, connection pool
                                a.read(names, Instant.now());
                                b.read(names, Instant.now());
                            }
                            double[][] ms = new double[2][ticks];
                            long[] requests = new long[2];
                            int[] missing = new int[2];
                            List<Map<String, Integer>> why = List.of(new java.util.TreeMap<>(), new java.util.TreeMap<>());
                            for (int t = 0; t < ticks; t++) {
                                for (int k = 0; k < 2; k++) {
                                    int mode = (t + k) % 2; // alternate which goes first
                                    PrometheusMetricsSource s = mode == 0 ? a : b;
                                    long before = s.client().health().requests();
                                    long t0 = System.nanoTime();
                                    Map<String, Map<SignalName, Signal>> r = s.read(names, Instant.now());
                                    ms[mode][t] = (System.nanoTime() - t0) / 1e6;
                                    requests[mode] += s.client().health().requests() - before;
                                    for (Map<SignalName, Signal> m : r.values()) {
                                        for (Signal x : m.values()) {
                                            if (!x.present()) {
                                                missing[mode]++;
                                                why.get(mode).merge(x.missingReason().split(":")[0], 1, Integer::sum);
                                            }
                                        }
                                    }
                                }
                            }
                            Figures per = figures(ms[0], requests[0], missing[0], ticks);
                            Figures grp = figures(ms[1], requests[1], missing[1], ticks);
                            System.out.printf(Locale.ROOT, "%7d  %9d  %7d   %9.1f  %7.1f   %9.1f  %7.1f   %9d  %7d"
                                            + "   %.1f×%n", n, per.requests(), grp.requests(), per.median(), grp.median(),
                                    per.p90(), grp.p90(), per.noData(), grp.noData(), per.median() / grp.median());
                            if (missing[0] + missing[1] > 0) {
                                System.out.println("         without data, by reason: per-class " + why.get(0)
                                        + ", grouped " + why.get(1));
                            }
                        }
                    }
                    System.out.printf(Locale.ROOT, "%n(signals without data are summed over all %d ticks; the console's"
                            + " tick deadline is 4.5 s, here %d s so every tick is measured whole)%n", ticks,
                            DEADLINE.toSeconds());
                } finally {
                    pool.shutdownNow();
                }
            }
        }
    }

    static Figures figures(double[] ms, long requests, int noData, int ticks) {
        double[] s = ms.clone();
        Arrays.sort(s);
        return new Figures(requests / ticks, s[ticks / 2], s[Math.min(ticks - 1, (int) (ticks * 0.9))], s[ticks - 1],
                noData);
    }

    static PrometheusClient client(TestPrometheus prometheus) throws Exception {
        return PrometheusClient.connect(PrometheusEndpoint.of(prometheus.url()).withTimeout(Duration.ofSeconds(30)),
                k -> null, Clock.systemUTC());
    }

    static PrometheusMetricsSource source(TestPrometheus prometheus, List<ClassConfig> classes, ExecutorService pool)
            throws Exception {
        return new PrometheusMetricsSource(client(prometheus), classes, pool, DEADLINE, Clock.systemUTC());
    }

    private PrometheusTickBenchmark() {
    }
}
