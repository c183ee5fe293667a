package io.headroom.exporter;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Debian's rabbitmq-server on free loopback ports, one shared per test JVM ({@link #shared}): its own epmd
 * (a child held to 127.0.0.1), the Erlang distribution held to loopback, data and cookie in a temp directory.
 * As root it runs as the {@code rabbitmq} user.
 */
public final class TestRabbitMq implements AutoCloseable {
    final LocalServer server;
    private final LocalServer epmd;
    /** The management plugin's HTTP port on 127.0.0.1, 0 when the broker runs without it. */
    private final int managementPort;

    private TestRabbitMq(boolean management) throws IOException {
        epmd = new LocalServer("epmd");
        server = new LocalServer("rabbitmq");
        managementPort = management ? LocalServer.freePort() : 0;
        try {
            String epmdBin = LocalServer.binary("HEADROOM_EPMD", "Erlang's epmd (Debian's rabbitmq-server)", "epmd",
                    "/usr/bin/epmd").toString();
            epmd.start(List.of(epmdBin, "-address", "127.0.0.1", "-port", Integer.toString(epmd.port)),
                    Duration.ofSeconds(10), () -> listening(epmd.port));
            String bin = LocalServer.binary("HEADROOM_RABBITMQ_SERVER", "Debian's rabbitmq-server",
                    "/usr/lib/rabbitmq/bin/rabbitmq-server").toString();
            Files.writeString(server.dir.resolve("enabled_plugins"), management ? "[rabbitmq_management].\n"
                    : "[].\n");
            // Statistics every 0.5 s, sampled every 1 s (5 s by default): the unacked count the management API
            // serves is that old, and a new queue has none until the first sample.
            Files.writeString(server.dir.resolve("rabbitmq.conf"), management ? "management.tcp.ip = 127.0.0.1\n"
                    + "management.tcp.port = " + managementPort + "\ncollect_statistics_interval = 500\n"
                    + "management.sample_retention_policies.global.minute = 1\n"
                    + "management.sample_retention_policies.basic.minute = 1\n"
                    + "management.sample_retention_policies.detailed.10 = 1\n" : "");
            server.chownTo("rabbitmq");
            int dist = LocalServer.freePort();
            Map<String, String> env = Map.ofEntries(
                    Map.entry("HOME", server.dir.toString()),
                    Map.entry("RABBITMQ_NODENAME", "headroom-test-" + server.port + "@localhost"),
                    Map.entry("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
                    Map.entry("RABBITMQ_NODE_PORT", Integer.toString(server.port)),
                    Map.entry("RABBITMQ_DIST_PORT", Integer.toString(dist)),
                    Map.entry("RABBITMQ_MNESIA_BASE", server.dir.resolve("db").toString()),
                    Map.entry("RABBITMQ_LOG_BASE", server.dir.resolve("log").toString()),
                    Map.entry("RABBITMQ_ENABLED_PLUGINS_FILE", server.dir.resolve("enabled_plugins").toString()),
                    Map.entry("RABBITMQ_CONFIG_FILE", server.dir.resolve("rabbitmq.conf").toString()),
                    Map.entry("RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS", "-kernel inet_dist_use_interface {127,0,0,1}"),
                    Map.entry("ERL_EPMD_ADDRESS", "127.0.0.1"),
                    Map.entry("ERL_EPMD_PORT", Integer.toString(epmd.port)));
            server.start(LocalServer.as("rabbitmq", List.of(bin)), env, Duration.ofSeconds(60), this::answers);
        } catch (IOException | RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    /** A broker of the test's own, without the management plugin (it starts faster). */
    static TestRabbitMq start() throws IOException {
        return new TestRabbitMq(false);
    }

    private static TestRabbitMq shared;

    public static synchronized TestRabbitMq shared() throws IOException {
        if (shared == null) {
            shared = LocalServer.atExit(new TestRabbitMq(true));
        }
        return shared;
    }

    public int port() {
        return server.port;
    }

    /** The management API's base URL ({@code http://127.0.0.1:PORT}); the shared broker has it. */
    public String managementUrl() {
        if (managementPort == 0) {
            throw new IllegalStateException("this broker runs without the management plugin");
        }
        return "http://127.0.0.1:" + managementPort;
    }

    public Connection connect() throws Exception {
        ConnectionFactory f = new ConnectionFactory();
        f.setHost("127.0.0.1");
        f.setPort(server.port);
        f.setConnectionTimeout(1000);
        f.setAutomaticRecoveryEnabled(false);
        return f.newConnection();
    }

    private boolean answers() {
        if (!listening(server.port) || managementPort != 0 && !listening(managementPort)) {
            return false;
        }
        try (Connection c = connect()) {
            return c.isOpen();
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket s = new java.net.Socket()) {
            s.connect(new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.close();
        epmd.close();
    }
}
