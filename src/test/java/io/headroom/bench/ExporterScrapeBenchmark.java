package io.headroom.bench;

import io.headroom.exporter.Exporter;
import io.headroom.exporter.ExporterConfig;
import io.headroom.exporter.ExporterConfig.PostgresConfig;
import io.headroom.exporter.ExporterConfig.RedisConfig;
import io.headroom.exporter.ExporterConfig.RedisFormat;
import io.headroom.exporter.TestPostgres;
import io.headroom.exporter.TestRabbitMq;
import io.headroom.exporter.TestRedis;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * One exporter scrape of 1,000 queues per source (docs/benchmarks.md): RQ queues in the real Redis (10 jobs
 * each, registries filled), RabbitMQ queues of one timestamped message each (peeked and put back; then again with
 * the management API asked for the unacked counts), a PostgreSQL
 * table of 1,000 queues × 10 jobs in three states, and Kafka: 100 topics of 10 partitions (1,000 partitions,
 * 10 records each), each topic read by 10 groups standing at offsets 0 to 9 (1,000 TOPIC/GROUP queues, every
 * partition lagging for 9 of them). Prints the median and p90 of 20 scrapes in milliseconds and the queries
 * (Kafka: requests) each sent. Arguments: the sources to run (redis, rabbitmq, postgres, kafka), all by default.
 */
public final class ExporterScrapeBenchmark {
    private static final int QUEUES = 1_000;
    private static final int SCRAPES = 20;

    public static void main(String[] args) throws Exception {
        List<String> only = List.of(args);
        List<String> queues = new ArrayList<>();
        for (int i = 0; i < QUEUES; i++) {
            queues.add("bench-" + i);
        }
        Duration timeout = Duration.ofSeconds(10);
        if (only.isEmpty() || only.contains("redis")) {
            redis(queues, timeout);
        }
        if (only.isEmpty() || only.contains("rabbitmq")) {
            rabbit(queues, timeout);
        }
        if (only.isEmpty() || only.contains("postgres")) {
            postgres(timeout);
        }
        if (only.isEmpty() || only.contains("kafka")) {
            kafka(timeout);
        }
        System.exit(0);
    }

    private static void redis(List<String> queues, Duration timeout) throws Exception {
        TestRedis redis = TestRedis.shared();
        try (Jedis j = redis.client()) {
            Pipeline p = j.pipelined();
            for (String q : queues) {
                for (int k = 0; k < 10; k++) {
                    String id = UUID.randomUUID().toString();
                    p.hset("rq:job:" + id, Map.of("enqueued_at", Instant.now().minusSeconds(k).toString()));
                    p.rpush("rq:queue:" + q, id);
                }
                p.zadd("rq:wip:" + q, 1, "x");
            }
            p.sync();
        }
        run("redis (RQ)", new ExporterConfig("127.0.0.1", 0, List.of(new RedisConfig("redis", timeout, "127.0.0.1",
                redis.port(), 0, null, null, RedisFormat.RQ, queues, null))));
    }

    private static void postgres(Duration timeout) throws Exception {
        TestPostgres pg = TestPostgres.shared();
        try (Connection c = pg.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE jobs (id bigserial PRIMARY KEY, queue text NOT NULL, state text NOT NULL,"
                    + " created_at timestamptz NOT NULL DEFAULT now())");
            s.execute("INSERT INTO jobs (queue, state, created_at) SELECT 'bench-' || (g % " + QUEUES + "),"
                    + " (ARRAY['queued','running','done'])[1 + g % 3], now() - (g || ' ms')::interval"
                    + " FROM generate_series(1, " + (QUEUES * 10) + ") g");
            s.execute("CREATE INDEX ON jobs (queue, state, created_at)");
            s.execute("ANALYZE jobs");
        }
        run("postgres", new ExporterConfig("127.0.0.1", 0, List.of(new PostgresConfig("postgres", timeout,
                "127.0.0.1", pg.port(), "postgres", TestPostgres.USER, null, "jobs", "queue", null, "created_at",
                "state", List.of("queued"), List.of("running")))));
    }

    private static void rabbit(List<String> queues, Duration timeout) throws Exception {
        TestRabbitMq rabbit = TestRabbitMq.shared();
        try (com.rabbitmq.client.Connection c = rabbit.connect(); com.rabbitmq.client.Channel ch = c.createChannel()) {
            for (String q : queues) {
                ch.queueDeclare(q, false, false, false, null);
                ch.basicPublish("", q, new com.rabbitmq.client.AMQP.BasicProperties.Builder()
                        .timestamp(new java.util.Date()).build(), new byte[16]);
            }
        }
        run("rabbitmq", new ExporterConfig("127.0.0.1", 0, List.of(new ExporterConfig.RabbitMqConfig("rabbitmq",
                timeout, "127.0.0.1", rabbit.port(), "/", "guest", null, queues, true, null))));
        // The same with the unacked counts: one management API request a scrape for all 1,000 queues.
        run("rabbitmq+api", new ExporterConfig("127.0.0.1", 0, List.of(new ExporterConfig.RabbitMqConfig("rabbitmq",
                timeout, "127.0.0.1", rabbit.port(), "/", "guest", null, queues, true, null,
                new ExporterConfig.RabbitMqManagement(java.net.URI.create(rabbit.managementUrl()), "guest", null)))));
    }

    private static void kafka(Duration timeout) throws Exception {
        io.headroom.exporter.TestKafka kafka = io.headroom.exporter.TestKafka.shared();
        int topics = 100;
        int partitions = 10;
        int groups = 10;
        List<ExporterConfig.KafkaQueue> queues = new ArrayList<>();
        try (org.apache.kafka.clients.admin.Admin a = kafka.admin()) {
            List<org.apache.kafka.clients.admin.NewTopic> created = new ArrayList<>();
            for (int t = 0; t < topics; t++) {
                created.add(new org.apache.kafka.clients.admin.NewTopic("bench-" + t, partitions, (short) 1));
            }
            a.createTopics(created).all().get();
            java.util.Properties props = kafka.client();
            props.put("linger.ms", 50);
            try (org.apache.kafka.clients.producer.KafkaProducer<String, String> p =
                         new org.apache.kafka.clients.producer.KafkaProducer<>(props)) {
                long now = System.currentTimeMillis();
                for (int t = 0; t < topics; t++) {
                    for (int part = 0; part < partitions; part++) {
                        for (int k = 0; k < 10; k++) {
                            p.send(new org.apache.kafka.clients.producer.ProducerRecord<>("bench-" + t, part,
                                    now - (10 - k) * 1000L, "k", "job " + k));
                        }
                    }
                }
                p.flush();
            }
            for (int t = 0; t < topics; t++) {
                for (int g = 0; g < groups; g++) {
                    Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.consumer.OffsetAndMetadata>
                            offsets = new java.util.HashMap<>();
                    for (int part = 0; part < partitions; part++) {
                        offsets.put(new org.apache.kafka.common.TopicPartition("bench-" + t, part),
                                new org.apache.kafka.clients.consumer.OffsetAndMetadata(g));
                    }
                    a.alterConsumerGroupOffsets("group-" + t + "-" + g, offsets).all().get();
                    queues.add(new ExporterConfig.KafkaQueue("bench-" + t, "group-" + t + "-" + g));
                }
            }
        }
        run("kafka", new ExporterConfig("127.0.0.1", 0, List.of(new ExporterConfig.KafkaConfig("kafka", timeout,
                kafka.bootstrap(), false, null, null, null, queues))));
    }

    private static final Pattern QUERIES = Pattern.compile("headroom_source_queries\\{source=\"[^\"]+\"} (\\S+)");

    private static void run(String name, ExporterConfig config) {
        try (Exporter e = new Exporter(config, k -> null, Clock.systemUTC())) {
            // Connects (the first scrape is not the steady state) and waits for every figure: the management API
            // lists a new queue's unacked count after its next statistics sample.
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!e.scrapeOnce().failures().isEmpty() && System.nanoTime() < deadline) {
                continue; // each scrape is a round of real reads: no busy spin
            }
            double[] ms = new double[SCRAPES];
            String queries = "?";
            int samples = 0;
            for (int i = 0; i < SCRAPES; i++) {
                long t0 = System.nanoTime();
                Exporter.Scraped s = e.scrapeOnce();
                ms[i] = (System.nanoTime() - t0) / 1e6;
                if (!s.failures().isEmpty()) {
                    throw new IllegalStateException(s.failures().toString());
                }
                Matcher m = QUERIES.matcher(s.text());
                queries = m.find() ? m.group(1) : "?";
                samples = (int) s.text().lines().filter(l -> l.startsWith("headroom_queue_length{")).count();
            }
            Arrays.sort(ms);
            System.out.printf(java.util.Locale.ROOT, "%-12s %d queues: scrape median %.1f ms, p90 %.1f ms, %s queries"
                    + " sent per scrape%n", name, samples, ms[SCRAPES / 2], ms[SCRAPES * 9 / 10], queries);
        }
    }
}
