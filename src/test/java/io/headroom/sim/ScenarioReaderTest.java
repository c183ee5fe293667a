package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxClassSpec.Distribution;
import io.headroom.sandbox.SandboxWorld;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioReaderTest {

    static final Path EXAMPLES = Path.of("examples", "scenarios");

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList().stream();
        }
    }

    @Test
    void theRequiredExamplesExist() {
        for (String name : List.of("burst", "metric-outage", "ceiling", "poison", "scale-down")) {
            assertTrue(Files.exists(EXAMPLES.resolve(name + ".yaml")), name);
        }
    }

    @ParameterizedTest
    @MethodSource("examples")
    void everyExampleParsesAndRunsWithinAnHour(Path file) throws ConfigException {
        Scenario s = ScenarioReader.read(file);
        assertTrue(s.durationSeconds() <= 3600, file.toString());
        assertTrue(s.tickSeconds() == 15 || s.tickSeconds() == 5, file.toString());
        for (ScenarioClass c : s.classes()) {
            assertEquals(s.tickSeconds(), c.policy().pollIntervalSeconds(), "poll follows the tick");
        }
        List<Simulator.ClassSummary> run = Simulator.run(s, line -> { });
        assertTrue(run.get(0).jobsCompleted() > 0, file.toString());
    }

    @Test
    void mapsEveryField() throws ConfigException {
        Scenario s = ScenarioReader.read("full.yaml", """
                name: full
                durationSeconds: 600
                tickSeconds: 5
                seed: 99
                start: 2026-03-01T12:00:00Z
                classes:
                  - name: a
                    arrival:
                      baseRate: 2
                      segments:
                        - {from: 10, to: 20, rate: 5}
                        - {from: 30, to: 40, rate: 1, rampTo: 3}
                      repeatSeconds: 100
                    service: {distribution: lognormal, meanSeconds: 2, cv: 0.8}
                    concurrency: 3
                    startupSeconds: 12
                    initialReplicas: 2
                    initialBacklog: 50
                    dependency: {limit: 10, slope: 1.5, baseLatencyMs: 40}
                    poison: {atSeconds: 50, clearAtSeconds: 80}
                    outages: [{from: 60, to: 70}]
                    podMemoryMb: 256
                    policy:
                      pollIntervalSeconds: 10
                      ceilings: [{name: db, budget: 100, perReplica: 10}]
                  - name: b
                    service: {distribution: uniform, minSeconds: 1, maxSeconds: 3}
                """, ConfigTree.Format.YAML);
        assertEquals("full", s.name());
        assertEquals(600, s.durationSeconds());
        assertEquals(5, s.tickSeconds());
        assertEquals(99, s.seed());
        assertEquals(Instant.parse("2026-03-01T12:00:00Z"), s.start());
        SandboxClassSpec a = s.classes().get(0).sandbox();
        assertEquals(2, a.baseRate());
        assertEquals(List.of(SandboxClassSpec.RateSegment.constant(10, 20, 5),
                SandboxClassSpec.RateSegment.ramp(30, 40, 1, 3)), a.segments());
        assertEquals(100.0, a.repeatSeconds());
        assertEquals(SandboxClassSpec.ServiceTime.lognormal(2, 0.8), a.service());
        assertEquals(3, a.concurrency());
        assertEquals(12, a.startupSeconds());
        assertEquals(2, a.initialReplicas());
        assertEquals(50, a.initialBacklog());
        assertEquals(new SandboxClassSpec.Dependency(10, 1.5, 40), a.dependency());
        assertEquals(new SandboxClassSpec.Poison(50, 80.0), a.poison());
        assertEquals(List.of(new SandboxClassSpec.Window(60, 70)), a.outages());
        assertEquals(256.0, a.podMemoryMb());
        assertEquals("sandbox/sandbox/deployment/a", a.target().toString());
        Policy pa = s.classes().get(0).policy();
        assertEquals(10, pa.pollIntervalSeconds(), "given poll interval wins");
        assertEquals(3, pa.slotsPerReplica(), "k defaults to the class's concurrency");
        assertEquals(List.of(CeilingSpec.budget("db", 100, 10)), pa.ceilings());

        ScenarioClass b = s.classes().get(1);
        assertEquals(Distribution.UNIFORM, b.sandbox().service().distribution());
        assertEquals(2.0, b.sandbox().service().meanSeconds());
        assertEquals(0, b.sandbox().baseRate());
        assertEquals(5, b.policy().pollIntervalSeconds(), "poll defaults to the tick");
        assertNull(b.sandbox().dependency());
        assertEquals("b", b.workloadClass().name());
    }

    @Test
    void jsonScenariosReadToo() throws ConfigException {
        Scenario s = ScenarioReader.read("s.json", """
                {"name": "j", "durationSeconds": 60, "tickSeconds": 15,
                 "classes": [{"name": "x", "service": {"distribution": "constant", "meanSeconds": 1}}]}
                """, ConfigTree.Format.JSON);
        assertEquals(1, s.classes().size());
        assertEquals(4, s.ticks());
    }

    static final String GOOD = """
            name: burst
            durationSeconds: 600
            tickSeconds: 15
            seed: 7
            classes:
              - name: checkout
                arrival:
                  baseRate: 5
                  segments:
                    - {from: 100, to: 200, rate: 40}
                service: {distribution: exponential, meanSeconds: 1}
                concurrency: 4
                policy:
                  targetUtilization: 0.7
                  minReplicas: 2
                  maxReplicas: 30
            """;

    @Test
    void theBaseOfTheErrorTableIsValid() throws ConfigException {
        assertNotNull(ScenarioReader.read("burst.yaml", GOOD, ConfigTree.Format.YAML));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown field            | 'concurrency: 4'             | 'concurency: 4'              | burst.yaml:12: classes[0].concurency: unknown field; expected one of
            unknown top-level field  | 'seed: 7'                    | 'sead: 7'                    | burst.yaml:4: sead: unknown field
            wrong type               | 'baseRate: 5'                | 'baseRate: abc'              | burst.yaml:8: classes[0].arrival.baseRate: expected a number, got a string ("abc")
            u = 1.5                  | 'targetUtilization: 0.7'     | 'targetUtilization: 1.5'     | burst.yaml:14: classes[0].policy.targetUtilization: must be in (0, 1], got 1.5
            max < min                | 'maxReplicas: 30'            | 'maxReplicas: 1'             | burst.yaml:16: classes[0].policy.maxReplicas: maxReplicas (1) is below minReplicas (2)
            segment outside duration | 'to: 200'                    | 'to: 700'                    | burst.yaml:10: classes[0].arrival.segments[0].to: must be within durationSeconds (600), got 700
            segment backwards        | 'from: 100, to: 200'         | 'from: 300, to: 200'         | burst.yaml:10: classes[0].arrival.segments[0].to: must be after from (300.0), got 200.0
            negative rate            | 'rate: 40'                   | 'rate: -1'                   | burst.yaml:10: classes[0].arrival.segments[0].rate: must be >= 0, got -1.0
            missing class name       | '- name: checkout'           | '- nom: checkout'            | burst.yaml:6: classes[0].name: is required
            missing scenario name    | 'name: burst'                | 'title: burst'               | burst.yaml:1: name: is required
            unknown distribution     | 'distribution: exponential'  | 'distribution: pareto'       | burst.yaml:11: classes[0].service.distribution: must be one of constant, exponential, lognormal, uniform, got "pareto"
            missing mean             | 'meanSeconds: 1'             | 'cv: 1'                      | burst.yaml:11: classes[0].service.meanSeconds: is required
            zero duration            | 'durationSeconds: 600'       | 'durationSeconds: 0'         | burst.yaml:2: durationSeconds: must be > 0, got 0.0
            tick above duration      | 'tickSeconds: 15'            | 'tickSeconds: 900'           | burst.yaml:3: tickSeconds: must be <= durationSeconds (600), got 900
            zero concurrency         | 'concurrency: 4'             | 'concurrency: 0'             | burst.yaml:12: classes[0].concurrency: must be >= 1, got 0
            malformed YAML           | '    - {from: 100, to: 200, rate: 40}' | '    - {from: 100, to: 200, rate: 40' | burst.yaml:11: malformed YAML:
            """)
    void badFilesNameTheFieldAndLine(String name, String from, String to, String expected) {
        String text = GOOD.replace(from, to);
        assertFalse(text.equals(GOOD), name + ": the replacement did not apply");
        ConfigException e = assertThrows(ConfigException.class,
                () -> ScenarioReader.read("burst.yaml", text, ConfigTree.Format.YAML));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @Test
    void severalProblemsComeTogether() {
        String text = GOOD.replace("baseRate: 5", "baseRate: abc").replace("targetUtilization: 0.7", "targetUtilization: 2");
        ConfigException e = assertThrows(ConfigException.class,
                () -> ScenarioReader.read("burst.yaml", text, ConfigTree.Format.YAML));
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void duplicateClassNamesAreRefused() {
        String text = GOOD + """
                  - name: checkout
                    service: {distribution: constant, meanSeconds: 1}
                """;
        ConfigException e = assertThrows(ConfigException.class,
                () -> ScenarioReader.read("burst.yaml", text, ConfigTree.Format.YAML));
        assertEquals("burst.yaml:17: classes[1].name: class name 'checkout' is used twice (first at line 6)",
                e.getMessage());
    }
}
