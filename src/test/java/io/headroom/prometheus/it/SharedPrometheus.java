package io.headroom.prometheus.it;

import io.headroom.config.PrometheusEndpoint;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusSetupException;
import io.headroom.prometheus.QueryOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real Prometheus and one exporter for every integration test class of a run (starting them and
 * waiting for the first scrape costs ~6 s; paying it once keeps the suite fast). Kept in the root
 * store, so JUnit closes them when the run ends. Tests take a {@link Fixture} parameter.
 */
public final class SharedPrometheus implements ParameterResolver {

    /** The running servers and the series the exporter serves. */
    public static final class Fixture implements ExtensionContext.Store.CloseableResource {
        public final TestExporter exporter;
        public final TestPrometheus prometheus;

        Fixture() throws IOException {
            exporter = new TestExporter();
            // A class whose gauges the tests change.
            exporter.gauge("hr_queue_length", "class=\"it-gauge\"", 10);
            exporter.gauge("hr_oldest_age_seconds", "class=\"it-gauge\"", 5);
            // The worked example of the brief: λ = 0.5/s, S = 8 s, Q = 240 s (L = 30), age 50 s, 2 replicas.
            exporter.gauge("hr_queue_length", "class=\"plan-a\"", 30);
            exporter.gauge("hr_oldest_age_seconds", "class=\"plan-a\"", 50);
            exporter.counter("hr_jobs_total", "class=\"plan-a\"", 1000, 0.5);
            exporter.histogram("hr_service_seconds", "class=\"plan-a\"", 0.5, 4.0);
            exporter.gauge("hr_queued_service_seconds", "class=\"plan-a\"", 240);
            exporter.gauge("hr_replicas", "class=\"plan-a\"", 2);
            exporter.gauge("hr_db_connection_budget", "", 200);
            // Two series under one name: a query must aggregate them.
            exporter.gauge("hr_multi", "pod=\"a\"", 1);
            exporter.gauge("hr_multi", "pod=\"b\"", 2);
            // The grouped-query tests' 50 queues, from the first scrape: the tests that need seconds of
            // their history (rate windows, a backfill's newest steps) find it grown while others ran.
            GroupedQueriesIntegrationTest.queues(exporter);
            try {
                prometheus = TestPrometheus.start(List.of(exporter.target()));
            } catch (IOException | RuntimeException e) {
                exporter.close();
                throw e;
            }
            // The first scrape comes ~5–6 s after ready: wait on the data itself.
            try (PrometheusClient c = client()) {
                Await.until("the first scrape", Duration.ofSeconds(40), () -> c.query("hr_replicas"),
                        o -> o instanceof QueryOutcome.Value);
            }
        }

        public URI url() {
            return prometheus.url();
        }

        /** A plain client with a 3 s timeout; close it after use. */
        public PrometheusClient client() {
            try {
                return PrometheusClient.connect(PrometheusEndpoint.of(url()), k -> null, Clock.systemUTC());
            } catch (PrometheusSetupException e) {
                throw new IllegalStateException(e);
            }
        }

        /** Waits until the exact-rate counters have a full 5 s window, so rate() is steady. */
        public void awaitSteadyRates() {
            try (PrometheusClient c = client()) {
                Await.until("a full rate window", Duration.ofSeconds(40),
                        () -> c.query("count_over_time(hr_jobs_total{class=\"plan-a\"}[6s])"),
                        o -> o instanceof QueryOutcome.Value v && v.value() >= 5);
            }
        }

        @Override
        public void close() {
            prometheus.close();
            exporter.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
        return p.getParameter().getType() == Fixture.class;
    }

    @Override
    public Object resolveParameter(ParameterContext p, ExtensionContext e) {
        return e.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(SharedPrometheus.class, k -> {
                    try {
                        return new Fixture();
                    } catch (IOException ex) {
                        throw new UncheckedIOException(ex);
                    }
                }, Fixture.class);
    }
}
