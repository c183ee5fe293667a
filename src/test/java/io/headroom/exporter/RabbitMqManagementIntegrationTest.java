package io.headroom.exporter;

import static io.headroom.exporter.RedisSourceIntegrationTest.values;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import io.headroom.config.SecretRef;
import io.headroom.exporter.ExporterConfig.RabbitMqConfig;
import io.headroom.exporter.ExporterConfig.RabbitMqManagement;
import io.headroom.exporter.Sample.Family;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The RabbitMQ source's unacknowledged counts from the management API of Debian's real rabbitmq-server (the
 * shared test broker runs the management plugin on a free loopback port): messages delivered and not acked on
 * an open channel are counted exactly; an API that cannot be read leaves the AMQP figures exported.
 */
class RabbitMqManagementIntegrationTest {
    static TestRabbitMq rabbit;

    @BeforeAll
    static void start() throws Exception {
        rabbit = TestRabbitMq.shared();
    }

    static RabbitMqConfig config(String name, List<String> queues, RabbitMqManagement management) {
        return new RabbitMqConfig(name, Duration.ofSeconds(2), "127.0.0.1", rabbit.port(), "/", "guest", null, queues,
                true, null, management);
    }

    static RabbitMqManagement api(String url, SecretRef password) {
        return new RabbitMqManagement(URI.create(url), "guest", password);
    }

    @Test
    void theUnackedCountIsTheMessagesDeliveredAndNotAckedExactly() throws Exception {
        String busy = "busy-" + UUID.randomUUID();
        String idle = "idle-" + UUID.randomUUID();
        try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
            ch.queueDeclare(busy, false, false, false, null);
            ch.queueDeclare(idle, false, false, false, null);
            for (int i = 0; i < 5; i++) {
                ch.basicPublish("", busy, new AMQP.BasicProperties.Builder().timestamp(new java.util.Date()).build(),
                        ("job " + i).getBytes(StandardCharsets.UTF_8));
            }
            RabbitMqSourceIntegrationTest.Awaited.messages(rabbit, busy, 5);
            for (int i = 0; i < 3; i++) {
                assertTrue(ch.basicGet(busy, false) != null, "delivered, not acked: held by this open channel");
            }
            awaitApi(busy, 3);
            awaitApi(idle, 0);
            try (RabbitMqSource s = new RabbitMqSource(config("rabbit", List.of(busy, idle),
                    api(rabbit.managementUrl(), null)), k -> null)) {
                QueueSource.Reading r = s.read(Instant.now());
                assertEquals(Map.of(busy, 3.0, idle, 0.0), values(r, Family.IN_FLIGHT), "in flight: unacked, exact");
                assertEquals(3.0, values(r, Family.JOBS).get(busy + "/unacked"));
                assertEquals(0.0, values(r, Family.JOBS).get(idle + "/unacked"));
                assertEquals(2.0, values(r, Family.LENGTH).get(busy), "the ready count beside it");
                assertEquals(List.of(), r.gaps());
            }
            try (RabbitMqSource s = new RabbitMqSource(config("rabbit", List.of(busy), null), k -> null)) {
                QueueSource.Reading r = s.read(Instant.now());
                assertEquals(Map.of(), values(r, Family.IN_FLIGHT), "no management block: no unacked, never 0");
                assertFalse(values(r, Family.JOBS).containsKey(busy + "/unacked"));
                assertEquals(List.of(), r.gaps());
            }
        }
    }

    @Test
    void anApiThatCannotBeReadExportsNoUnackedSampleAndSaysWhyWhileReadyAndConsumersStillCome() throws Exception {
        // One queue per source: the two sources are read at once, and one's peek at the head (a get, then a
        // requeue) would hide the message from the other's count for that moment.
        java.util.Map<String, String> queueOf = new java.util.LinkedHashMap<>();
        for (String source : List.of("down", "refused")) {
            String q = "orders-" + source + "-" + UUID.randomUUID();
            queueOf.put(source, q);
            try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
                ch.queueDeclare(q, false, false, false, null);
                ch.basicPublish("", q, new AMQP.BasicProperties(), "x".getBytes(StandardCharsets.UTF_8));
            }
            RabbitMqSourceIntegrationTest.Awaited.messages(rabbit, q, 1);
        }
        int closed = LocalServer.freePort();
        ExporterConfig cfg = new ExporterConfig("127.0.0.1", 0, List.of(
                config("down", List.of(queueOf.get("down")), api("http://127.0.0.1:" + closed, null)),
                config("refused", List.of(queueOf.get("refused")), api(rabbit.managementUrl(), SecretRef.env("WRONG")))));
        try (Exporter e = new Exporter(cfg, k -> "WRONG".equals(k) ? "not-the-password" : null, Clock.systemUTC())) {
            Exporter.Scraped s = e.scrapeOnce();
            for (String source : List.of("down", "refused")) {
                String labels = "{queue=\"" + queueOf.get(source) + "\",source=\"" + source + "\"";
                assertTrue(s.text().contains("headroom_queue_length" + labels + "} 1.0"), s.text());
                assertTrue(s.text().contains("headroom_queue_jobs" + labels + ",state=\"consumers\"} 0.0"), s.text());
                assertTrue(s.text().contains("headroom_source_up{source=\"" + source + "\"} 1.0"), s.text());
            }
            assertFalse(s.text().contains("headroom_queue_in_flight{"), "no unacked sample, never 0:\n" + s.text());
            assertFalse(s.text().contains("state=\"unacked\""), s.text());
            assertTrue(s.text().contains("headroom_source_error{reason=\"rabbitmq management at http://127.0.0.1:"
                    + closed + ": connection refused; no unacked counts\",source=\"down\"} 1.0"), s.text());
            assertTrue(s.text().contains("headroom_source_error{reason=\"rabbitmq management at "
                    + rabbit.managementUrl() + ": HTTP 401: the username or password was refused, or the user has no"
                    + " management tag; no unacked counts\",source=\"refused\"} 1.0"), s.text());
            assertEquals(2, s.failures().size(), s.failures().toString());
            assertFalse(s.failures().toString().contains("not-the-password"), "never the password");
        }
    }

    /** Waits until the management API itself (not the source) lists the queue with this unacked count. */
    static void awaitApi(String q, long unacked) {
        HttpClient http = HttpClient.newHttpClient();
        String auth = "Basic " + Base64.getEncoder().encodeToString("guest:guest".getBytes(StandardCharsets.UTF_8));
        Pattern figure = Pattern.compile("\"messages_unacknowledged\":(\\d+)");
        io.headroom.prometheus.it.Await.until(q + " listed with " + unacked + " unacked", Duration.ofSeconds(20), () -> {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(rabbit.managementUrl()
                        + "/api/queues/%2F/" + q)).header("Authorization", auth).build(),
                        HttpResponse.BodyHandlers.ofString());
                Matcher m = figure.matcher(r.body());
                return m.find() ? Long.parseLong(m.group(1)) : -1L;
            } catch (Exception e) {
                return -2L;
            }
        }, n -> n == unacked);
    }
}
