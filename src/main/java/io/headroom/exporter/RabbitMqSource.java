package io.headroom.exporter;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.GetResponse;
import io.headroom.exporter.ExporterConfig.RabbitMqConfig;
import io.headroom.exporter.Sample.Family;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * RabbitMQ queues over AMQP 0-9-1: ready messages and consumers from a passive declare; the oldest age from
 * the head message, peeked with {@code basic.get} and put back with {@code basic.reject(requeue)} (it keeps
 * its place, but is flagged redelivered and, on a quorum queue, counts a delivery): its {@code timestamp}
 * property or a header, else first sight. Unacknowledged counts (in flight) come from the management API when
 * the config names it: one HTTP request a scrape, sent first and awaited after the AMQP reads, within the same
 * deadline; when it fails the AMQP figures are still exported and a gap says why.
 */
final class RabbitMqSource implements QueueSource {
    private final RabbitMqConfig config;
    private final UnaryOperator<String> env;
    /** Set up once from the config; the password is read again before each connection (a secret may rotate). */
    private final ConnectionFactory factory;
    private final FirstSight firstSight = new FirstSight();
    /** Null without a {@code management:} block: then no unacknowledged count (never a 0). */
    private final RabbitMqManagementApi management;
    private Connection connection;
    private Channel channel;

    RabbitMqSource(RabbitMqConfig config, UnaryOperator<String> env) {
        this.config = config;
        this.env = env;
        this.factory = factory(config);
        this.management = config.management() == null ? null
                : new RabbitMqManagementApi(config.management(), config.vhost(), config.timeout(), env);
    }

    private static ConnectionFactory factory(RabbitMqConfig config) {
        int millis = (int) Math.max(1, config.timeout().toMillis());
        ConnectionFactory f = new ConnectionFactory();
        f.setHost(config.host());
        f.setPort(config.port());
        f.setVirtualHost(config.vhost());
        f.setUsername(config.username());
        f.setConnectionTimeout(millis);
        f.setHandshakeTimeout(millis);
        f.setChannelRpcTimeout(millis);
        f.setShutdownTimeout(millis);
        f.setAutomaticRecoveryEnabled(false);
        f.setRequestedHeartbeat(0);
        f.setThreadFactory(io.headroom.threads.NamedThreads.named("exporter-amqp"));
        return f;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String address() {
        return "rabbitmq at " + config.host() + ":" + config.port();
    }

    @Override
    public Reading read(Instant now) throws IOException, java.util.concurrent.TimeoutException {
        List<Sample> out = new ArrayList<>();
        int queries = 0;
        long start = System.nanoTime();
        var unacked = management == null ? null : management.send();
        try {
            for (String q : config.queues()) {
                Channel ch = channel();
                AMQP.Queue.DeclareOk ok = ch.queueDeclarePassive(q);
                queries++;
                out.add(Sample.of(Family.LENGTH, q, ok.getMessageCount()));
                out.add(new Sample(Family.JOBS, q, "consumers", ok.getConsumerCount()));
                double age = 0;
                if (ok.getMessageCount() > 0 && config.peek()) {
                    GetResponse head = ch.basicGet(q, false);
                    queries++;
                    if (head != null) {
                        ch.basicReject(head.getEnvelope().getDeliveryTag(), true);
                        queries++;
                        Instant at = enqueued(head.getProps());
                        String id = head.getProps().getMessageId() != null ? head.getProps().getMessageId()
                                : Integer.toHexString(java.util.Arrays.hashCode(head.getBody()));
                        age = firstSight.age(q, id, at, now);
                    }
                } else {
                    firstSight.age(q, null, now);
                }
                out.add(Sample.of(Family.OLDEST_AGE, q, age));
            }
        } catch (IOException | RuntimeException e) {
            if (unacked != null) {
                unacked.cancel(true);
            }
            close(); // a closed channel (a queue that does not exist) or a broken connection is not reused
            throw e;
        }
        if (unacked == null) {
            return new Reading(out, queries);
        }
        long left = config.timeout().toNanos() - (System.nanoTime() - start);
        RabbitMqManagementApi.Unacked u = management.await(unacked, left);
        List<String> gaps = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String q : config.queues()) {
            Long n = u.counts().get(q);
            if (n != null) {
                out.add(Sample.of(Family.IN_FLIGHT, q, n));
                out.add(new Sample(Family.JOBS, q, "unacked", n));
            } else if (u.failure() == null) {
                missing.add(q);
            }
        }
        if (u.failure() != null) {
            gaps.add(u.failure() + "; no unacked counts");
        } else if (!missing.isEmpty()) {
            gaps.add(management.address() + ": no unacked count for " + missing.size() + " queue"
                    + (missing.size() == 1 ? "" : "s") + " (first '" + missing.get(0) + "'): the API lists a new"
                    + " queue after its next statistics interval");
        }
        return new Reading(out, queries + 1, gaps);
    }

    /** The head's enqueue time: the header named in the config (epoch ms or s), else the timestamp property. */
    private Instant enqueued(AMQP.BasicProperties p) {
        Map<String, Object> headers = p.getHeaders();
        if (config.timestampHeader() != null && headers != null && headers.get(config.timestampHeader()) != null) {
            Object v = headers.get(config.timestampHeader());
            if (v instanceof Number n) {
                double d = n.doubleValue();
                return d > 1e11 ? Instant.ofEpochMilli((long) d) : Instant.ofEpochMilli((long) (d * 1000));
            }
            if (v instanceof Date d) {
                return d.toInstant();
            }
            return RedisSource.instant(v.toString());
        }
        Date ts = p.getTimestamp();
        return ts == null ? null : ts.toInstant();
    }

    private Channel channel() throws IOException, java.util.concurrent.TimeoutException {
        if (connection == null || !connection.isOpen()) {
            factory.setPassword(config.password() == null ? "guest" : config.password().read(env));
            connection = factory.newConnection("headroom-exporter");
        }
        if (channel == null || !channel.isOpen()) {
            channel = connection.createChannel();
        }
        return channel;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.abort(500);
            } catch (RuntimeException e) {
                // closing a broken connection: nothing left to free
            }
        }
        connection = null;
        channel = null;
    }
}
