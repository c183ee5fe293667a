package io.headroom.exporter;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real Kafka broker in KRaft mode (broker and controller in one process) on free loopback ports, one shared
 * per test JVM ({@link #shared}): Apache Kafka's own jars from Maven Central, which the build copies into
 * target/kafka-broker apart from every classpath of ours (src/test/kafka-broker/pom.xml), run in a child JVM
 * after {@code StorageTool format} with a random cluster id. Killed at JVM exit.
 */
public final class TestKafka implements AutoCloseable {
    private static final Path JARS = Path.of("target", "kafka-broker");

    final LocalServer server;
    private final List<String> command;

    private TestKafka() throws IOException {
        server = new LocalServer("kafka");
        try {
            if (!Files.isRegularFile(JARS.resolve("complete"))) {
                throw new IllegalStateException("no Kafka broker in " + JARS.toAbsolutePath() + ": the build copies it"
                        + " there at generate-test-resources (mvn test-compile, or ./scripts/test)");
            }
            int controller = LocalServer.freePort();
            Path props = server.dir.resolve("server.properties");
            Files.writeString(props, String.join("\n",
                    "process.roles=broker,controller",
                    "node.id=1",
                    "controller.quorum.voters=1@127.0.0.1:" + controller,
                    "listeners=PLAINTEXT://127.0.0.1:" + server.port + ",CONTROLLER://127.0.0.1:" + controller,
                    "advertised.listeners=PLAINTEXT://127.0.0.1:" + server.port,
                    "controller.listener.names=CONTROLLER",
                    "inter.broker.listener.name=PLAINTEXT",
                    "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                    "log.dirs=" + server.dir.resolve("data"),
                    "num.partitions=1",
                    "offsets.topic.replication.factor=1",
                    "offsets.topic.num.partitions=1",
                    "transaction.state.log.replication.factor=1",
                    "transaction.state.log.min.isr=1",
                    "share.coordinator.state.topic.replication.factor=1",
                    "share.coordinator.state.topic.min.isr=1",
                    "group.initial.rebalance.delay.ms=0",
                    "auto.create.topics.enable=false",
                    "") + "\n");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            String cp = JARS.toAbsolutePath() + "/*";
            List<String> jvm = List.of(java, "-Xms64m", "-Xmx384m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                    "-Dlog4j2.level=WARN", "-cp", cp);
            LocalServer.run(concat(jvm, List.of("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                    "-c", props.toString())));
            command = concat(jvm, List.of("kafka.Kafka", props.toString()));
            start();
        } catch (IOException | RuntimeException | AssertionError e) {
            close();
            throw e;
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /** Starts the broker (again, after {@link #kill}: same port, same data) and waits until it answers. */
    void start() throws IOException {
        server.start(command, Duration.ofSeconds(90), this::answers);
    }

    /** Kills the broker's JVM, as a crashed broker looks to its clients. */
    void kill() {
        server.stop();
    }

    private static TestKafka shared;

    public static synchronized TestKafka shared() throws IOException {
        if (shared == null) {
            shared = LocalServer.atExit(new TestKafka());
        }
        return shared;
    }

    public String bootstrap() {
        return "127.0.0.1:" + server.port;
    }

    public Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                5000));
    }

    /** Properties for a test's own producer or consumer of this broker. */
    public Properties client() {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap());
        p.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("value.serializer", "org.apache.kafka.common.serialization.StringSerializer");
        p.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        p.put("value.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
        return p;
    }

    private boolean answers() {
        try (Admin a = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                1000))) {
            return !a.describeCluster().nodes().get().isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
