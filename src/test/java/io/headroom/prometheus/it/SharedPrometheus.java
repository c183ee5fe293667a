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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real Prometheus and one exporter for every test class of a test JVM that asks for them (nothing
 * starts before a test takes a {@link Fixture} parameter). The exporter's series
 * reach Prometheus by remote write ({@link RemoteWriter}), not by scrape: they are queryable as soon as
 * Prometheus is ready (~0.2 s quiet), with {@link RemoteWriter#HISTORY} of samples behind them, where
 * waiting for the first scrape cost 5–10 s and every rate window or backfill step more seconds again.
 *
 * <p>Held by the JVM, not by JUnit's root store: surefire runs each class of a forked JVM as its own
 * launcher execution, so a root-store fixture was closed after every class and started again for the
 * next (one Prometheus start and one history per class). A shutdown hook stops it when the JVM exits.
 * Tests share the exporter: each sets series under its own labels.
 */
public final class SharedPrometheus implements ParameterResolver {

    /** The running servers and the series the exporter serves. */
    public static final class Fixture implements AutoCloseable {
        public final TestExporter exporter;
        public final TestPrometheus prometheus;
        private final RemoteWriter writer;
        private final ScheduledExecutorService writes = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "prometheus-remote-write");
            t.setDaemon(true);
            return t;
        });

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
            // The grouped-query tests' 50 queues, with the history every series starts with.
            GroupedQueriesIntegrationTest.queues(exporter);
            long t0 = System.nanoTime();
            try {
                prometheus = TestPrometheus.startReceiving();
            } catch (IOException | RuntimeException e) {
                exporter.close();
                writes.shutdownNow();
                throw e;
            }
            long ready = System.nanoTime();
            writer = new RemoteWriter(exporter, prometheus.url());
            try {
                writer.writeUpTo(System.currentTimeMillis()); // the history, and the grid up to now
            } catch (IOException | RuntimeException e) {
                close();
                throw new IOException("writing the series' history to " + prometheus.url() + ": " + e, e);
            }
            // Then every 250 ms: the grid's new steps, and series (or new values) the tests set meanwhile.
            writes.scheduleWithFixedDelay(() -> {
                try {
                    writer.writeUpTo(System.currentTimeMillis());
                } catch (IOException | RuntimeException e) {
                    System.err.println("SharedPrometheus: remote write failed (tried again next time): " + e);
                }
            }, 250, 250, TimeUnit.MILLISECONDS);
            try (PrometheusClient c = client()) {
                Await.until("the written series", Duration.ofSeconds(40), () -> c.query("hr_replicas"),
                        o -> o instanceof QueryOutcome.Value);
            }
            System.err.printf(java.util.Locale.ROOT, "SharedPrometheus: %s ready in %.2f s, %d series with %d s of"
                    + " history written and queryable %.2f s later%n", url(), (ready - t0) / 1e9,
                    exporter.snapshot().size(), RemoteWriter.HISTORY.toSeconds(), (System.nanoTime() - ready) / 1e9);
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
            writes.shutdownNow();
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
        return fixture();
    }

    private static Fixture shared;

    /** This JVM's fixture, started on first use. */
    public static synchronized Fixture fixture() {
        if (shared == null) {
            try {
                shared = new Fixture();
            } catch (IOException ex) {
                throw new UncheckedIOException(ex);
            }
            Fixture f = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(f::close, "shared-prometheus-stop"));
        }
        return shared;
    }
}
