package io.headroom.exporter;

import io.headroom.ErrorWords;
import io.headroom.exporter.Sample.Family;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What one scrape of the exporter serves: every source read now, side by side, each within its deadline.
 * A source that cannot be read exports no sample (never a 0 that would read as an empty queue), and
 * {@code headroom_source_up{source}} 0 with {@code headroom_source_error{source,reason}} saying why. A part
 * read apart that failed (RabbitMQ's management API) has its samples missing and its own reason, the source up.
 */
public final class Scrape implements MultiCollector {
    /** Waited beyond a source's own deadline (its client's timeouts) before the scrape gives up on it. */
    static final Duration GRACE = Duration.ofMillis(500);

    /** A source and its deadline. */
    record Timed(QueueSource source, Duration timeout) {
    }

    /** One source's outcome: its reading, or the reason it has none. */
    record Outcome(String source, QueueSource.Reading reading, String failure, double seconds) {
    }

    private final List<Timed> sources;
    private final ExecutorService reads;
    private final Clock clock;

    Scrape(List<Timed> sources, ExecutorService reads, Clock clock) {
        this.sources = List.copyOf(sources);
        this.reads = reads;
        this.clock = clock;
    }

    /** Reads every source now, in parallel, each within its deadline. */
    List<Outcome> readAll() {
        List<Future<Outcome>> futures = new ArrayList<>(sources.size());
        for (Timed t : sources) {
            futures.add(reads.submit(() -> readOne(t.source())));
        }
        List<Outcome> out = new ArrayList<>(sources.size());
        long start = System.nanoTime();
        for (int i = 0; i < sources.size(); i++) {
            Timed t = sources.get(i);
            long left = t.timeout().plus(GRACE).toNanos() - (System.nanoTime() - start);
            try {
                out.add(futures.get(i).get(Math.max(0, left), TimeUnit.NANOSECONDS));
            } catch (TimeoutException e) {
                futures.get(i).cancel(true);
                out.add(new Outcome(t.source().name(), null, t.source().address() + ": no answer within "
                        + seconds(t.timeout()),
                        (System.nanoTime() - start) / 1e9));
            } catch (ExecutionException e) {
                out.add(new Outcome(t.source().name(), null, failure(t.source(), e.getCause()), 0));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.add(new Outcome(t.source().name(), null, "the scrape was interrupted", 0));
            }
        }
        return out;
    }

    private Outcome readOne(QueueSource s) {
        // One read of a source at a time: a scrape that overlaps a slow one waits for it (within its deadline).
        synchronized (s) {
            long t0 = System.nanoTime();
            try {
                QueueSource.Reading r = s.read(clock.instant());
                return new Outcome(s.name(), r, null, (System.nanoTime() - t0) / 1e9);
            } catch (Exception | LinkageError e) {
                return new Outcome(s.name(), null, failure(s, e), (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    /** A failure in words, after the system and its address ({@code redis at 127.0.0.1:1: connection refused}). */
    static String failure(QueueSource s, Throwable e) {
        String words = ErrorWords.of(e);
        return words.startsWith(s.address()) ? words : s.address() + ": " + words;
    }

    private static String seconds(Duration d) {
        return io.headroom.config.Fields.plain(d.toMillis() / 1000.0) + " s";
    }

    @Override
    public MetricSnapshots collect() {
        return snapshots(readAll());
    }

    @Override
    public List<String> getPrometheusNames() {
        List<String> names = new ArrayList<>();
        for (Family f : Family.values()) {
            names.add(f.metric());
        }
        names.addAll(List.of(UP, ERROR, READ_SECONDS, QUERIES));
        return names;
    }

    static final String UP = "headroom_source_up";
    static final String ERROR = "headroom_source_error";
    static final String READ_SECONDS = "headroom_source_read_seconds";
    static final String QUERIES = "headroom_source_queries";

    /** The metric families of these outcomes: one per signal, labelled {@code source} and {@code queue}. */
    static MetricSnapshots snapshots(List<Outcome> outcomes) {
        Map<Family, Map<Labels, Double>> families = new EnumMap<>(Family.class);
        Map<String, Map<Labels, Double>> health = new LinkedHashMap<>();
        for (String h : List.of(UP, ERROR, READ_SECONDS, QUERIES)) {
            health.put(h, new LinkedHashMap<>());
        }
        for (Outcome o : outcomes) {
            Labels source = Labels.of("source", o.source());
            health.get(UP).put(source, o.reading() == null ? 0.0 : 1.0);
            health.get(READ_SECONDS).put(source, o.seconds());
            if (o.reading() == null) {
                health.get(ERROR).put(Labels.of("source", o.source(), "reason", o.failure()), 1.0);
                continue;
            }
            health.get(QUERIES).put(source, (double) o.reading().queries());
            for (String gap : o.reading().gaps()) {
                health.get(ERROR).put(Labels.of("source", o.source(), "reason", gap), 1.0);
            }
            for (Sample s : o.reading().samples()) {
                Labels l = s.family() == Family.JOBS ? Labels.of("queue", s.queue(), "source", o.source(), "state",
                        s.state()) : Labels.of("queue", s.queue(), "source", o.source());
                families.computeIfAbsent(s.family(), k -> new LinkedHashMap<>()).merge(l, s.value(), Double::sum);
            }
        }
        List<MetricSnapshot> out = new ArrayList<>();
        for (Map.Entry<Family, Map<Labels, Double>> e : families.entrySet()) {
            out.add(gauge(e.getKey().metric(), e.getKey().help(), e.getValue()));
        }
        out.add(gauge(UP, "1 when the source was read in this scrape, 0 when it could not be", health.get(UP)));
        if (!health.get(ERROR).isEmpty()) {
            out.add(gauge(ERROR, "why a source, or a part of it, could not be read (1 while it cannot)", health.get(ERROR)));
        }
        out.add(gauge(READ_SECONDS, "how long reading the source took in this scrape", health.get(READ_SECONDS)));
        out.add(gauge(QUERIES, "commands or statements sent to the source in this scrape", health.get(QUERIES)));
        return new MetricSnapshots(out);
    }

    private static MetricSnapshot gauge(String name, String help, Map<Labels, Double> points) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        for (Map.Entry<Labels, Double> p : points.entrySet()) {
            b.dataPoint(GaugeDataPointSnapshot.builder().labels(p.getKey()).value(p.getValue()).build());
        }
        return b.build();
    }
}
