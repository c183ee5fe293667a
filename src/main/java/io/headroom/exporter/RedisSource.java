package io.headroom.exporter;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import io.headroom.exporter.ExporterConfig.RedisConfig;
import io.headroom.exporter.ExporterConfig.RedisFormat;
import io.headroom.exporter.Sample.Family;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * Redis lists (RQ, Celery's Redis broker, plain lists): every queue's length and head in one pipelined
 * round trip, then, for RQ, the head jobs' {@code enqueued_at} in a second one. The oldest age is the
 * head's enqueue time where the job carries one, else the time the exporter first saw it
 * ({@link FirstSight}). One connection, kept between reads; the socket timeout is the deadline.
 */
final class RedisSource implements QueueSource {
    private static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();

    private final RedisConfig config;
    private final UnaryOperator<String> env;
    private final FirstSight firstSight = new FirstSight();
    private Jedis jedis;

    RedisSource(RedisConfig config, UnaryOperator<String> env) {
        this.config = config;
        this.env = env;
    }

    @Override
    public String name() {
        return config.name();
    }

    @Override
    public String address() {
        return "redis at " + config.host() + ":" + config.port();
    }

    @Override
    public Reading read(Instant now) {
        Jedis j = connection();
        try {
            return read(j, now);
        } catch (RuntimeException e) {
            close(); // a broken or timed-out connection is not reused
            throw e;
        }
    }

    private Reading read(Jedis j, Instant now) {
        RedisFormat format = config.format();
        List<String> queues = config.queues();
        int n = queues.size();
        List<Response<Long>> lengths = new ArrayList<>(n);
        List<Response<String>> heads = new ArrayList<>(n);
        List<List<Response<Long>>> registries = new ArrayList<>(n);
        int queries = 0;
        Pipeline p = j.pipelined();
        for (String q : queues) {
            String key = listKey(q);
            lengths.add(p.llen(key));
            heads.add(p.lindex(key, format == RedisFormat.CELERY ? -1 : 0));
            queries += 2;
            if (format == RedisFormat.RQ) {
                List<Response<Long>> r = new ArrayList<>(RQ_REGISTRIES.size());
                for (String registry : RQ_REGISTRIES) {
                    r.add(p.zcard("rq:" + registry + ":" + q));
                    queries++;
                }
                registries.add(r);
            }
        }
        p.sync();
        List<Response<String>> enqueuedAt = new ArrayList<>(n);
        if (format == RedisFormat.RQ) {
            Pipeline p2 = j.pipelined();
            boolean any = false;
            for (Response<String> h : heads) {
                String id = h.get();
                enqueuedAt.add(id == null ? null : p2.hget("rq:job:" + id, "enqueued_at"));
                if (id != null) {
                    queries++;
                    any = true;
                }
            }
            if (any) {
                p2.sync();
            }
        }
        List<Sample> out = new ArrayList<>(n * 6);
        for (int i = 0; i < n; i++) {
            String q = queues.get(i);
            long length = lengths.get(i).get();
            String head = heads.get(i).get();
            out.add(Sample.of(Family.LENGTH, q, length));
            Instant enqueued = null;
            if (head != null) {
                enqueued = format == RedisFormat.RQ ? instant(enqueuedAt.get(i).get())
                        : config.timestampField() != null ? fieldTime(head, config.timestampField()) : null;
            }
            out.add(Sample.of(Family.OLDEST_AGE, q, firstSight.age(q, head, enqueued, now)));
            if (format == RedisFormat.RQ) {
                List<Response<Long>> r = registries.get(i);
                out.add(Sample.of(Family.IN_FLIGHT, q, r.get(0).get()));
                out.add(new Sample(Family.JOBS, q, "queued", length));
                for (int k = 0; k < RQ_REGISTRIES.size(); k++) {
                    out.add(new Sample(Family.JOBS, q, RQ_STATES.get(k), r.get(k).get()));
                }
            }
        }
        return new Reading(out, queries);
    }

    /** RQ's registries of a queue (StartedJobRegistry is {@code rq:wip:NAME}) and the states they stand for. */
    private static final List<String> RQ_REGISTRIES = List.of("wip", "finished", "failed");
    private static final List<String> RQ_STATES = List.of("started", "finished", "failed");

    private String listKey(String queue) {
        return config.format() == RedisFormat.RQ ? "rq:queue:" + queue : queue;
    }

    private Jedis connection() {
        if (jedis == null) {
            int millis = (int) Math.max(1, config.timeout().toMillis());
            DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder().connectionTimeoutMillis(millis)
                    .socketTimeoutMillis(millis).database(config.database()).clientName("headroom-exporter");
            if (config.username() != null) {
                b.user(config.username());
            }
            if (config.password() != null) {
                b.password(config.password().read(env));
            }
            jedis = new Jedis(new HostAndPort(config.host(), config.port()), b.build());
        }
        return jedis;
    }

    /** RQ's {@code enqueued_at} ({@code 2024-05-01T12:00:00.123456Z}); null when absent or unreadable. */
    static Instant instant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.endsWith("Z") || text.contains("+") ? text : text + "Z");
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The enqueue time in a field of the head job (JSON): ISO-8601 text or epoch seconds; null when absent. */
    static Instant fieldTime(String head, String field) {
        JsonNode n;
        try {
            n = JSON.readTree(head);
        } catch (tools.jackson.core.JacksonException e) {
            return null;
        }
        for (String part : field.split("\\.")) {
            if (n == null) {
                return null;
            }
            n = n.get(part);
        }
        if (n == null) {
            return null;
        }
        if (n.isNumber()) {
            double seconds = n.asDouble(0.0);
            return Instant.ofEpochSecond((long) Math.floor(seconds), (long) ((seconds - Math.floor(seconds)) * 1e9));
        }
        return instant(n.asString(""));
    }

    @Override
    public void close() {
        if (jedis != null) {
            try {
                jedis.close();
            } catch (RuntimeException e) {
                // closing a broken connection: nothing left to free
            }
            jedis = null;
        }
    }
}
