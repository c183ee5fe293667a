package io.headroom.exporter;

import io.headroom.exporter.ExporterConfig.PostgresConfig;
import io.headroom.exporter.ExporterConfig.RedisConfig;
import io.headroom.exporter.ExporterConfig.SourceConfig;
import io.headroom.threads.NamedThreads;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;

/**
 * {@code headroom exporter}: the sources of an {@link ExporterConfig}, read on every scrape and served
 * at {@code /metrics} by the official Prometheus client's HTTP server (which negotiates the format).
 */
public final class Exporter implements AutoCloseable {
    private final List<QueueSource> sources;
    private final ExecutorService reads;
    private final Scrape scrape;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private HTTPServer server;

    /** @param env where passwordEnv is looked up (System::getenv) */
    public Exporter(ExporterConfig config, UnaryOperator<String> env, Clock clock) {
        this(sources(config, env), config, clock);
    }

    Exporter(List<QueueSource> sources, ExporterConfig config, Clock clock) {
        this.sources = List.copyOf(sources);
        this.reads = NamedThreads.cached("exporter-read");
        List<Scrape.Timed> timed = new ArrayList<>();
        for (int i = 0; i < sources.size(); i++) {
            timed.add(new Scrape.Timed(sources.get(i), config.sources().get(i).timeout()));
        }
        this.scrape = new Scrape(timed, reads, clock);
        registry.register(scrape);
    }

    private static List<QueueSource> sources(ExporterConfig config, UnaryOperator<String> env) {
        List<QueueSource> out = new ArrayList<>();
        for (SourceConfig s : config.sources()) {
            if (s instanceof RedisConfig r) {
                out.add(new RedisSource(r, env));
            } else if (s instanceof PostgresConfig p) {
                out.add(new PostgresSource(p, env));
            } else if (s instanceof ExporterConfig.RabbitMqConfig r) {
                out.add(new RabbitMqSource(r, env));
            } else if (s instanceof ExporterConfig.KafkaConfig k) {
                out.add(new KafkaSource(k, env));
            } else {
                throw new IllegalArgumentException("no reader for " + s.getClass().getSimpleName());
            }
        }
        return out;
    }

    /** Serves {@code /metrics} on host:port (port 0: a free one); returns the port. */
    public int serve(String host, int port) throws IOException {
        server = HTTPServer.builder().hostname(host).port(port).registry(registry)
                .executorService(NamedThreads.fixed("exporter-http", 2)).buildAndStart();
        return server.getPort();
    }

    /** One scrape: its text (Prometheus's text format) and, per source or part that could not be read, why. */
    public record Scraped(String text, List<String> failures) {
    }

    /** One scrape, as {@code --once} prints it. */
    public Scraped scrapeOnce() {
        List<Scrape.Outcome> outcomes = scrape.readAll();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            PrometheusTextFormatWriter.create().write(out, Scrape.snapshots(outcomes), EscapingScheme.ALLOW_UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> failures = new ArrayList<>();
        for (Scrape.Outcome o : outcomes) {
            if (o.reading() == null) {
                failures.add(o.source() + ": " + o.failure());
            } else {
                for (String gap : o.reading().gaps()) {
                    failures.add(o.source() + ": " + gap);
                }
            }
        }
        return new Scraped(out.toString(StandardCharsets.UTF_8), failures);
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
        reads.shutdownNow();
        for (QueueSource s : sources) {
            synchronized (s) {
                s.close();
            }
        }
    }
}
