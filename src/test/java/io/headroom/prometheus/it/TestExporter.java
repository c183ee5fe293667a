package io.headroom.prometheus.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.function.DoubleUnaryOperator;

/**
 * A tiny Prometheus exporter on loopback with known values: gauges the test sets, and counters that
 * grow at an exact rate with wall time (so {@code rate()} has a known answer). Text format 0.0.4.
 * The same series can also be read at any wall-clock instant ({@link #snapshot()}), which is how the
 * integration tests' shared Prometheus gets them: remote-written on a fixed grid (see {@link SharedPrometheus}).
 */
public final class TestExporter implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "test-exporter");
        t.setDaemon(true);
        return t;
    });
    private final long startNanos = System.nanoTime();
    /** The wall-clock instant (epoch ms) that {@link #startNanos} stands for: a counter's time zero. */
    private final long startMillis = System.currentTimeMillis();
    /** "name{labels}" → value at a time (seconds since the exporter started); sorted so families stay together. */
    private final Map<String, DoubleUnaryOperator> series = new ConcurrentSkipListMap<>();
    /** Explicit sample times (epoch ms) of the series that carry one. */
    private final Map<String, Long> timestamps = new java.util.concurrent.ConcurrentHashMap<>();

    public TestExporter() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/metrics", ex -> {
            try (ex) {
                byte[] body = render().getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            }
        });
        server.start();
    }

    /** host:port for a scrape target. */
    public String target() {
        return "127.0.0.1:" + server.getAddress().getPort();
    }

    /** Sets a gauge, e.g. {@code gauge("hr_queue_length", "class=\"a\"", 30)}. */
    public synchronized void gauge(String name, String labels, double value) {
        timestamps.remove(key(name, labels));
        series.put(key(name, labels), t -> value);
    }

    /**
     * A gauge exposed with an explicit sample time, as remote-written, pushed or federated series
     * are: Prometheus keeps showing it for its lookback after updates stop, with no staleness marker.
     */
    public synchronized void gaugeAt(String name, String labels, double value, java.time.Instant sampledAt) {
        timestamps.put(key(name, labels), sampledAt.toEpochMilli());
        series.put(key(name, labels), t -> value);
    }

    /** A counter that is {@code start + perSecond × seconds since the exporter started} at every scrape. */
    public synchronized void counter(String name, String labels, double start, double perSecond) {
        timestamps.remove(key(name, labels));
        series.put(key(name, labels), t -> start + perSecond * t);
    }

    /**
     * A histogram's sum and count growing at exact rates, so {@code rate(sum)/rate(count)} is
     * {@code sumPerSecond / countPerSecond}.
     */
    public void histogram(String name, String labels, double countPerSecond, double sumPerSecond) {
        counter(name + "_count", labels, 1000, countPerSecond);
        counter(name + "_sum", labels, 1000 * sumPerSecond / countPerSecond, sumPerSecond);
    }

    /**
     * One series: its metric name and label text, its value at a wall-clock instant, and its own sample
     * time (epoch ms) if it carries one ({@link #gaugeAt}), else -1.
     */
    public record Series(String key, String name, String labels, DoubleUnaryOperator valueAtSeconds, long ownTime,
                         long startMillis) {
        /** The value at {@code epochMillis} (a counter's is exact for that instant). */
        public double valueAt(long epochMillis) {
            return valueAtSeconds.applyAsDouble((epochMillis - startMillis) / 1000.0);
        }
    }

    /** Every series as it is now, in name order. */
    public synchronized java.util.List<Series> snapshot() {
        java.util.List<Series> out = new java.util.ArrayList<>(series.size());
        for (Map.Entry<String, DoubleUnaryOperator> e : series.entrySet()) {
            String k = e.getKey();
            int brace = k.indexOf('{');
            Long own = timestamps.get(k);
            out.add(new Series(k, brace < 0 ? k : k.substring(0, brace),
                    brace < 0 ? "" : k.substring(brace + 1, k.length() - 1), e.getValue(),
                    own == null ? -1 : own, startMillis));
        }
        return out;
    }

    private static String key(String name, String labels) {
        return labels == null || labels.isEmpty() ? name : name + "{" + labels + "}";
    }

    /** The text a scrape gets: every counter read at the one instant the scrape came. */
    String render() {
        double now = (System.nanoTime() - startNanos) / 1e9;
        StringBuilder sb = new StringBuilder(series.size() * 48);
        for (Map.Entry<String, DoubleUnaryOperator> e : series.entrySet()) {
            sb.append(e.getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.6f", e.getValue().applyAsDouble(now)));
            Long at = timestamps.get(e.getKey());
            if (at != null) {
                sb.append(' ').append(at);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}
