package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.Main;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom exporter --once} in its own JVM, as a user runs it: its clients (Jedis, amqp-client,
 * kafka-clients) log through SLF4J, which with no provider prints a three-line warning on the first use;
 * the exporter's output is its metrics and its failures in words, nothing else.
 */
class ExporterQuietTest {

    @Test
    void noLoggingFrameworkWarningReachesTheTerminal(@TempDir Path dir) throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Path config = dir.resolve("exporter.yaml");
        Files.writeString(config, "sources:\n"
                + "  - {name: r, type: redis, port: " + closed + ", queues: [q], timeoutSeconds: 0.5}\n"
                + "  - {name: k, type: kafka, port: " + closed + ", queues: [t/g], timeoutSeconds: 0.5}\n");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "exporter", "--config", config.toString(), "--once");
        Path err = dir.resolve("err.txt");
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "--once ends by itself");
        String said = Files.readString(err);
        assertTrue(said.contains("redis at 127.0.0.1:" + closed + ": connection refused"), said);
        assertFalse(said.contains("SLF4J"), said);
    }
}
