package io.headroom.exporter;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.Jedis;

/** Debian's redis-server on a free loopback port, no persistence; one shared per test JVM ({@link #shared}). */
public final class TestRedis implements AutoCloseable {
    final LocalServer server;

    private TestRedis() throws IOException {
        server = new LocalServer("redis");
        String bin = LocalServer.binary("HEADROOM_REDIS_SERVER", "Debian's redis-server", "redis-server",
                "/usr/bin/redis-server").toString();
        server.start(List.of(bin, "--port", Integer.toString(server.port), "--bind", "127.0.0.1", "--save", "",
                "--appendonly", "no", "--dir", server.dir.toString(), "--protected-mode", "yes"),
                Duration.ofSeconds(20), this::pings);
    }

    static TestRedis start() throws IOException {
        return new TestRedis();
    }

    private static TestRedis shared;

    public static synchronized TestRedis shared() throws IOException {
        if (shared == null) {
            shared = LocalServer.atExit(new TestRedis());
        }
        return shared;
    }

    public int port() {
        return server.port;
    }

    public Jedis client() {
        return new Jedis("127.0.0.1", server.port, 2000);
    }

    private boolean pings() {
        try (Jedis j = client()) {
            return "PONG".equals(j.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
