package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom exporter}: its file read as every command reads one, and {@code --once}'s exit code. */
class ExporterCommandTest {
    static BadInputCliTest.Run run(String... args) {
        return BadInputCliTest.run(args);
    }

    @Test
    void aBadFileIsRefusedFileLineWithExitTwo(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("exporter.yaml");
        Files.writeString(f, "sources:\n  - {name: a, type: redis, queues: [q], port: 0}\n");
        BadInputCliTest.Run r = run("exporter", "--config", f.toString());
        assertEquals(ExitCode.USAGE, r.code());
        assertEquals("exporter.yaml:2: sources[0].port: must be at least 1, got 0", r.err().strip()
                .replace(f.toString(), "exporter.yaml"));
        BadInputCliTest.Run missing = run("exporter", "--config", dir.resolve("nope.yaml").toString());
        assertEquals(ExitCode.USAGE, missing.code());
    }

    @Test
    void onceWithASourceDownPrintsTheScrapeAndExitsOneSayingWhy(@TempDir Path dir) throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        Path f = dir.resolve("exporter.yaml");
        Files.writeString(f, "sources:\n  - {name: broker, type: redis, port: " + closed
                + ", queues: [mail], timeoutSeconds: 0.5}\n");
        BadInputCliTest.Run r = run("exporter", "--config", f.toString(), "--once");
        assertEquals(ExitCode.FAILED, r.code(), r.err());
        assertTrue(r.out().contains("headroom_source_up{source=\"broker\"} 0.0"), r.out());
        assertFalse(r.out().contains("headroom_queue_length{"), r.out());
        assertTrue(r.err().startsWith("headroom exporter: broker: "), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }
}
