package io.headroom.ui;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/** A Prometheus on loopback that answers every instant query with 1 and every range query with nothing. */
final class AnsweringPrometheus {
    private AnsweringPrometheus() {
    }

    /** Started; stop it with {@code stop(0)}. */
    static HttpServer start() throws IOException {
        HttpServer prometheus = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        prometheus.createContext("/", ex -> {
            try (ex) {
                String body = ex.getRequestURI().getPath().endsWith("query_range")
                        ? "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"
                        : "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                        + "\"value\":[" + System.currentTimeMillis() / 1000.0 + ",\"1\"]}]}}";
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, b.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(b);
                }
            }
        });
        prometheus.start();
        return prometheus;
    }

    /** One class {@code orders} (context {@code up}, Deployment {@code shop/orders}), polled every second, at most 20 replicas. */
    static String workloads(HttpServer prometheus) {
        return """
                prometheus: {url: "http://127.0.0.1:%d", timeoutSeconds: 2}
                classes:
                  - name: orders
                    context: up
                    namespace: shop
                    target: {kind: Deployment, name: orders}
                    signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                    policy:
                      pollIntervalSeconds: 1
                      maxReplicas: 20   # the team's cap
                """.formatted(prometheus.getAddress().getPort());
    }
}
