package io.headroom.exporter;

import io.headroom.exporter.ExporterConfig.KafkaConfig;
import io.headroom.exporter.ExporterConfig.KafkaQueue;
import io.headroom.exporter.Sample.Family;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Kafka consumer groups: for each {@code TOPIC/GROUP}, the lag in messages (each partition's end offset
 * less the group's committed offset, or less the earliest offset where the group committed none) and in
 * seconds (now less the timestamp of the first unconsumed record, fetched by a consumer with no group that
 * assigns the partitions and seeks to the committed offsets: it never commits, so no group sees it), and
 * the end and committed offsets summed over the partitions, whose growth between scrapes is the arrival
 * and completion rate ({@code rate()} in PromQL).
 *
 * <p>One read: the topics' partitions, every group's committed offsets, the end and earliest offsets (Admin,
 * batched per broker), then one record per lagging partition, fetched together; every call within what is
 * left of the source's deadline. A client kept between reads; a failed read drops it.
 */
final class KafkaSource implements QueueSource {
    static final int PARTITION_FETCH_BYTES = 256 << 10;

    private final KafkaConfig config;
    private final UnaryOperator<String> env;
    private Admin admin;
    private KafkaConsumer<byte[], byte[]> consumer;

    KafkaSource(KafkaConfig config, UnaryOperator<String> env) {
        this.config = config;
        this.env = env;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String address() {
        return "kafka at " + config.bootstrapServers();
    }

    @Override
    public Reading read(Instant now) throws Exception {
        long deadline = System.nanoTime() + config.timeout().toNanos();
        double before = requests();
        try {
            List<Sample> out = read(now, deadline);
            return new Reading(out, (int) Math.round(requests() - before));
        } catch (Exception | LinkageError e) {
            close(); // a broken or timed-out client is not reused
            throw e;
        }
    }

    private List<Sample> read(Instant now, long deadline) throws Exception {
        Admin a = admin();
        Set<String> topics = new LinkedHashSet<>();
        Set<String> groups = new LinkedHashSet<>();
        for (KafkaQueue q : config.queues()) {
            topics.add(q.topic());
            groups.add(q.group());
        }
        Map<String, TopicDescription> described = await(a.describeTopics(topics).allTopicNames(), deadline,
                "the topics' partitions");
        Map<String, ListConsumerGroupOffsetsSpec> specs = new LinkedHashMap<>();
        for (String g : groups) {
            specs.put(g, new ListConsumerGroupOffsetsSpec());
        }
        Map<String, Map<TopicPartition, OffsetAndMetadata>> committed = await(
                a.listConsumerGroupOffsets(specs).all(), deadline, "the groups' committed offsets");
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        for (TopicDescription d : described.values()) {
            d.partitions().forEach(p -> {
                latest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.latest());
                earliest.put(new TopicPartition(d.name(), p.partition()), OffsetSpec.earliest());
            });
        }
        Map<TopicPartition, ListOffsetsResultInfo> ends = await(a.listOffsets(latest).all(), deadline,
                "the end offsets");
        Map<TopicPartition, ListOffsetsResultInfo> starts = await(a.listOffsets(earliest).all(), deadline,
                "the earliest offsets");

        // Where each queue's partitions stand: the next offset the group will read, and the end.
        Map<KafkaQueue, Map<TopicPartition, Long>> positions = new LinkedHashMap<>();
        Map<TopicPartition, Long> toFetch = new HashMap<>(); // partition → lowest unconsumed offset of any group
        for (KafkaQueue q : config.queues()) {
            Map<TopicPartition, OffsetAndMetadata> offsets = committed.getOrDefault(q.group(), Map.of());
            Map<TopicPartition, Long> at = new LinkedHashMap<>();
            for (var p : described.get(q.topic()).partitions()) {
                TopicPartition tp = new TopicPartition(q.topic(), p.partition());
                OffsetAndMetadata c = offsets.get(tp);
                long position = c == null ? starts.get(tp).offset() : c.offset();
                at.put(tp, position);
                if (position < ends.get(tp).offset()) {
                    toFetch.merge(tp, position, Math::min);
                }
            }
            positions.put(q, at);
        }
        Map<TopicPartition, Map<Long, Long>> stamps = timestamps(toFetch, positions, ends, deadline);

        List<Sample> out = new ArrayList<>(config.queues().size() * 4);
        for (KafkaQueue q : config.queues()) {
            long lag = 0;
            long end = 0;
            long done = 0;
            double age = 0;
            for (Map.Entry<TopicPartition, Long> e : positions.get(q).entrySet()) {
                long endOffset = ends.get(e.getKey()).offset();
                long position = e.getValue();
                lag += Math.max(0, endOffset - position);
                end += endOffset;
                done += position;
                Long stamp = position < endOffset ? stamps.getOrDefault(e.getKey(), Map.of()).get(position) : null;
                if (stamp != null && stamp >= 0) { // -1: a record of the old format, without one
                    age = Math.max(age, Duration.between(Instant.ofEpochMilli(stamp), now).toNanos() / 1e9);
                }
            }
            out.add(Sample.of(Family.LENGTH, q.label(), lag));
            out.add(Sample.of(Family.OLDEST_AGE, q.label(), age));
            out.add(new Sample(Family.JOBS, q.label(), "produced", end));
            out.add(new Sample(Family.JOBS, q.label(), "consumed", done));
        }
        return out;
    }

    /**
     * The timestamp of the first record at or after each wanted offset of each partition (groups may stand at
     * different offsets of one partition): each partition read forward from its lowest wanted offset, one batch
     * a fetch, skipping ahead by a seek where the next wanted offset is past what was read. A partition whose
     * records before its end are all gone or invisible (aborted transactions, control records) has none.
     */
    private Map<TopicPartition, Map<Long, Long>> timestamps(Map<TopicPartition, Long> lowest,
                                                            Map<KafkaQueue, Map<TopicPartition, Long>> positions,
                                                            Map<TopicPartition, ListOffsetsResultInfo> ends,
                                                            long deadline) {
        Map<TopicPartition, java.util.TreeSet<Long>> wanted = new HashMap<>();
        for (Map<TopicPartition, Long> at : positions.values()) {
            at.forEach((tp, offset) -> {
                if (offset < ends.get(tp).offset()) {
                    wanted.computeIfAbsent(tp, k -> new java.util.TreeSet<>()).add(offset);
                }
            });
        }
        Map<TopicPartition, Map<Long, Long>> found = new HashMap<>();
        if (lowest.isEmpty()) {
            return found;
        }
        KafkaConsumer<byte[], byte[]> c = consumer();
        c.resume(c.paused());
        c.assign(lowest.keySet());
        lowest.forEach(c::seek);
        Set<TopicPartition> pending = new HashSet<>(lowest.keySet());
        while (!pending.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("no record of " + pending.size() + " lagging partition(s) within "
                        + seconds(config.timeout()));
            }
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofNanos(left))) {
                TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                java.util.NavigableSet<Long> answered = wanted.get(tp).headSet(r.offset(), true);
                for (Long o : answered) {
                    found.computeIfAbsent(tp, k -> new HashMap<>()).put(o, r.timestamp());
                }
                answered.clear();
            }
            for (TopicPartition tp : new ArrayList<>(pending)) {
                java.util.TreeSet<Long> w = wanted.get(tp);
                long position = c.position(tp, Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                if (w.isEmpty() || position >= ends.get(tp).offset()) {
                    pending.remove(tp); // every offset answered, or nothing readable before the end
                    c.pause(List.of(tp));
                } else if (w.first() > position) {
                    c.seek(tp, w.first());
                }
            }
        }
        c.assign(List.of());
        return found;
    }

    private <T> T await(KafkaFuture<T> f, long deadline, String what) throws Exception {
        try {
            return f.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("no broker answered within " + seconds(config.timeout()) + " (reading " + what
                    + ")");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                throw new IllegalStateException("a topic does not exist (" + e.getCause().getMessage() + ")",
                        e.getCause());
            }
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static String seconds(Duration d) {
        return io.headroom.config.Fields.plain(d.toMillis() / 1000.0) + " s";
    }

    /** The requests both clients have sent so far (their {@code request-total} metrics, all brokers). */
    private double requests() {
        double n = 0;
        for (Map<MetricName, ? extends Metric> metrics : clientMetrics()) {
            for (Map.Entry<MetricName, ? extends Metric> m : metrics.entrySet()) {
                if (m.getKey().name().equals("request-total") && !m.getKey().tags().containsKey("node-id")
                        && m.getValue().metricValue() instanceof Double d) {
                    n += d;
                }
            }
        }
        return n;
    }

    private List<Map<MetricName, ? extends Metric>> clientMetrics() {
        List<Map<MetricName, ? extends Metric>> out = new ArrayList<>(2);
        if (admin != null) {
            out.add(admin.metrics());
        }
        if (consumer != null) {
            out.add(consumer.metrics());
        }
        return out;
    }

    private Properties common() {
        Properties p = new Properties();
        int millis = (int) Math.max(1, config.timeout().toMillis());
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        p.put(CommonClientConfigs.CLIENT_ID_CONFIG, "headroom-exporter-" + config.name());
        p.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, millis);
        p.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, millis);
        p.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MS_CONFIG, (long) millis);
        p.put(CommonClientConfigs.SOCKET_CONNECTION_SETUP_TIMEOUT_MAX_MS_CONFIG, (long) millis);
        p.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1000L);
        p.put(CommonClientConfigs.METADATA_MAX_AGE_CONFIG, 60_000L);
        p.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, config.username() == null
                ? (config.tls() ? "SSL" : "PLAINTEXT") : (config.tls() ? "SASL_SSL" : "SASL_PLAINTEXT"));
        if (config.username() != null) {
            p.put("sasl.mechanism", config.saslMechanism());
            String module = config.saslMechanism().equals("PLAIN")
                    ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                    : "org.apache.kafka.common.security.scram.ScramLoginModule";
            p.put("sasl.jaas.config", module + " required username=\"" + jaas(config.username()) + "\" password=\""
                    + jaas(config.password().read(env)) + "\";");
        }
        return p;
    }

    private static String jaas(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private Admin admin() {
        if (admin == null) {
            Properties p = common();
            p.put(AdminClientConfig.RETRY_BACKOFF_MS_CONFIG, 100L);
            admin = Admin.create(p);
        }
        return admin;
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        if (consumer == null) {
            Properties p = common();
            // No group: assigned partitions, seeks, never a commit; nothing any group's lag could see.
            p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"); // a committed offset since deleted
            // The first batch of each partition is all a read needs: at most 256 KB a partition and 32 MB a fetch.
            // Not less: a broker sends a batch larger than the partition's limit only for the first partition
            // of a fetch (1 byte made 1,000 lagging partitions take 1,000 round trips).
            p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, PARTITION_FETCH_BYTES);
            p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 32 << 20);
            p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
            p.put(ConsumerConfig.CHECK_CRCS_CONFIG, false);
            consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        return consumer;
    }

    @Override
    public void close() {
        if (consumer != null) {
            try {
                consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ZERO));
            } catch (RuntimeException e) {
                // closing a broken client: nothing left to free
            }
            consumer = null;
        }
        if (admin != null) {
            try {
                admin.close(Duration.ZERO);
            } catch (RuntimeException e) {
                // closing a broken client: nothing left to free
            }
            admin = null;
        }
    }
}
