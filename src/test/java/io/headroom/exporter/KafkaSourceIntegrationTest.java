package io.headroom.exporter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.exporter.ExporterConfig.KafkaConfig;
import io.headroom.exporter.ExporterConfig.KafkaQueue;
import io.headroom.exporter.Sample.Family;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Kafka source against a real KRaft broker (Apache Kafka from Maven Central), records stamped at known times. */
class KafkaSourceIntegrationTest {
    static TestKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        kafka = TestKafka.shared();
    }

    static KafkaConfig config(String name, String bootstrap, List<String> queues) {
        return new KafkaConfig(name, Duration.ofSeconds(2), bootstrap, false, null, null, null,
                queues.stream().map(q -> new KafkaQueue(q.substring(0, q.indexOf('/')), q.substring(q.indexOf('/') + 1)))
                        .toList());
    }

    static String topic(int partitions) throws Exception {
        String t = "orders-" + UUID.randomUUID();
        try (Admin a = kafka.admin()) {
            a.createTopics(List.of(new NewTopic(t, partitions, (short) 1))).all().get();
        }
        return t;
    }

    /** Sends records to one partition, each stamped with its time (the producer sets a record's timestamp). */
    static void produce(String topic, int partition, List<Instant> stamps) throws Exception {
        try (KafkaProducer<String, String> p = new KafkaProducer<>(kafka.client())) {
            for (Instant at : stamps) {
                p.send(new ProducerRecord<>(topic, partition, at.toEpochMilli(), "k", "job at " + at)).get();
            }
        }
    }

    static void commit(String group, Map<TopicPartition, Long> offsets) {
        java.util.Properties props = kafka.client();
        props.put("group.id", group);
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(props)) {
            Map<TopicPartition, OffsetAndMetadata> m = new java.util.HashMap<>();
            offsets.forEach((tp, o) -> m.put(tp, new OffsetAndMetadata(o)));
            c.commitSync(m);
        }
    }

    static Map<TopicPartition, OffsetAndMetadata> committed(String group) throws Exception {
        try (Admin a = kafka.admin()) {
            return a.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        }
    }

    static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    @Test
    void lagIsExactAndItsAgeIsTheFirstUnconsumedRecordsTimestamp() throws Exception {
        String t = topic(3);
        Instant base = Instant.now().minusSeconds(600).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        // Partition 0: five records a minute apart, two consumed; partition 1: three, no offset committed
        // (lag from the earliest); partition 2: two, both consumed.
        produce(t, 0, List.of(base, base.plusSeconds(60), base.plusSeconds(120), base.plusSeconds(180),
                base.plusSeconds(240)));
        produce(t, 1, List.of(base.plusSeconds(30), base.plusSeconds(300), base.plusSeconds(400)));
        produce(t, 2, List.of(base.plusSeconds(10), base.plusSeconds(20)));
        commit("billing", Map.of(new TopicPartition(t, 0), 2L, new TopicPartition(t, 2), 2L));
        commit("audit", Map.of(new TopicPartition(t, 0), 5L, new TopicPartition(t, 1), 2L,
                new TopicPartition(t, 2), 2L));
        String billing = t + "/billing";
        String audit = t + "/audit";
        String fresh = t + "/never-ran";
        try (KafkaSource s = new KafkaSource(config("k", kafka.bootstrap(), List.of(billing, audit, fresh)),
                k -> null)) {
            Instant now = Instant.now();
            QueueSource.Reading r = s.read(now);
            Map<String, Double> length = RedisSourceIntegrationTest.values(r, Family.LENGTH);
            Map<String, Double> age = RedisSourceIntegrationTest.values(r, Family.OLDEST_AGE);
            Map<String, Double> jobs = RedisSourceIntegrationTest.values(r, Family.JOBS);
            assertEquals(3.0 + 3.0 + 0.0, length.get(billing), "lag in messages, exact");
            // The oldest unconsumed record: partition 1's first (base+30 s), older than partition 0's third.
            assertEquals(seconds(base.plusSeconds(30), now), age.get(billing), 0.001, "lag in seconds");
            assertEquals(1.0, length.get(audit));
            assertEquals(seconds(base.plusSeconds(400), now), age.get(audit), 0.001, "audit's one record left");
            assertEquals(10.0, length.get(fresh), "a group that never committed lags from the earliest");
            assertEquals(seconds(base, now), age.get(fresh), 0.001);
            assertEquals(10.0, jobs.get(billing + "/produced"), "end offsets summed: the arrivals so far");
            assertEquals(4.0, jobs.get(billing + "/consumed"));
            assertTrue(r.queries() > 0, "requests counted: " + r.queries());

            // Arrivals between two scrapes grow the end offsets (rate() in PromQL); a caught-up group ages 0.
            produce(t, 1, List.of(Instant.now(), Instant.now()));
            commit("audit", Map.of(new TopicPartition(t, 1), 5L));
            QueueSource.Reading r2 = s.read(Instant.now());
            assertEquals(12.0, RedisSourceIntegrationTest.values(r2, Family.JOBS).get(billing + "/produced"));
            assertEquals(8.0, RedisSourceIntegrationTest.values(r2, Family.LENGTH).get(billing));
            assertEquals(0.0, RedisSourceIntegrationTest.values(r2, Family.LENGTH).get(audit));
            assertEquals(0.0, RedisSourceIntegrationTest.values(r2, Family.OLDEST_AGE).get(audit));
        }
        assertEquals(Map.of(new TopicPartition(t, 0), new OffsetAndMetadata(2L), new TopicPartition(t, 2),
                new OffsetAndMetadata(2L)), committed("billing"), "the exporter committed nothing");
        try (Admin a = kafka.admin()) {
            assertFalse(a.listGroups().all().get().stream().anyMatch(g -> g.groupId().contains("headroom")),
                    "and joined no group");
        }
    }

    @Test
    void aMissingTopicAndAKilledBrokerExportNoSampleAndSayWhy() throws Exception {
        String t = topic(1);
        produce(t, 0, List.of(Instant.now()));
        ExporterConfig missing = new ExporterConfig("127.0.0.1", 0, List.of(config("k", kafka.bootstrap(),
                List.of("no-such-topic-" + UUID.randomUUID() + "/g"))));
        try (Exporter e = new Exporter(missing, k -> null, Clock.systemUTC())) {
            Exporter.Scraped s = e.scrapeOnce();
            assertFalse(s.text().contains("headroom_queue_length{"), s.text());
            assertTrue(s.failures().get(0).contains("does not exist"), s.failures().toString());
        }
        ExporterConfig cfg = new ExporterConfig("127.0.0.1", 0, List.of(config("k", kafka.bootstrap(),
                List.of(t + "/g"))));
        try (Exporter e = new Exporter(cfg, k -> null, Clock.systemUTC())) {
            Exporter.Scraped up = e.scrapeOnce();
            assertTrue(up.text().contains("headroom_queue_length{queue=\"" + t + "/g\",source=\"k\"} 1.0"), up.text());
            kafka.kill();
            try {
                Exporter.Scraped down = e.scrapeOnce();
                assertFalse(down.text().contains("headroom_queue_length{"), "no sample, never 0:\n" + down.text());
                assertTrue(down.text().contains("headroom_source_up{source=\"k\"} 0.0"), down.text());
                assertTrue(down.failures().get(0).contains("kafka at " + kafka.bootstrap()), down.failures().toString());
                assertFalse(down.failures().get(0).contains("Exception"), "in words: " + down.failures());
            } finally {
                kafka.start();
            }
            Exporter.Scraped again = io.headroom.prometheus.it.Await.until("the exporter reads the restarted broker",
                    Duration.ofSeconds(30), e::scrapeOnce, s -> s.failures().isEmpty());
            assertTrue(again.text().contains("headroom_queue_length{queue=\"" + t + "/g\",source=\"k\"} 1.0"),
                    again.text());
        }
    }
}
