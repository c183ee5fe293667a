package io.headroom.prometheus;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A loopback HTTP server that answers the Prometheus API the way a test tells it to, for the
 * answers a real Prometheus cannot be made to give (500s, garbage, hangs, the partial answers of
 * Thanos or Mimir). Records each request. Public for the CLI and console tests that need such answers.
 */
public final class StubPrometheus implements AutoCloseable {

    /** One request as the server saw it: method, path, parameters (from the URL or a form body), headers. */
    public record Seen(String method, String path, Map<String, String> params, String authorization) {
    }

    /** An answer; {@code hang} makes the handler wait until {@link #close()} (a query that never returns). */
    public record Answer(int status, String body, boolean hang) {
        public static Answer json(String body) {
            return new Answer(200, body, false);
        }

        public static Answer status(int status, String body) {
            return new Answer(status, body, false);
        }

        public static Answer hanging() {
            return new Answer(200, "", true);
        }

        public static Answer vector(String value) {
            return json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                    + "\"value\":[1767225600.5,\"" + value + "\"]}]}}");
        }
    }

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final CountDownLatch released = new CountDownLatch(1);
    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private volatile Function<Seen, Answer> responder;

    public StubPrometheus(Function<Seen, Answer> responder) throws IOException {
        this.responder = responder;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * A responder answering each PromQL text with {@code answer}, and the per-class sample-time queries
     * ({@link SampleTimes#KEY}) with no series, so every value keeps its own sample time.
     */
    public static Function<Seen, Answer> byQuery(Function<String, Answer> answer) {
        return s -> {
            String q = s.params().getOrDefault("query", "");
            return q.contains(SampleTimes.KEY)
                    ? Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}")
                    : answer.apply(q);
        };
    }

    /** This machine's time as Prometheus writes a sample's: epoch seconds with milliseconds. */
    public static String nowSeconds() {
        return String.format(java.util.Locale.ROOT, "%.3f", System.currentTimeMillis() / 1000.0);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    public List<Seen> seen() {
        return List.copyOf(seen);
    }

    public void respond(Function<Seen, Answer> r) {
        responder = r;
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            Map<String, String> params = new LinkedHashMap<>();
            parse(ex.getRequestURI().getRawQuery(), params);
            if ("POST".equals(ex.getRequestMethod())) {
                parse(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), params);
            }
            Seen s = new Seen(ex.getRequestMethod(), ex.getRequestURI().getPath(), params,
                    ex.getRequestHeaders().getFirst("Authorization"));
            seen.add(s);
            Answer a = responder.apply(s);
            if (a.hang()) {
                released.await(60, TimeUnit.SECONDS);
                return;
            }
            byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void parse(String raw, Map<String, String> into) {
        if (raw == null || raw.isEmpty()) {
            return;
        }
        for (String kv : raw.split("&")) {
            int eq = kv.indexOf('=');
            String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
            String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            into.put(k, v);
        }
    }

    @Override
    public void close() {
        released.countDown();
        server.stop(0);
        pool.shutdownNow();
    }
}
