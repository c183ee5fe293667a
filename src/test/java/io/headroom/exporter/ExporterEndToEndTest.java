package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.headroom.cli.Cli;
import io.headroom.config.PrometheusEndpoint;
import io.headroom.exporter.ExporterConfig.RedisFormat;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.QueryOutcome;
import io.headroom.prometheus.it.Await;
import io.headroom.prometheus.it.TestPrometheus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * From the user's queue to a decision: RQ jobs enqueued into the real Redis, the exporter scraped by the real
 * Prometheus of the integration tests, and {@code headroom plan --once --json} deciding from its grouped
 * signals with the length and the oldest age right.
 */
class ExporterEndToEndTest {

    @Test
    void planDecidesFromTheExportersOldestAgeAndLength(@TempDir Path dir) throws Exception {
        TestRedis redis = TestRedis.shared();
        String q = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
        Instant enqueued = Instant.now().minusSeconds(45);
        try (Jedis j = redis.client()) {
            RedisSourceIntegrationTest.enqueueRq(j, q, enqueued);
            for (int i = 0; i < 3; i++) {
                RedisSourceIntegrationTest.enqueueRq(j, q, Instant.now());
            }
        }
        ExporterConfig cfg = new ExporterConfig("127.0.0.1", 0, List.of(RedisSourceIntegrationTest.config("rq",
                redis.port(), RedisFormat.RQ, List.of(q, "other"), null)));
        try (Exporter exporter = new Exporter(cfg, k -> null, Clock.systemUTC())) {
            int port = exporter.serve("127.0.0.1", 0);
            String served = get(URI.create("http://127.0.0.1:" + port + "/metrics"));
            assertTrue(served.contains("headroom_queue_length{queue=\"" + q + "\",source=\"rq\"} 4"), served);
            try (TestPrometheus prometheus = TestPrometheus.start(List.of("127.0.0.1:" + port));
                 PrometheusClient c = PrometheusClient.connect(PrometheusEndpoint.of(prometheus.url()), k -> null,
                         Clock.systemUTC())) {
                Await.until("Prometheus's first scrape of the exporter", Duration.ofSeconds(20),
                        () -> c.query("max(headroom_queue_length{queue=\"" + q + "\"})"),
                        o -> o instanceof QueryOutcome.Value);
                Path workloads = dir.resolve("workloads.yaml");
                Files.writeString(workloads, """
                        prometheus:
                          url: %s
                          timeoutSeconds: 3
                        classes:
                          - name: mail
                            context: test
                            target: {name: mail-worker}
                            signals:
                              queueLength: {grouped: "sum by (queue) (headroom_queue_length)", by: queue, value: %s}
                              oldestAge: {grouped: "max by (queue) (headroom_queue_oldest_age_seconds)", by: queue, value: %s}
                              inFlight: {grouped: "sum by (queue) (headroom_queue_in_flight)", by: queue, value: %s}
                              arrivalRate: "0.1"
                              meanService: "8"
                        """.formatted(prometheus.url(), q, q, q));
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                int code = Cli.run(new String[] {"plan", "--config", workloads.toString(), "--once", "--json",
                    "--replicas", "mail=2"},
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
                Instant planned = Instant.now();
                String text = out.toString(StandardCharsets.UTF_8);
                assertEquals(0, code, err.toString(StandardCharsets.UTF_8) + text);
                JsonNode plan = new ObjectMapper().readTree(text.lines().findFirst().orElseThrow());
                JsonNode in = plan.get("inputs");
                assertEquals(4.0, in.get("queueLength").get("value").asDouble(0.0), "length exact: " + in);
                assertEquals(0.0, in.get("inFlight").get("value").asDouble(0.0), in.toString());
                double age = in.get("oldestAge").get("value").asDouble(0.0);
                double truth = Duration.between(enqueued, planned).toNanos() / 1e9;
                // Scraped every second: the age Prometheus holds is at most one interval (and the plan's run) old.
                assertTrue(age <= truth && age >= truth - 2.0, "oldest age " + age + " s, truth " + truth + " s");
            }
        }
    }

    static String get(URI url) throws Exception {
        HttpURLConnection c = (HttpURLConnection) url.toURL().openConnection();
        c.setConnectTimeout(2000);
        c.setReadTimeout(5000);
        try {
            assertEquals(200, c.getResponseCode());
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } finally {
            c.disconnect();
        }
    }
}
