package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom whatif} as an operator runs it: against a real Prometheus, and with bad input. */
@ExtendWith(SharedPrometheus.class)
class WhatIfCommandTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> all = new ArrayList<>(List.of("whatif"));
        all.addAll(List.of(args));
        int code = Cli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Path workloads(Path dir, String url) throws Exception {
        Path f = dir.resolve("workloads.yaml");
        Files.writeString(f, "prometheus:\n  url: " + url + "\n  timeoutSeconds: 3\nclasses:\n" + """
                  - name: plan-a
                    context: test
                    target: {name: worker-a}
                    signals:
                      queueLength: sum(hr_queue_length{class="plan-a"})
                      oldestAge: max(hr_oldest_age_seconds{class="plan-a"})
                      arrivalRate: sum(rate(hr_jobs_total{class="plan-a"}[5s]))
                      meanService: |
                        sum(rate(hr_service_seconds_sum{class="plan-a"}[5s]))
                          / sum(rate(hr_service_seconds_count{class="plan-a"}[5s]))
                      replicas: max(hr_replicas{class="plan-a"})
                    policy:
                      slotsPerReplica: 4
                      minReplicas: 1
                      maxReplicas: 3
                      maxAgeSeconds: 120
                      pollIntervalSeconds: 1
                      ceilings:
                        - {name: tenant, replicas: 30}
                """);
        return f;
    }

    @Test
    void theComparisonFromARealPrometheusAsJsonAndAsATable(SharedPrometheus.Fixture fx, @TempDir Path dir)
            throws Exception {
        try (var c = fx.client()) {
            Await.until("10 s of samples", Duration.ofSeconds(40),
                    () -> c.query("count_over_time(hr_jobs_total{class=\"plan-a\"}[10s])"),
                    o -> o instanceof QueryOutcome.Value v && v.value() >= 9);
        }
        Path f = workloads(dir, fx.url().toString());
        Run json = run("--config", f.toString(), "--class", "plan-a", "--set", "maxReplicas=8", "--window", "1m",
                "--json");
        assertEquals(0, json.code(), json.err());
        JsonNode o = new ObjectMapper().readTree(json.out());
        assertEquals("plan-a", o.get("class").asString(""));
        assertTrue(o.get("source").asString("").startsWith(fx.url().toString()), o.get("source").asString(""));
        assertEquals(60, o.get("seconds").asDouble(0.0), "a minute on the 1 s grid");
        assertEquals("8", o.get("edits").get("maxReplicas").asString(""));
        assertEquals(7, o.get("rows").size());
        assertEquals("Desired replicas, end", o.get("rows").get(0).get("what").asString(""));
        assertTrue(o.get("baseline").asString("").startsWith("KEDA's rule"), o.toString());
        assertTrue(o.get("rows").get(0).get("current").asInt(0) <= 3, "the live max holds: " + o);
        assertTrue(o.get("noHistory").toString().contains("completionRate"), "said, not read as 0: " + o);

        Run table = run("--config", f.toString(), "--class", "plan-a", "--set", "maxReplicas=8", "--window", "1m",
                "--keda-list-length", "0");
        assertEquals(0, table.code(), table.err());
        assertTrue(table.out().contains("Live policy") && table.out().contains("Replica-hours"), table.out());
        assertTrue(table.out().contains("Nothing is applied"), table.out());
        assertTrue(!table.out().contains("KEDA's rule"), "--keda-list-length 0 leaves the third run out");
    }

    @Test
    void badInputIsSaidClearlyWithExitCodeTwo(@TempDir Path dir) throws Exception {
        Path f = workloads(dir, "http://127.0.0.1:1");
        String cfg = f.toString();
        assertBad(run("--class", "plan-a"), "--config FILE (or --scenario FILE) is required");
        assertBad(run("--config", cfg), "--class NAME is required");
        assertBad(run("--config", cfg, "--class", "nobody"), "no class 'nobody'");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "maxReplicas"), "--set needs key=value");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "speed=3"), "unknown key 'speed'");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "maxReplicas=lots"),
                "--set maxReplicas: 'lots' is not a whole number");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "maxReplicas=2", "--set", "minReplicas=3"),
                "--set minReplicas: '3' is above max replicas (2)");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "targetUtilization=1.5"),
                "--set targetUtilization: '1.5' is more than 1: the target is a share of the slots");
        assertBad(run("--config", cfg, "--class", "plan-a", "--set", "ceiling.db=4"), "no ceiling 'db'; its ceilings: tenant");
        assertBad(run("--config", cfg, "--class", "plan-a", "--window", "2w"), "--window must be a duration");
        assertBad(run("--config", cfg, "--class", "plan-a", "--window", "8d"), "at most 7d");
        assertBad(run("--config", cfg, "--class", "plan-a", "--keda-list-length", "-1"), "--keda-list-length");
        // Issue 27 item 7: 1e12 was accepted (KEDA's run then never scaled); a sane range, the field named.
        for (String absurd : List.of("1e12", "1000001", "1e-9", "0.0001")) {
            assertBad(run("--config", cfg, "--class", "plan-a", "--keda-list-length", absurd),
                    "--keda-list-length must be 0 (no KEDA run) or between 0.01 and 1000000 waiting jobs per replica,"
                    + " got '" + absurd + "'");
        }
        assertBad(run("--config", dir.resolve("missing.yaml").toString(), "--class", "plan-a"), "missing.yaml");
        assertBad(run("--config", cfg, "--class", "plan-a", "--frobnicate"), "unknown argument '--frobnicate'");
        Run help = run("--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("ceiling.NAME=N"), help.out());
        Run all = new Run(Cli.run(new String[] {"help"}, new PrintStream(new ByteArrayOutputStream()),
                System.err), "", "");
        assertEquals(0, all.code());
        assertTrue(Cli.usage().contains("headroom whatif (--config FILE | --scenario FILE) --class NAME"), Cli.usage());
    }

    @Test
    void aScenarioIsAHistoryWithoutAClusterOrPrometheus() throws Exception {
        Path burst = Path.of("examples/scenarios/burst.yaml");
        Run r = run("--scenario", burst.toString(), "--class", "checkout-events", "--set", "maxReplicas=2",
                "--window", "20m", "--json");
        assertEquals(0, r.code(), r.err());
        JsonNode o = new ObjectMapper().readTree(r.out());
        assertEquals("scenario burst", o.get("source").asString(""));
        assertEquals(1200, o.get("seconds").asDouble(0.0), "the scenario's last 20 minutes");
        JsonNode desired = o.get("rows").get(0);
        assertEquals("2", desired.get("edited").asString(""), "capped at the edited max: " + o);
        JsonNode maxAge = o.get("rows").get(1);
        assertTrue(maxAge.get("change").asString("").startsWith("+"), "the burst waits longer under a cap of 2: " + o);
        Run again = run("--scenario", burst.toString(), "--class", "checkout-events", "--set", "maxReplicas=2",
                "--window", "20m", "--json");
        assertEquals(r.out(), again.out(), "deterministic: the scenario's seed and the replay's");
        assertBad(run("--scenario", burst.toString(), "--class", "nobody"), "its classes: checkout-events");
        assertBad(run("--scenario", burst.toString(), "--config", burst.toString(), "--class", "x"), "give one");
    }

    @Test
    void tooLittleHistoryFailsWithExitCodeOneAndSaysWhy(@TempDir Path dir) throws Exception {
        // Nothing listens on port 1: every signal has no past, which is a data problem, not bad input.
        Path f = workloads(dir, "http://127.0.0.1:1");
        Run r = run("--config", f.toString(), "--class", "plan-a", "--set", "maxReplicas=8", "--window", "90s");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.err().contains("no service time is known") || r.err().contains("not enough history"), r.err());
        assertTrue(r.err().contains("no history for"), r.err());
    }

    private static void assertBad(Run r, String says) {
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().contains(says), "expected '" + says + "' in: " + r.err());
    }
}
