package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import io.headroom.exporter.ExporterConfig.RabbitMqConfig;
import io.headroom.exporter.Sample.Family;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The RabbitMQ source against Debian's real rabbitmq-server, messages published at known times. */
class RabbitMqSourceIntegrationTest {
    static TestRabbitMq rabbit;

    @BeforeAll
    static void start() throws Exception {
        rabbit = TestRabbitMq.shared();
    }

    static RabbitMqConfig config(String name, int port, List<String> queues, String header) {
        return new RabbitMqConfig(name, Duration.ofSeconds(2), "127.0.0.1", port, "/", "guest", null, queues, true,
                header);
    }

    static void publish(Channel ch, String q, String body, AMQP.BasicProperties props) throws Exception {
        ch.basicPublish("", q, props, body.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readyCountIsExactAndTheOldestAgeIsTheHeadsTimestampWhichStaysAtTheHead() throws Exception {
        String q = "mail-" + UUID.randomUUID();
        String stamped = "stamped-" + UUID.randomUUID();
        Instant enqueued = Instant.now().minusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
            ch.queueDeclare(q, false, false, false, null);
            ch.queueDeclare(stamped, false, false, false, null);
            publish(ch, q, "first", new AMQP.BasicProperties.Builder().timestamp(Date.from(enqueued)).build());
            publish(ch, q, "second", new AMQP.BasicProperties.Builder().timestamp(new Date()).build());
            publish(ch, q, "third", new AMQP.BasicProperties());
            publish(ch, stamped, "x", new AMQP.BasicProperties.Builder().headers(Map.of("enqueued_ms",
                    enqueued.toEpochMilli() - 5000)).build());
            ch.confirmSelect();
            ch.waitForConfirms(5000);
        }
        Awaited.messages(rabbit, q, 3);
        try (RabbitMqSource s = new RabbitMqSource(config("rabbit", rabbit.port(), List.of(q), null), k -> null);
             RabbitMqSource h = new RabbitMqSource(config("rabbit", rabbit.port(), List.of(stamped), "enqueued_ms"),
                     k -> null)) {
            Instant now = Instant.now();
            QueueSource.Reading r = s.read(now);
            assertEquals(3.0, RedisSourceIntegrationTest.values(r, Family.LENGTH).get(q), "ready count exact");
            assertEquals(Duration.between(enqueued, now).toNanos() / 1e9,
                    RedisSourceIntegrationTest.values(r, Family.OLDEST_AGE).get(q), 0.001, "the timestamp property");
            assertEquals(0.0, RedisSourceIntegrationTest.values(r, Family.JOBS).get(q + "/consumers"));
            assertEquals(Duration.between(enqueued.minusSeconds(5), now).toNanos() / 1e9,
                    RedisSourceIntegrationTest.values(h.read(now), Family.OLDEST_AGE).get(stamped), 0.001,
                    "the named header");
        }
        try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
            GetResponse head = ch.basicGet(q, true);
            assertEquals("first", new String(head.getBody(), StandardCharsets.UTF_8), "the peek put the head back");
            assertEquals(2, head.getMessageCount(), "and lost nothing");
        }
    }

    @Test
    void aStoppedServerExportsNoSampleAndSaysWhy() throws Exception {
        String q = "gone-" + UUID.randomUUID();
        try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
            ch.queueDeclare(q, false, false, false, null);
        }
        int closed = LocalServer.freePort();
        ExporterConfig cfg = new ExporterConfig("127.0.0.1", 0, List.of(config("gone", closed, List.of(q), null)));
        try (Exporter e = new Exporter(cfg, k -> null, Clock.systemUTC())) {
            Exporter.Scraped s = e.scrapeOnce();
            assertFalse(s.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + s.text());
            assertTrue(s.text().contains("headroom_source_up{source=\"gone\"} 0.0"), s.text());
            assertFalse(s.failures().get(0).contains("Exception"), "in words: " + s.failures());
        }
        ExporterConfig missing = new ExporterConfig("127.0.0.1", 0, List.of(config("r", rabbit.port(),
                List.of("no-such-queue-" + UUID.randomUUID()), null)));
        try (Exporter e = new Exporter(missing, k -> null, Clock.systemUTC())) {
            Exporter.Scraped s = e.scrapeOnce();
            assertFalse(s.text().contains("headroom_queue_length{"), s.text());
            assertTrue(s.failures().get(0).contains("no-such-queue"), s.failures().toString());
        }
    }

    @Test
    void aBrokerKilledMidRunExportsNoSampleAndSaysWhy() throws Exception {
        String q = "killed-" + UUID.randomUUID();
        try (TestRabbitMq own = TestRabbitMq.start()) {
            try (Connection c = own.connect(); Channel ch = c.createChannel()) {
                ch.queueDeclare(q, true, false, false, null);
                publish(ch, q, "x", new AMQP.BasicProperties.Builder().timestamp(new Date()).build());
            }
            Awaited.messages(own, q, 1);
            ExporterConfig cfg = new ExporterConfig("127.0.0.1", 0, List.of(config("own", own.port(), List.of(q),
                    null)));
            try (Exporter e = new Exporter(cfg, k -> null, Clock.systemUTC())) {
                Exporter.Scraped before = e.scrapeOnce();
                assertTrue(before.text().contains("headroom_queue_length{queue=\"" + q + "\",source=\"own\"} 1.0"),
                        before.text());
                own.server.stop(); // the exporter's connection is open: the broker dies under it
                Exporter.Scraped after = e.scrapeOnce();
                assertFalse(after.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + after.text());
                assertTrue(after.text().contains("headroom_source_up{source=\"own\"} 0.0"), after.text());
                assertTrue(after.failures().get(0).startsWith("own: rabbitmq at 127.0.0.1:" + own.port() + ": "),
                        after.failures().toString());
                assertFalse(after.failures().get(0).contains("Exception"), "in words: " + after.failures());
            }
        }
    }

    /** Waits until the broker counts the published messages (publishing is asynchronous). */
    static final class Awaited {
        static void messages(TestRabbitMq rabbit, String q, int n) {
            io.headroom.prometheus.it.Await.until(n + " messages in " + q, Duration.ofSeconds(10), () -> {
                try (Connection c = rabbit.connect(); Channel ch = c.createChannel()) {
                    return ch.queueDeclarePassive(q).getMessageCount();
                } catch (Exception e) {
                    return -1;
                }
            }, count -> count == n);
        }
    }
}
