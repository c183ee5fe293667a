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
import java.util.function.DoubleSupplier;

/**
 * A tiny Prometheus exporter on loopback with known values: gauges the test sets, and counters that
 * grow at an exact rate with wall time (so {@code rate()} has a known answer). Text format 0.0.4.
 */
public final class TestExporter implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "test-exporter");
        t.setDaemon(true);
        return t;
    });
    private final long startNanos = System.nanoTime();
    /** "name{labels}" → value at scrape time; sorted so families stay together. */
    private final Map<String, DoubleSupplier> series = new ConcurrentSkipListMap<>();
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
    public void gauge(String name, String labels, double value) {
        series.put(key(name, labels), () -> value);
    }

    /**
     * A gauge exposed with an explicit sample time, as remote-written, pushed or federated series
     * are: Prometheus keeps showing it for its lookback after updates stop, with no staleness marker.
     */
    public void gaugeAt(String name, String labels, double value, java.time.Instant sampledAt) {
        series.put(key(name, labels), () -> value);
        timestamps.put(key(name, labels), sampledAt.toEpochMilli());
    }

    /** A counter that is {@code start + perSecond × seconds since the exporter started} at every scrape. */
    public void counter(String name, String labels, double start, double perSecond) {
        series.put(key(name, labels), () -> start + perSecond * seconds());
    }

    /**
     * A histogram's sum and count growing at exact rates, so {@code rate(sum)/rate(count)} is
     * {@code sumPerSecond / countPerSecond}.
     */
    public void histogram(String name, String labels, double countPerSecond, double sumPerSecond) {
        counter(name + "_count", labels, 1000, countPerSecond);
        counter(name + "_sum", labels, 1000 * sumPerSecond / countPerSecond, sumPerSecond);
    }

    private double seconds() {
        Double at = renderedAt.get();
        return at != null ? at : (System.nanoTime() - startNanos) / 1e9;
    }

    /** While a scrape renders: the one instant every counter of it is read at (however many series come first). */
    private final ThreadLocal<Double> renderedAt = new ThreadLocal<>();

    private static String key(String name, String labels) {
        return labels == null || labels.isEmpty() ? name : name + "{" + labels + "}";
    }

    String render() {
        renderedAt.set((System.nanoTime() - startNanos) / 1e9);
        try {
            return renderAll();
        } finally {
            renderedAt.remove();
        }
    }

    private String renderAll() {
        StringBuilder sb = new StringBuilder(series.size() * 48);
        for (Map.Entry<String, DoubleSupplier> e : series.entrySet()) {
            sb.append(e.getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.6f", e.getValue().getAsDouble()));
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
