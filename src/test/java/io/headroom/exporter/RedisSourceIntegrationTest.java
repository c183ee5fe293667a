package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.exporter.ExporterConfig.RedisConfig;
import io.headroom.exporter.ExporterConfig.RedisFormat;
import io.headroom.exporter.Sample.Family;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/** The Redis source against Debian's real redis-server, jobs enqueued at known times. */
class RedisSourceIntegrationTest {
    static TestRedis redis;

    @BeforeAll
    static void start() throws Exception {
        redis = TestRedis.shared();
    }

    static RedisConfig config(String name, int port, RedisFormat format, List<String> queues, String field) {
        return new RedisConfig(name, Duration.ofSeconds(1), "127.0.0.1", port, 0, null, null, format, queues, field);
    }

    static Map<String, Double> values(QueueSource.Reading r, Family f) {
        Map<String, Double> out = new java.util.TreeMap<>();
        r.samples().stream().filter(s -> s.family() == f)
                .forEach(s -> out.put(s.queue() + (s.state().isEmpty() ? "" : "/" + s.state()), s.value()));
        return out;
    }

    /** An RQ job as RQ writes it: the hash with its enqueued_at (RQ's utcformat), its id pushed on the right. */
    static void enqueueRq(Jedis j, String queue, Instant at) {
        String id = UUID.randomUUID().toString();
        j.hset("rq:job:" + id, Map.of("enqueued_at", at.toString().replace("Z", "") + "Z", "origin", queue,
                "status", "queued"));
        j.rpush("rq:queue:" + queue, id);
    }

    @Test
    void rqLengthIsExactAndTheOldestAgeIsTheHeadJobsEnqueueTime() throws Exception {
        String q = "rq-" + UUID.randomUUID();
        Instant now = Instant.now();
        try (Jedis j = redis.client()) {
            enqueueRq(j, q, now.minusMillis(30_250));
            enqueueRq(j, q, now.minusSeconds(20));
            enqueueRq(j, q, now.minusSeconds(10));
            j.zadd("rq:wip:" + q, 1, "a");
            j.zadd("rq:wip:" + q, 2, "b");
            j.zadd("rq:finished:" + q, 1, "c");
        }
        String empty = "rq-empty-" + UUID.randomUUID();
        try (RedisSource s = new RedisSource(config("rq", redis.port(), RedisFormat.RQ, List.of(q, empty), null),
                k -> null)) {
            Instant readAt = Instant.now();
            QueueSource.Reading r = s.read(readAt);
            assertEquals(3.0, values(r, Family.LENGTH).get(q), "length is exact");
            assertEquals(0.0, values(r, Family.LENGTH).get(empty), "an empty queue is 0: it was read");
            double truth = Duration.between(now.minusMillis(30_250), readAt).toNanos() / 1e9;
            assertEquals(truth, values(r, Family.OLDEST_AGE).get(q), 0.001, "the head job's enqueued_at");
            assertEquals(0.0, values(r, Family.OLDEST_AGE).get(empty));
            assertEquals(2.0, values(r, Family.IN_FLIGHT).get(q), "StartedJobRegistry (rq:wip)");
            Map<String, Double> jobs = values(r, Family.JOBS);
            assertEquals(Map.of("queued", 3.0, "started", 2.0, "finished", 1.0, "failed", 0.0), Map.of(
                    "queued", jobs.get(q + "/queued"), "started", jobs.get(q + "/started"),
                    "finished", jobs.get(q + "/finished"), "failed", jobs.get(q + "/failed")));
            // Two round trips whatever the number of queues: LLEN, LINDEX and 3 ZCARD per queue, an HGET per head.
            assertEquals(2 * 5 + 1, r.queries());
        }
    }

    @Test
    void aPlainListWithoutTimestampsAgesFromFirstSightAndResetsWhenTheHeadMoves() throws Exception {
        String q = "list-" + UUID.randomUUID();
        try (Jedis j = redis.client()) {
            j.rpush(q, "job-1", "job-2");
        }
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        try (RedisSource s = new RedisSource(config("list", redis.port(), RedisFormat.LIST, List.of(q), null),
                k -> null)) {
            assertEquals(0.0, values(s.read(t0), Family.OLDEST_AGE).get(q), "first seen now");
            assertEquals(7.5, values(s.read(t0.plusMillis(7500)), Family.OLDEST_AGE).get(q), "same head, 7.5 s on");
            try (Jedis j = redis.client()) {
                assertEquals("job-1", j.lpop(q));
            }
            QueueSource.Reading r = s.read(t0.plusSeconds(9));
            assertEquals(0.0, values(r, Family.OLDEST_AGE).get(q), "a new head is first seen now");
            assertEquals(1.0, values(r, Family.LENGTH).get(q));
        }
    }

    @Test
    void celeryListsAreReadFromTheRightWithTheTimestampField() throws Exception {
        String q = "celery-" + UUID.randomUUID();
        Instant enqueued = Instant.parse("2026-01-01T00:00:00Z");
        try (Jedis j = redis.client()) {
            // Celery LPUSHes and its workers BRPOP: the oldest message is on the right.
            j.lpush(q, "{\"headers\": {\"id\": \"1\", \"enqueued_at\": " + enqueued.getEpochSecond() + ".5}}");
            j.lpush(q, "{\"headers\": {\"id\": \"2\", \"enqueued_at\": " + (enqueued.getEpochSecond() + 40) + "}}");
        }
        try (RedisSource s = new RedisSource(config("celery", redis.port(), RedisFormat.CELERY, List.of(q),
                "headers.enqueued_at"), k -> null)) {
            QueueSource.Reading r = s.read(enqueued.plusSeconds(60));
            assertEquals(59.5, values(r, Family.OLDEST_AGE).get(q), 1e-6);
            assertEquals(2.0, values(r, Family.LENGTH).get(q));
        }
    }

    @Test
    void aStoppedServerExportsNoSampleAndSaysWhy() throws Exception {
        String q = "stopped";
        try (TestRedis own = TestRedis.start()) {
            try (Jedis j = own.client()) {
                j.rpush(q, "a", "b");
            }
            RedisConfig cfg = config("gone", own.port(), RedisFormat.LIST, List.of(q), null);
            ExporterConfig exporterConfig = new ExporterConfig("127.0.0.1", 0, List.of(cfg));
            try (Exporter e = new Exporter(exporterConfig, k -> null, Clock.systemUTC())) {
                Exporter.Scraped before = e.scrapeOnce();
                assertTrue(before.text().contains("headroom_queue_length{queue=\"stopped\",source=\"gone\"} 2.0"),
                        before.text());
                own.server.stop();
                long t0 = System.nanoTime();
                Exporter.Scraped after = e.scrapeOnce();
                double took = (System.nanoTime() - t0) / 1e9;
                assertFalse(after.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + after.text());
                assertFalse(after.text().contains("headroom_queue_oldest_age_seconds{"), after.text());
                assertTrue(after.text().contains("headroom_source_up{source=\"gone\"} 0.0"), after.text());
                assertTrue(after.text().contains("headroom_source_error{reason=\""), after.text());
                assertEquals(1, after.failures().size(), after.failures().toString());
                assertTrue(after.failures().get(0).startsWith("gone: "), after.failures().toString());
                assertFalse(after.failures().get(0).contains("Exception"), "in words: " + after.failures());
                assertTrue(took < 1 + Scrape.GRACE.toMillis() / 1000.0, "within the deadline: " + took + " s");
            }
        }
    }

    @Test
    void rqEnqueuedAtIsReadAsRqWritesIt() {
        assertEquals(Instant.parse("2024-05-01T12:00:00.123456Z"), RedisSource.instant("2024-05-01T12:00:00.123456Z"));
        assertEquals(Instant.parse("2024-05-01T12:00:00Z"), RedisSource.instant("2024-05-01T12:00:00"));
        assertNull(RedisSource.instant("yesterday"));
        assertNull(RedisSource.fieldTime("not json", "a"));
        assertEquals(Instant.ofEpochSecond(10), RedisSource.fieldTime("{\"a\":{\"b\":10}}", "a.b"));
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"), Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"),
                ZoneOffset.UTC).instant());
    }
}
