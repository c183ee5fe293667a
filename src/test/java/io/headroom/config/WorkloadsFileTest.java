package io.headroom.config;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Signals;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Workloads files: the example reads; every problem is located; secrets stay references. */
class WorkloadsFileTest {

    static final String CLASS = """
            classes:
              - name: q
                context: dev
                target: {name: worker}
                signals:
                  queueLength: sum(q_len)
                  oldestAge: max(q_age)
                  arrivalRate: sum(rate(q_in[1m]))
                  meanService: sum(rate(s_sum[1m])) / sum(rate(s_count[1m]))
            """;

    static WorkloadsFile read(String yaml) throws ConfigException {
        return WorkloadsFile.read("w.yaml", yaml, ConfigTree.Format.YAML, null);
    }

    @Test
    void theExampleFileReadsWithEveryFeature() throws Exception {
        WorkloadsFile f = WorkloadsFile.read(Path.of("examples/workloads.yaml"));
        PrometheusEndpoint p = f.prometheus();
        assertEquals(URI.create("https://prometheus.example.internal:9090"), p.url());
        assertEquals(SecretRef.env("PROMETHEUS_TOKEN"), p.bearerToken());
        assertFalse(p.insecureSkipVerify());
        assertEquals(Duration.ofSeconds(3), p.timeout());
        assertEquals(List.of("payments", "enrichment", "refunds"), f.classes().stream().map(ClassConfig::name).toList());

        ClassConfig pay = f.classConfig("payments").orElseThrow();
        assertEquals("prod-eu-1/payments/deployment/payments-worker", pay.target().toString());
        assertEquals("pg_settings_max_connections{server=\"orders-db\"} * 0.5",
                pay.query(WorkloadsFile.ceilingSignal("db-connections", "budget")));
        assertTrue(pay.query(Signals.MEAN_SERVICE).contains("/ sum by (queue) (rate(job_duration_seconds_count"));
        ClassConfig refunds = f.classConfig("refunds").orElseThrow();
        for (SignalName signal : List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE,
                Signals.MEAN_SERVICE, Signals.IN_FLIGHT, Signals.COMPLETION_RATE, WorkloadsFile.REPLICAS)) {
            assertEquals(pay.groupedQuery(signal).key(), refunds.groupedQuery(signal).key(),
                    signal + ": one grouped query for both classes (the file's aliases)");
        }
        assertEquals("refunds", refunds.groupedQuery(Signals.QUEUE_LENGTH).value());
        assertEquals("payments-worker", pay.groupedQuery(WorkloadsFile.REPLICAS).value());
        assertNull(pay.groupedQuery(Signals.POD_MEMORY), "its own query beside the grouped ones");
        assertTrue(pay.queries().containsKey(WorkloadsFile.REPLICAS));
        assertEquals("sum by (pod) (worker_jobs_in_flight{queue=\"payments\"})", pay.podInFlightQuery());
        assertFalse(pay.queries().containsKey(Signals.POD_IN_FLIGHT));
        CeilingSpec db = pay.policy().ceilings().get(0);
        assertEquals(new CeilingSpec("db-connections", CeilingSpec.Source.signal(SignalName.of("ceiling:db-connections:budget")),
                CeilingSpec.Source.constant(10), 10), db);
        assertEquals(CeilingSpec.Source.signal(Signals.POD_MEMORY), pay.policy().ceilings().get(1).perReplica());
        assertEquals(120.0, pay.policy().maxAgeSeconds());

        ClassConfig enr = f.classConfig("enrichment").orElseThrow();
        assertEquals("StatefulSet", enr.target().kind());
        assertEquals(CeilingSpec.Source.signal(SignalName.of("ceiling:provider-quota:perReplica")),
                enr.policy().ceilings().get(0).perReplica());
        assertEquals(600, enr.policy().scaleDown().stabilizationWindowSeconds());
    }

    @Test
    void defaultsApplyWhenOptionalFieldsAreAbsent() throws Exception {
        WorkloadsFile f = read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS);
        assertEquals(PrometheusEndpoint.of(URI.create("http://127.0.0.1:9090")), f.prometheus());
        ClassConfig c = f.classes().get(0);
        assertEquals("default", c.target().namespace());
        assertEquals("Deployment", c.target().kind());
        assertEquals(List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE),
                List.copyOf(c.queries().keySet()));
        assertEquals(0.7, c.policy().targetUtilization());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no url              | 'prometheus: {timeoutSeconds: 3}'                         | w.yaml:1: prometheus.url: is required
            ftp url             | 'prometheus: {url: ftp://h}'                              | w.yaml:1: prometheus.url: must start with http:// or https://, got "ftp://h"
            credentials in url  | 'prometheus: {url: "http://u:p@h:9090"}'                  | w.yaml:1: prometheus.url: must not contain credentials
            timeout zero        | 'prometheus:\\n  url: http://h\\n  timeoutSeconds: 0'      | w.yaml:3: prometheus.timeoutSeconds: must be in (0, 300], got 0
            two tokens          | 'prometheus: {url: http://h, bearerTokenFile: t, bearerTokenEnv: T}' | w.yaml:1: prometheus.bearerTokenEnv: give either bearerTokenFile or bearerTokenEnv, not both
            missing token file  | 'prometheus: {url: http://h, bearerTokenFile: /nonexistent/token}' | w.yaml:1: prometheus.bearerTokenFile: no such file: /nonexistent/token
            bad env name        | 'prometheus: {url: http://h, bearerTokenEnv: "A-B"}'       | w.yaml:1: prometheus.bearerTokenEnv: must be an environment variable name
            token and basic     | 'prometheus:\\n  url: http://h\\n  bearerTokenEnv: T\\n  basicAuth: {username: u, passwordEnv: P}' | w.yaml:4: prometheus.basicAuth: give either a bearer token or basicAuth, not both
            basic no password   | 'prometheus:\\n  url: http://h\\n  basicAuth: {username: u}' | w.yaml:3: prometheus.basicAuth.passwordFile: basicAuth needs passwordFile or passwordEnv
            password in file    | 'prometheus:\\n  url: http://h\\n  basicAuth: {username: u, passwordEnv: P, password: hunter2}' | w.yaml:3: prometheus.basicAuth.password: unknown field
            insecure not bool   | 'prometheus: {url: https://h, insecureSkipVerify: "yes"}'  | w.yaml:1: prometheus.insecureSkipVerify: expected true or false, got a string ("yes")
            insecure on http    | 'prometheus: {url: http://h, insecureSkipVerify: true}'    | w.yaml:1: prometheus.insecureSkipVerify: applies only to an https url
            unknown top field   | 'prometheus: {url: http://h}\\nclazzes: []'                | w.yaml:2: clazzes: unknown field
            """)
    void prometheusProblemsAreLocated(String name, String prometheus, String expected) {
        String yaml = prometheus.replace("\\n", "\n") + "\n" + CLASS;
        ConfigException e = assertThrows(ConfigException.class, () -> read(yaml));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            missing signal      | '    signals: {queueLength: a, arrivalRate: b, meanService: c}' | w.yaml:6: classes[0].signals.oldestAge: is required
            blank signal        | '    signals: {queueLength: " ", oldestAge: a, arrivalRate: b, meanService: c}' | w.yaml:6: classes[0].signals.queueLength: must not be blank
            unknown signal      | '    signals: {queueLen: x, queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}' | w.yaml:6: classes[0].signals.queueLen: unknown field
            signal not string   | '    signals: {queueLength: 5, oldestAge: a, arrivalRate: b, meanService: c}' | w.yaml:6: classes[0].signals.queueLength: expected a string, got a number (5)
            ceiling query needs conservative | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\\n    policy:\\n      ceilings:\\n        - {name: db, budgetQuery: x, perReplica: 10}' | w.yaml:9: classes[0].policy.ceilings[0].conservativeReplicas: is required when the ceiling reads a signal
            ceiling two budgets | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\\n    policy:\\n      ceilings:\\n        - {name: db, budget: 3, budgetQuery: x, conservativeReplicas: 1}' | w.yaml:9: classes[0].policy.ceilings[0].budgetQuery: give only one of budget, budgetSignal and budgetQuery
            ceiling unknown signal | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\\n    policy:\\n      ceilings:\\n        - {name: mem, budget: 100, perReplicaSignal: podMemory, conservativeReplicas: 1}' | w.yaml:9: classes[0].policy.ceilings[0].perReplicaSignal: signal 'podMemory' is not defined in this class's signals (use perReplicaQuery for PromQL)
            ceiling per-pod signal | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c, podInFlight: d}\\n    policy:\\n      ceilings:\\n        - {name: jobs, budget: 100, perReplicaSignal: podInFlight, conservativeReplicas: 1}' | w.yaml:9: classes[0].policy.ceilings[0].perReplicaSignal: signal 'podInFlight' is one series per pod, read only by drains; a ceiling needs one number
            blank podInFlight   | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c, podInFlight: " "}' | w.yaml:6: classes[0].signals.podInFlight: must not be blank
            drain needs per-pod | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\n    drain: {deadlineSeconds: 60}' | w.yaml:7: classes[0].drain: draining on scale-down needs a podInFlight signal
            drain bad deadline  | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c, podInFlight: d}\n    drain: {deadlineSeconds: 0}' | w.yaml:7: classes[0].drain.deadlineSeconds: must be in (0, 86400], got 0
            drain unknown field | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c, podInFlight: d}\n    drain: {deadline: 60}' | w.yaml:7: classes[0].drain.deadline: unknown field
            bad policy value    | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\\n    policy: {targetUtilization: 2}' | w.yaml:7: classes[0].policy.targetUtilization: must be in (0, 1], got 2
            bad kind            | '    signals: {queueLength: a, oldestAge: a, arrivalRate: b, meanService: c}\\n    target: {kind: Job, name: w}' | w.yaml:6: classes[0].target.kind: must be Deployment or StatefulSet, got "Job"
            """)
    void classProblemsAreLocated(String name, String tail, String expected) {
        String yaml = """
                prometheus: {url: http://h}
                classes:
                  - name: q
                    context: dev
                """ + (tail.contains("target:") ? "" : "    target: {name: w}\n") + tail.replace("\\n", "\n") + "\n";
        ConfigException e = assertThrows(ConfigException.class, () -> read(yaml));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage() + "\nin\n" + yaml);
    }

    @Test
    void aDrainBlockMakesScaleDownsDrainWithItsDeadline() throws Exception {
        String perPod = "      podInFlight: sum by (pod) (jobs_in_flight{queue=\"q\"})\n";
        ClassConfig c = read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS + perPod
                + "    drain: {deadlineSeconds: 90}\n").classes().get(0);
        assertEquals(java.time.Duration.ofSeconds(90), c.workloadClass().drainOnScaleDown());
        assertEquals(java.time.Duration.ofMinutes(5), read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS
                + perPod + "    drain: {}\n").classes().get(0).workloadClass().drainOnScaleDown(), "the default");
        assertNull(read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS + perPod).classes().get(0)
                .workloadClass().drainOnScaleDown(), "without drain: scale down directly");
    }

    @Test
    void podInFlightIsKeptApartFromTheTickQueries() throws Exception {
        WorkloadsFile f = read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS
                + "      podInFlight: sum by (pod) (jobs_in_flight{queue=\"q\"})\n");
        ClassConfig c = f.classes().get(0);
        assertEquals("sum by (pod) (jobs_in_flight{queue=\"q\"})", c.podInFlightQuery());
        assertEquals(List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE),
                List.copyOf(c.queries().keySet()), "several series by design: never a query of the tick");
        assertNull(c.query(Signals.POD_IN_FLIGHT));
        assertNull(read("prometheus: {url: 'http://127.0.0.1:9090'}\n" + CLASS).classes().get(0).podInFlightQuery());
    }

    @Test
    void everyProblemIsReportedAtOnceAndNothingIsBuilt() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("""
                prometheus: {url: ftp://h, timeoutSeconds: -1}
                classes:
                  - name: a
                    target: {name: w}
                    signals: {queueLength: x}
                  - name: a
                    context: c
                    target: {name: w}
                    signals: {queueLength: x, oldestAge: x, arrivalRate: x, meanService: x}
                  - name: a
                    context: c
                    target: {name: w}
                    signals: {queueLength: x, oldestAge: x, arrivalRate: x, meanService: x}
                """));
        List<String> lines = e.problems().stream().map(ConfigException.Problem::toString).toList();
        assertTrue(lines.contains("w.yaml:1: prometheus.url: must start with http:// or https://, got \"ftp://h\""), lines.toString());
        assertTrue(lines.contains("w.yaml:1: prometheus.timeoutSeconds: must be in (0, 300], got -1"), lines.toString());
        assertTrue(lines.contains("w.yaml:3: classes[0].context: is required"), lines.toString());
        assertTrue(lines.contains("w.yaml:5: classes[0].signals.oldestAge: is required"), lines.toString());
        assertTrue(lines.contains("w.yaml:10: classes[2].name: class name 'a' is used twice (first at line 6)"),
                lines.toString());
    }

    @Test
    void scenarioPoliciesStillRefuseQueries() {
        ConfigException e = assertThrows(ConfigException.class, () -> PolicyReader.read(ConfigTree.parse("p.yaml",
                "ceilings:\n  - {name: db, budgetQuery: x, conservativeReplicas: 1}", ConfigTree.Format.YAML)));
        assertTrue(e.getMessage().contains("ceilings[0].budgetQuery: unknown field"), e.getMessage());
    }

    @Test
    void secretsStayReferencesAndAreReadOnlyWhenAsked(@TempDir Path dir) throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "s3cret-token\n");
        Files.writeString(dir.resolve("pw"), "hunter2");
        Path file = dir.resolve("w.yaml");
        Files.writeString(file, "prometheus:\n  url: http://127.0.0.1:9\n  bearerTokenFile: token\n" + CLASS);
        WorkloadsFile f = WorkloadsFile.read(file);
        SecretRef ref = f.prometheus().bearerToken();
        assertEquals(token.toString(), ref.location(), "relative to the file's directory");
        assertFalse(f.toString().contains("s3cret"), f.toString());
        assertFalse(f.prometheus().toString().contains("s3cret"));
        assertEquals("s3cret-token", ref.read(Map.<String, String>of()::get));

        // To another host over plain http only with the explicit allowance (WorkloadsFileBoundsTest).
        Files.writeString(file, "prometheus:\n  url: http://h\n  basicAuth: {username: u, passwordFile: pw}\n"
                + "  allowInsecureCredentials: true\n" + CLASS);
        PrometheusEndpoint.BasicAuth basic = WorkloadsFile.read(file).prometheus().basicAuth();
        assertEquals("u", basic.username());
        assertFalse(basic.toString().contains("hunter2"));
        assertEquals("hunter2", basic.password().read(Map.<String, String>of()::get));

        SecretRef env = SecretRef.env("PROM_TOKEN");
        IllegalStateException unset = assertThrows(IllegalStateException.class, () -> env.read(Map.<String, String>of()::get));
        assertEquals("environment variable PROM_TOKEN is not set", unset.getMessage());
        assertEquals("tok", env.read(Map.<String, String>of("PROM_TOKEN", "tok")::get));
        assertNull(f.prometheus().caFile());
    }
}
