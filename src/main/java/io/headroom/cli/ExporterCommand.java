package io.headroom.cli;

import io.headroom.config.ConfigException;
import io.headroom.config.UntrustedText;
import io.headroom.exporter.Exporter;
import io.headroom.exporter.ExporterConfig;
import io.headroom.threads.NamedThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code headroom exporter --config FILE [--once]}: serves Prometheus metrics for the queues FILE names
 * (docs/signals.md), read on every scrape; with {@code --once}, prints one scrape and exits.
 */
@Command(name = "exporter", sortOptions = false, sortSynopsis = false,
        header = "serves queue length, oldest age and in-flight jobs of Redis, RabbitMQ and PostgreSQL queues to Prometheus",
        description = {"Reads FILE (see docs/signals.md) and serves /metrics at its listen address: one metric"
                + " family per signal with a queue label, read from every source on each scrape within its deadline."
                + " A source that cannot be read exports no sample and headroom_source_up 0 with the reason."
                + " --once prints one scrape and exits (1 when a source could not be read)."})
final class ExporterCommand extends CliCommand {
    @Option(names = "--config", required = true, paramLabel = "FILE", converter = InputFiles.ConfigFile.class,
            description = "the exporter's file: listen address and sources")
    Path config;

    @Option(names = "--once", description = "print one scrape and exit")
    boolean once;

    ExporterCommand() {
    }

    ExporterCommand(UnaryOperator<String> env) {
        super(env);
    }

    @Override
    int execute() {
        ExporterConfig cfg;
        try {
            cfg = ExporterConfig.read(config);
        } catch (ConfigException e) {
            err.println(e.getMessage());
            err.flush();
            return ExitCode.USAGE;
        }
        Exporter exporter = new Exporter(cfg, env, Clock.systemUTC());
        if (once) {
            try (exporter) {
                Exporter.Scraped scraped = exporter.scrapeOnce();
                out.print(scraped.text());
                out.flush();
                for (String f : scraped.failures()) {
                    err.println("headroom exporter: " + UntrustedText.line(f, 1000));
                }
                err.flush();
                return scraped.failures().isEmpty() ? ExitCode.OK : ExitCode.FAILED;
            }
        }
        int port;
        try {
            port = exporter.serve(cfg.host(), cfg.port());
        } catch (IOException e) {
            exporter.close();
            err.println("headroom exporter: cannot listen on " + cfg.host() + ":" + cfg.port() + ": "
                    + UntrustedText.line(io.headroom.ErrorWords.of(e), 300));
            return ExitCode.FAILED;
        }
        err.println("headroom exporter: serving " + cfg.sources().size() + " source"
                + (cfg.sources().size() == 1 ? "" : "s") + " at http://" + cfg.host() + ":" + port + "/metrics");
        err.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(NamedThreads.named("exporter-stop").newThread(() -> {
            exporter.close();
            stopped.countDown();
        }));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exporter.close();
        }
        return ExitCode.OK;
    }
}
