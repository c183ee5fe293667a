package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/** {@code headroom plan} says each class's admission as the console would publish it (design.md §2b). */
class PlanAdmissionTest {

    static String run(Path dir, String onMissing, boolean json) throws Exception {
        Path f = dir.resolve("workloads.yaml");
        Files.writeString(f, "prometheus: {url: \"" + MockCluster.unreachableUrl() + "\", timeoutSeconds: 1}\n"
                + "classes:\n  - {name: orders, context: dev, target: {name: worker},\n"
                + "     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},\n"
                + "     admission: {onMissingTelemetry: \"" + onMissing + "\"}}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = json ? new String[] {"plan", "--config", f.toString(), "--once", "--json", "--replicas",
            "orders=2"} : new String[] {"plan", "--config", f.toString(), "--once", "--replicas", "orders=2"};
        Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void missingTelemetryFollowsTheClassChoiceInTheTableAndTheJson(@TempDir Path dir) throws Exception {
        JsonNode a = new ObjectMapper().readTree(run(dir, "degrade:orders-cheap", true).lines().findFirst()
                .orElseThrow()).get("admission");
        assertEquals("CLOSED", a.get("state").asString());
        assertEquals(0.0, a.get("rate").asDouble());
        assertEquals("orders-cheap", a.get("degradeTo").asString());
        String table = run(dir, "close", false);
        assertTrue(table.contains("\n  admission: CLOSED: telemetry missing: closed (onMissingTelemetry: close)"), table);
    }
}
