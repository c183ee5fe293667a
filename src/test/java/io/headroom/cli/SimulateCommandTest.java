package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom simulate} as a user runs it: JSON lines, summaries, and exit code 2 for bad files. */
class SimulateCommandTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> TICK_FIELDS = List.of("t", "class", "queueLength", "oldestAgeSeconds", "arrivalRate",
            "meanServiceSeconds", "estimatedSlots", "desiredReplicas", "replicas", "readyReplicas", "bindingCeiling",
            "reasons", "terms", "governorLimit");
    static final List<String> SUMMARY_FIELDS = List.of("class", "maxOldestAgeSeconds", "p95OldestAgeSeconds",
            "ageObjectiveViolationSeconds", "replicaSeconds", "scaleEvents", "jobsCompleted");

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void jsonPrintsOneObjectPerTickThenASummaryPerClass() throws Exception {
        Run r = run("simulate", "--scenario", "examples/scenarios/ceiling.yaml", "--json");
        assertEquals(0, r.code(), r.err());
        List<JsonNode> ticks = new ArrayList<>();
        List<JsonNode> summaries = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            (n.path("summary").asBoolean(false) ? summaries : ticks).add(n);
        }
        // ceiling.yaml: 2400 s at 15 s ticks, one class: ticks at 0, 15, …, 2400.
        assertEquals(161, ticks.size());
        for (JsonNode t : ticks) {
            for (String f : TICK_FIELDS) {
                assertTrue(t.has(f), "tick lacks " + f + ": " + t);
            }
            assertTrue(t.get("reasons").isArray());
        }
        assertEquals(15.0, ticks.get(1).get("t").asDouble(0.0));
        assertTrue(ticks.stream().anyMatch(t -> "db-connections".equals(t.get("bindingCeiling").asString(null))));
        assertEquals(1, summaries.size());
        for (String f : SUMMARY_FIELDS) {
            assertTrue(summaries.get(0).has(f), "summary lacks " + f);
        }
        assertTrue(summaries.get(0).get("jobsCompleted").asLong(0L) > 10_000);
        assertTrue(summaries.get(0).get("replicaSeconds").asDouble(0.0) > 0);
    }

    @Test
    void aBaselineRunsTheSameWorldAndEveryLineNamesItsPolicy() throws Exception {
        Run r = run("simulate", "--scenario", "examples/scenarios/outage-in-burst.yaml", "--baseline",
                "keda:listLength=5", "--json");
        assertEquals(0, r.code(), r.err());
        java.util.Map<String, JsonNode> summaries = new java.util.LinkedHashMap<>();
        int kedaTicks = 0;
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            assertTrue(n.has("policy"), n.toString());
            if (n.path("summary").asBoolean(false)) {
                summaries.put(n.get("policy").asString(""), n);
            } else if (n.get("policy").asString("").startsWith("keda")) {
                kedaTicks++;
                assertTrue(n.get("explanation").asString("").startsWith("KEDA"), n.toString());
            }
        }
        assertEquals(java.util.List.of("headroom", "keda:listLength=5"), java.util.List.copyOf(summaries.keySet()));
        assertEquals(161, kedaTicks);
        JsonNode h = summaries.get("headroom");
        JsonNode k = summaries.get("keda:listLength=5");
        // Same world: the same jobs arrive for both (completed counts differ by at most what is left waiting).
        assertTrue(Math.abs(h.get("jobsCompleted").asLong(0L) - k.get("jobsCompleted").asLong(0L)) < 100, r.out());
        // KEDA reads the outage as an empty queue; Headroom holds.
        assertTrue(h.get("replicaSeconds").asDouble(0.0) < k.get("replicaSeconds").asDouble(0.0));
    }

    @Test
    void twoRulesThatDifferInOptionsGetTwoSummariesAndEveryTickItsAge() throws Exception {
        // Issue 29: they used to share one label, so one summary overwrote the other; baseline ticks had no age.
        Run r = run("simulate", "--scenario", "examples/scenarios/outage-in-burst.yaml", "--baseline",
                "keda:listLength=5", "--baseline", "keda:listLength=5,inFlight=true", "--json");
        assertEquals(0, r.code(), r.err());
        java.util.List<String> summaries = new java.util.ArrayList<>();
        int kedaTicksWithAge = 0;
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            if (n.path("summary").asBoolean(false)) {
                summaries.add(n.get("policy").asString(""));
            } else if (n.get("policy").asString("").startsWith("keda") && n.get("oldestAgeSeconds").isNumber()) {
                kedaTicksWithAge++;
            }
        }
        assertEquals(java.util.List.of("headroom", "keda:listLength=5", "keda:listLength=5,inFlight=true"), summaries);
        // Every tick outside the 300 s metrics outage (161 ticks, 20 of them in the outage) shows the age, for both rules.
        assertEquals(2 * (161 - 20), kedaTicksWithAge, r.out().length() + " chars");
    }

    @Test
    void theTermsOfEveryTickAreInTheJson() throws Exception {
        Run r = run("simulate", "--scenario", "examples/scenarios/dependency-saturation.yaml", "--json");
        boolean sawDeff = false;
        boolean sawGovernor = false;
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            for (JsonNode t : n.path("terms")) {
                sawDeff |= t.get("name").asString("").equals("D_eff");
                sawGovernor |= t.get("name").asString("").equals("governor") && !n.get("governorLimit").isNull();
            }
        }
        assertTrue(sawDeff && sawGovernor);
    }

    @Test
    void aBadBaselineIsAUsageError() {
        Run r = run("simulate", "--scenario", "examples/scenarios/burst.yaml", "--baseline", "keda:listLength=-1");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("listLength must be > 0"), r.err());
        assertTrue(r.out().isEmpty());
    }

    @Test
    void missingTelemetryIsNullNotZero() throws Exception {
        Run r = run("simulate", "--scenario", "examples/scenarios/metric-outage.yaml", "--json");
        assertEquals(0, r.code(), r.err());
        boolean sawOutage = false;
        for (String line : r.out().split("\n")) {
            JsonNode n = JSON.readTree(line);
            if (!n.path("summary").asBoolean(false) && n.get("t").asDouble(0.0) == 705) {
                assertTrue(n.get("queueLength").isNull(), n.toString());
                assertTrue(n.get("estimatedSlots").isNull(), n.toString());
                sawOutage = true;
            }
        }
        assertTrue(sawOutage);
    }

    @Test
    void sameScenarioSameOutput() {
        Run a = run("simulate", "--scenario", "examples/scenarios/burst.yaml", "--json");
        Run b = run("simulate", "--scenario", "examples/scenarios/burst.yaml", "--json");
        assertEquals(a.out(), b.out());
    }

    @Test
    void textOutputEndsWithASummaryTable() {
        Run r = run("simulate", "--scenario", "examples/scenarios/burst.yaml");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("max age s"), r.out());
        assertTrue(r.out().contains("checkout-events"));
    }

    @Test
    void producersThatObeyAdmissionHaveTheirRefusalsInTheSummary() throws Exception {
        Run text = run("simulate", "--scenario", "examples/scenarios/admission-burst.yaml");
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().matches("(?s).*pdf-ingest: \\d+ jobs refused by its producers \\(\\d+ refusals, each retried\\),"
                + " 0 still held at the end.*"), text.out());
        Run json = run("simulate", "--scenario", "examples/scenarios/admission-burst.yaml", "--json");
        String[] lines = json.out().strip().split("\n");
        JsonNode summary = tools.jackson.databind.json.JsonMapper.builder().build().readTree(lines[lines.length - 1]);
        assertTrue(summary.get("jobsRejected").asLong() > 0, summary.toString());
        assertEquals(0, summary.get("jobsHeld").asLong());
        assertTrue(summary.get("rejections").asLong() >= summary.get("jobsRejected").asLong());
        Run free = run("simulate", "--scenario", "examples/scenarios/burst.yaml", "--json");
        assertFalse(free.out().contains("jobsRejected"), "producers that obey nothing add no field");
    }

    @Test
    void aBadScenarioNamesTheFieldAndExitsWithTwo(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, """
                name: bad
                durationSeconds: 600
                classes:
                  - name: c
                    service: {distribution: exponential, meanSeconds: 1}
                    policy:
                      targetUtilization: 1.5
                """);
        Run r = run("simulate", "--scenario", bad.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad.yaml:7"), r.err());
        assertTrue(r.err().contains("targetUtilization"), r.err());
        assertTrue(r.out().isEmpty(), "nothing simulated on a bad file");
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, run("simulate").code());
        assertEquals(2, run("simulate", "--scenario", "no/such/file.yaml").code());
        assertEquals(2, run("simulate", "--bogus").code());
        assertEquals(2, run("frobnicate").code());
        assertEquals(2, run("--speed=fast").code());
        assertEquals(2, run("--speed=0").code());
        assertEquals(2, run("--colour=blue").code());
        assertTrue(run("--seed=x").err().contains("--seed"));
        Run help = run("help");
        assertEquals(0, help.code());
        assertFalse(help.out().isEmpty());
    }
}
