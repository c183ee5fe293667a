package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.headroom.prometheus.QueryOutcome;
import io.headroom.prometheus.it.Await;
import io.headroom.prometheus.it.SharedPrometheus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom plan} as an operator runs it, against a real Prometheus holding known values (SharedPrometheus). */
@ExtendWith(SharedPrometheus.class)
class PlanCommandTest {
    static final ObjectMapper JSON = new ObjectMapper();

    record Run(int code, String out, String err) {
        List<JsonNode> lines() throws Exception {
            List<JsonNode> out = new ArrayList<>();
            for (String l : this.out.split("\n")) {
                if (!l.isBlank()) {
                    out.add(JSON.readTree(l));
                }
            }
            return out;
        }
    }

    static Run run(String... args) {
        return run(1, args);
    }

    static Run run(int maxRounds, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = maxRounds == 1 && List.of(args).contains("--once")
                ? Cli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                : PlanCommand.run(List.of(args).subList(1, args.length), new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8), k -> null, d -> { }, maxRounds);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Path workloads(Path dir, SharedPrometheus.Fixture fx, String classes) throws Exception {
        Path f = dir.resolve("workloads.yaml");
        Files.writeString(f, "prometheus:\n  url: " + fx.url() + "\n  timeoutSeconds: 3\nclasses:\n" + classes);
        return f;
    }

    static final String PLAN_A = """
              - name: plan-a
                context: test
                namespace: work
                target: {name: worker-a}
                signals:
                  queueLength: sum(hr_queue_length{class="plan-a"})
                  oldestAge: max(hr_oldest_age_seconds{class="plan-a"})
                  arrivalRate: sum(rate(hr_jobs_total{class="plan-a"}[5s]))
                  meanService: |
                    sum(rate(hr_service_seconds_sum{class="plan-a"}[5s]))
                      / sum(rate(hr_service_seconds_count{class="plan-a"}[5s]))
                  queuedServiceSeconds: sum(hr_queued_service_seconds{class="plan-a"})
                  replicas: max(hr_replicas{class="plan-a"})
                policy:
                  slotsPerReplica: 4
                  maxAgeSeconds: 120
                  startupSeconds: 10   # 120 s objective − 50 s age − 10 s start-up leaves D = 60 s to drain
                  ceilings:
                    - {name: db-connections, budgetQuery: hr_db_connection_budget, perReplica: 10, conservativeReplicas: 5}
                    - {name: tenant, replicas: 30}
            """;

    static final String PLAN_B = """
              - name: plan-b
                context: test
                target: {name: worker-b}
                signals:
                  queueLength: sum(hr_queue_length{class="nobody"})
                  oldestAge: max(hr_oldest_age_seconds{class="plan-a"})
                  arrivalRate: sum(rate(hr_jobs_total{class="plan-a"}[5s]))
                  meanService: "8"
            """;

    @Test
    void jsonMatchesTheHandComputedDecision(SharedPrometheus.Fixture fx, @TempDir Path dir) throws Exception {
        fx.awaitSteadyRates();
        Path file = workloads(dir, fx, PLAN_A + PLAN_B);
        Instant before = Instant.now();
        Run r = run("plan", "--config", file.toString(), "--once", "--json", "--replicas", "plan-b=4");
        assertEquals(0, r.code(), r.err() + r.out());
        List<JsonNode> lines = r.lines();
        assertEquals(2, lines.size(), r.out());

        JsonNode a = lines.get(0);
        assertEquals("plan-a", a.get("class").asString(""));
        assertEquals(2, a.get("currentReplicas").asInt(0), "from the replicas signal");
        assertEquals("signal", a.get("currentReplicasFrom").asString(""));
        JsonNode in = a.get("inputs");
        double lambda = in.get("arrivalRate").get("value").asDouble(0.0);
        double s = in.get("meanService").get("value").asDouble(0.0);
        double q = in.get("queuedServiceSeconds").get("value").asDouble(0.0);
        assertEquals(0.5, lambda, 0.025);
        assertEquals(8.0, s, 0.08);
        assertEquals(240.0, q);
        assertEquals(30.0, in.get("queueLength").get("value").asDouble(0.0));
        assertEquals(50.0, in.get("oldestAge").get("value").asDouble(0.0));
        assertEquals(200.0, in.get("ceiling:db-connections:budget").get("value").asDouble(0.0));
        assertEquals("OK", in.get("arrivalRate").get("status").asString(""));
        Instant sampled = Instant.parse(in.get("queueLength").get("sampleTimestamp").asString(""));
        assertFalse(sampled.isBefore(before.minusSeconds(5)), "sampled at " + sampled);
        assertEquals("NOT_COLLECTED", in.get("inFlight").get("status").asString("")); // plan-a has no inFlight query
        assertTrue(in.get("inFlight").get("value").isNull(), "missing is null, never 0");
        // The brief's worked example: (0.5/s × 8 s + 240 s / 60 s) / 0.7 = 11.4 → 12 slots → 3 replicas of 4.
        int slots = (int) Math.ceil((lambda * s + q / 60) / 0.7 - 1e-9);
        assertEquals(12, slots);
        assertEquals(slots, a.get("estimatedSlots").asInt(0));
        assertEquals(3, a.get("slotReplicas").asInt(0));
        assertTrue(a.get("ageReplicas").isNull(), "age 50 s is within the 120 s objective");
        assertEquals(3, a.get("desiredReplicas").asInt(0));
        assertEquals(20, a.get("ceilings").get("db-connections").asInt(0), "floor(200 / 10)");
        assertEquals(30, a.get("ceilings").get("tenant").asInt(0));
        assertTrue(a.get("bindingCeiling").isNull());
        assertTrue(a.get("explanation").asString("").contains("12 slots → 3 replicas"), a.get("explanation").asString(""));

        JsonNode b = lines.get(1);
        assertEquals("plan-b", b.get("class").asString(""));
        assertEquals(4, b.get("currentReplicas").asInt(0));
        assertEquals("--replicas", b.get("currentReplicasFrom").asString(""));
        assertEquals(4, b.get("desiredReplicas").asInt(0), "no data holds replicas");
        assertTrue(b.get("reasons").toString().contains("TELEMETRY_MISSING"), b.toString());
        JsonNode bq = b.get("inputs").get("queueLength");
        assertEquals("MISSING", bq.get("status").asString(""));
        assertTrue(bq.get("reason").asString("").startsWith("EMPTY_RESULT: "), bq.toString());
        assertTrue(b.get("estimatedSlots").isNull());
    }

    @Test
    void theTableNamesEachClassAndAMissingReplicaCountIsAnErrorForThatClass(SharedPrometheus.Fixture fx,
                                                                              @TempDir Path dir) throws Exception {
        Path file = workloads(dir, fx, PLAN_A + PLAN_B);
        Run r = run("plan", "--config", file.toString(), "--once");
        assertEquals(1, r.code(), "plan-b has no replica count: " + r.out());
        assertTrue(r.out().contains("class"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("plan-a ")), r.out());
        assertTrue(r.out().contains("plan-b                 error: current replicas unknown: no 'replicas' signal"
                + " in the config and no --replicas plan-b=N"), r.out());
    }

    @Test
    void aSeriesThatStoppedUpdatingIsReportedStaleWithItsOwnSampleTime(SharedPrometheus.Fixture fx,
                                                                        @TempDir Path dir) throws Exception {
        Instant stopped = Instant.now().minusSeconds(40).truncatedTo(ChronoUnit.MILLIS);
        fx.exporter.gaugeAt("hr_pushed_queue_length", "class=\"plan-stale\"", 7, stopped);
        try (var c = fx.client()) {
            Await.until("the pushed series", Duration.ofSeconds(20),
                    () -> c.query("sum(hr_pushed_queue_length{class=\"plan-stale\"})"),
                    o -> o instanceof QueryOutcome.Value);
        }
        Path file = workloads(dir, fx, """
                  - name: plan-stale
                    context: test
                    target: {name: worker-s}
                    signals:
                      queueLength: sum(hr_pushed_queue_length{class="plan-stale"})
                      oldestAge: max(hr_oldest_age_seconds{class="plan-a"})
                      arrivalRate: sum(rate(hr_jobs_total{class="plan-a"}[5s]))
                      meanService: "8"
                """);
        Run r = run("plan", "--config", file.toString(), "--once", "--json", "--replicas", "plan-stale=6");
        assertEquals(0, r.code(), r.err() + r.out());
        JsonNode p = r.lines().get(0);
        JsonNode q = p.get("inputs").get("queueLength");
        assertEquals("STALE", q.get("status").asString(""), q.toString());
        assertEquals(7.0, q.get("value").asDouble(0.0));
        assertEquals(stopped, Instant.parse(q.get("sampleTimestamp").asString("")));
        assertTrue(q.get("reason").asString("").endsWith("s old (limit 30 s)"), q.toString());
        assertEquals("OK", p.get("inputs").get("oldestAge").get("status").asString(""));
        assertEquals(6, p.get("desiredReplicas").asInt(0), "a stale required input holds replicas");
        assertTrue(p.get("reasons").toString().contains("TELEMETRY_MISSING"), p.toString());
    }

    @Test
    void withoutOnceItRepeatsCarryingEachClassMemory(SharedPrometheus.Fixture fx, @TempDir Path dir)
            throws Exception {
        Path file = workloads(dir, fx, PLAN_A);
        List<Duration> pauses = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = PlanCommand.run(List.of("--config", file.toString(), "--json"),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, k -> null, pauses::add, 3);
        assertEquals(0, code);
        assertEquals(List.of(Duration.ofSeconds(15), Duration.ofSeconds(15)), pauses, "the polling interval");
        Map<String, Integer> perClass = new HashMap<>();
        for (String l : out.toString(StandardCharsets.UTF_8).split("\n")) {
            perClass.merge(JSON.readTree(l).get("class").asString(""), 1, Integer::sum);
        }
        assertEquals(Map.of("plan-a", 3), perClass);
    }

    @Test
    void everyRoundIsStampedByTheInjectedClock(SharedPrometheus.Fixture fx, @TempDir Path dir) throws Exception {
        Path file = workloads(dir, fx, PLAN_A);
        Instant fixed = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = PlanCommand.run(List.of("--config", file.toString(), "--json"),
                new PrintStream(out, true, StandardCharsets.UTF_8), System.err, k -> null, d -> { }, 2,
                java.time.Clock.fixed(fixed, java.time.ZoneOffset.UTC));
        assertEquals(0, code);
        List<JsonNode> lines = new Run(code, out.toString(StandardCharsets.UTF_8), "").lines();
        assertEquals(2, lines.size());
        for (JsonNode l : lines) {
            assertEquals(fixed, Instant.parse(l.get("at").asString("")), "the clock's time, not the wall clock's");
        }
    }

    @Test
    void aBadConfigExits2NamingFileLineAndField(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                prometheus:
                  url: http://127.0.0.1:9
                  timeoutSecs: 3
                classes: []
                """);
        Run r = run("plan", "--config", file.toString(), "--once", "--json");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bad.yaml:3: prometheus.timeoutSecs: unknown field"), r.err());
        assertTrue(r.err().contains("bad.yaml:4: classes: must name at least one class"), r.err());
        assertEquals("", r.out());

        Run unknownClass = run("plan", "--config", "examples/workloads.yaml", "--once", "--replicas", "nope=3");
        assertEquals(2, unknownClass.code());
        assertTrue(unknownClass.err().contains("no class 'nope' in workloads.yaml"), unknownClass.err());
        Run badCount = run("plan", "--config", "examples/workloads.yaml", "--once", "--replicas", "payments=-1");
        assertEquals(2, badCount.code());
        // An unset secret stops plan before any request (the environment here is empty on purpose).
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int noToken = PlanCommand.run(List.of("--config", "examples/workloads.yaml", "--once"), System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8), k -> null, d -> { }, 1);
        assertEquals(2, noToken);
        assertEquals("workloads.yaml: prometheus credentials: environment variable PROMETHEUS_TOKEN is not set",
                err.toString(StandardCharsets.UTF_8).strip());
    }
}
