package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import io.headroom.prometheus.it.SharedPrometheus;
import io.headroom.testing.FleetFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom plan --once} on a fleet's workloads file (issue 26: at least 5,000 classes), against the
 * real Prometheus: every class decided, the one class with series read from the grouped answers, the
 * others missing by name, never 0.
 */
@ExtendWith(SharedPrometheus.class)
class PlanFleetTest {

    @Test
    void fiveThousandClassesArePlannedInOneTick(SharedPrometheus.Fixture fx, @TempDir Path dir) throws Exception {
        fx.awaitSteadyRates();
        // The first class reads the series of the brief's worked example (class="plan-a"); the exporter
        // serves no others, so the rest say their replicas in the file (a constant query) and miss the rest.
        String text = FleetFile.text(fx.url().toString(), 5_000)
                .replace("value: " + FleetFile.className(0) + "}", "value: plan-a}")
                .replaceAll("replicas: \\{grouped: \\*rep[^}]*}", "replicas: \"2\"");
        Path file = dir.resolve("fleet.yaml");
        Files.writeString(file, text);

        PlanCommandTest.Run r = PlanCommandTest.run("plan", "--config", file.toString(), "--once", "--json");
        assertEquals(0, r.code(), r.err() + r.out().substring(0, Math.min(2000, r.out().length())));
        List<JsonNode> lines = r.lines();
        assertEquals(5_000, lines.size());

        JsonNode first = lines.get(0);
        assertEquals(FleetFile.className(0), first.get("class").asString(""));
        assertEquals(30.0, first.get("inputs").get("queueLength").get("value").asDouble(0.0));
        assertEquals(2, first.get("currentReplicas").asInt(0), "from the grouped replicas signal");
        // The brief's worked example with this file's 120 s objective and the default 30 s start-up:
        // D_eff = 120 − 50 − 30 = 40 s, (0.5 × 8 + 240 / 40) / 0.7 = 14.3 → 15 slots → 4 replicas.
        assertEquals(15, first.get("estimatedSlots").asInt(0), first.get("explanation").asString(""));
        assertEquals(4, first.get("desiredReplicas").asInt(0));

        JsonNode last = lines.get(4_999);
        assertEquals(FleetFile.className(4_999), last.get("class").asString(""));
        JsonNode length = last.get("inputs").get("queueLength");
        assertTrue(length.get("value").isNull(), "no series for the class is missing, never 0: " + length);
        assertTrue(length.toString().contains(FleetFile.className(4_999)), "the missing input names its series: " + length);
        assertEquals(2, last.get("desiredReplicas").asInt(0), "held on missing data, never lowered: " + last);
        assertTrue(last.get("reasons").toString().contains("TELEMETRY_MISSING:queueLength"), last.get("reasons").toString());
    }
}
