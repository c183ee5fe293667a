package io.headroom.prometheus.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ClassConfig;
import io.headroom.config.WorkloadsFile;
import io.headroom.metrics.PodProgress;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.QueryOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-pod progress ({@code podInFlight}, {@code podCompleted}: issue 15, the STUCK check and the pod panel)
 * read from a real Prometheus through a workloads file, as the console reads it: each pod's completion counter
 * by its {@code pod} label, a working pod's counter moving between reads, a hung pod's standing still, and a
 * pod whose counter has no series is unknown (NaN), never 0 (which would read as "finished nothing": STUCK).
 */
@ExtendWith(SharedPrometheus.class)
class PodProgressIntegrationTest {
    @TempDir
    Path dir;

    @Test
    void perPodCompletionsComeFromThePodLabelAndAMissingSeriesIsUnknown(SharedPrometheus.Fixture fx) throws Exception {
        fx.exporter.counter("it_worker_jobs_completed_total", "queue=\"pp\",pod=\"pp-a\"", 100, 2.0);
        fx.exporter.gauge("it_worker_jobs_completed_total", "queue=\"pp\",pod=\"pp-b\"", 40); // hung: no progress
        fx.exporter.gauge("it_worker_jobs_completed_total", "queue=\"other\",pod=\"x-1\"", 7); // another queue's pod
        fx.exporter.gauge("it_worker_jobs_in_flight", "queue=\"pp\",pod=\"pp-a\"", 3);
        fx.exporter.gauge("it_worker_jobs_in_flight", "queue=\"pp\",pod=\"pp-b\"", 4);
        fx.exporter.gauge("it_worker_jobs_in_flight", "queue=\"pp\",pod=\"pp-c\"", 1); // no counter series at all
        Path file = dir.resolve("workloads.yaml");
        Files.writeString(file, """
                prometheus: {url: '%s'}
                classes:
                  - name: pp
                    context: dev
                    target: {name: worker}
                    signals:
                      queueLength: sum(q_len)
                      oldestAge: max(q_age)
                      arrivalRate: sum(rate(q_in[1m]))
                      meanService: sum(rate(s_sum[1m])) / sum(rate(s_count[1m]))
                      podInFlight: sum by (pod) (it_worker_jobs_in_flight{queue="pp"})
                      podCompleted: sum by (pod) (it_worker_jobs_completed_total{queue="pp"})
                """.formatted(fx.url()));
        ClassConfig cls = WorkloadsFile.read(file).classConfig("pp").orElseThrow();
        assertEquals("sum by (pod) (it_worker_jobs_completed_total{queue=\"pp\"})", cls.podCompletedQuery());
        try (var c = fx.client()) {
            Await.until("the per-pod series scraped twice", Duration.ofSeconds(40),
                    () -> c.query("count(count_over_time(it_worker_jobs_completed_total{queue=\"pp\"}[10s]) >= 2)"),
                    o -> o instanceof QueryOutcome.Value v && v.value() == 2);
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrometheusMetricsSource source = new PrometheusMetricsSource(fx.client(), List.of(cls), pool,
                Duration.ofSeconds(5), Clock.systemUTC())) {
            Map<String, PodProgress> first = source.podProgress("pp");
            assertEquals(java.util.Set.of("pp-a", "pp-b", "pp-c"), first.keySet(), "this queue's pods, by label");
            assertEquals(3, first.get("pp-a").inFlight());
            assertEquals(4, first.get("pp-b").inFlight());
            assertEquals(1, first.get("pp-c").inFlight());
            assertEquals(40, first.get("pp-b").completed(), "the hung pod's counter, exactly");
            assertTrue(first.get("pp-a").completed() > 100, "the working pod's counter: " + first.get("pp-a"));
            assertTrue(Double.isNaN(first.get("pp-c").completed()),
                    "no series: unknown, never 0 (" + first.get("pp-c") + ")");
            assertFalse(source.podProgress("other-class").containsKey("x-1"), "an unknown class has no pods");

            double a = first.get("pp-a").completed();
            Await.until("a later scrape of the working pod's counter", Duration.ofSeconds(20),
                    () -> source.podProgress("pp"), m -> m.get("pp-a").completed() > a);
            Map<String, PodProgress> later = source.podProgress("pp");
            assertEquals(40, later.get("pp-b").completed(), "the hung pod's counter stands still");
            assertTrue(Double.isNaN(later.get("pp-c").completed()));
        } finally {
            pool.shutdownNow();
        }
    }
}
