package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A scenario that would hang {@code simulate} or exhaust its memory is refused when it is read: every
 * number has a sane range, and a run has a budget of control ticks and of jobs.
 */
class ScenarioBoundsTest {

    static final String GOOD = """
            name: bounds
            durationSeconds: 600
            tickSeconds: 15
            classes:
              - name: c
                arrival: {baseRate: 5}
                service: {distribution: exponential, meanSeconds: 1}
                concurrency: 4
                initialReplicas: 1
                initialBacklog: 10
            """;

    static Scenario read(String text) throws ConfigException {
        return ScenarioReader.read("s.yaml", text, ConfigTree.Format.YAML);
    }

    static String replace(String from, String to) {
        String text = GOOD.replace(from, to);
        assertFalse(text.equals(GOOD), "the replacement " + from + " did not apply");
        return text;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            duration 1e12          | 'durationSeconds: 600'    | 'durationSeconds: 1e12'    | s.yaml:2: durationSeconds: must be at most 2592000, got 1e12
            tick 1e-6              | 'tickSeconds: 15'         | 'tickSeconds: 1e-6'        | s.yaml:3: tickSeconds: must be at least 1, got 1e-6
            tick an hour+          | 'tickSeconds: 15'         | 'tickSeconds: 7200'        | s.yaml:3: tickSeconds: must be at most 3600, got 7200
            base rate 1e9          | 'baseRate: 5'             | 'baseRate: 1e9'            | s.yaml:6: classes[0].arrival.baseRate: must be at most 10000, got 1e9
            backlog 2e9            | 'initialBacklog: 10'      | 'initialBacklog: 2e9'      | s.yaml:10: classes[0].initialBacklog: must be at most 1000000, got 2e9
            replicas 2e9           | 'initialReplicas: 1'      | 'initialReplicas: 2e9'     | s.yaml:9: classes[0].initialReplicas: must be at most 1000, got 2e9
            concurrency huge       | 'concurrency: 4'          | 'concurrency: 2000000000'  | s.yaml:8: classes[0].concurrency: must be at most 1000, got 2000000000
            mean service huge      | 'meanSeconds: 1}'         | 'meanSeconds: 1e300}'      | s.yaml:7: classes[0].service.meanSeconds: must be at most 86400, got 1e300
            mean service tiny      | 'meanSeconds: 1}'         | 'meanSeconds: 1e-300}'     | s.yaml:7: classes[0].service.meanSeconds: must be at least 0.001, got 1e-300
            startup huge           | 'concurrency: 4'          | 'concurrency: 4\\n    startupSeconds: 1e12' | s.yaml:9: classes[0].startupSeconds: must be at most 3600, got 1e12
            repeat tiny            | 'arrival: {baseRate: 5}'  | 'arrival: {baseRate: 5, repeatSeconds: 1e-9}' | s.yaml:6: classes[0].arrival.repeatSeconds: must be at least 1, got 1e-9
            segment rate huge      | 'arrival: {baseRate: 5}'  | 'arrival: {baseRate: 5, segments: [{from: 0, to: 10, rate: 1e9}]}' | s.yaml:6: classes[0].arrival.segments[0].rate: must be at most 10000, got 1e9
            ramp rate huge         | 'arrival: {baseRate: 5}'  | 'arrival: {baseRate: 5, segments: [{from: 0, to: 10, rate: 1, rampTo: 1e9}]}' | s.yaml:6: classes[0].arrival.segments[0].rampTo: must be at most 10000, got 1e9
            memory huge            | 'concurrency: 4'          | 'concurrency: 4\\n    podMemoryMb: 1e300' | s.yaml:9: classes[0].podMemoryMb: must be at most 1048576, got 1e300
            dependency slope huge  | 'concurrency: 4'          | 'concurrency: 4\\n    dependency: {limit: 10, slope: 1e300, baseLatencyMs: 5}' | s.yaml:9: classes[0].dependency.slope: must be at most 1000, got 1e300
            policy max replicas    | 'concurrency: 4'          | 'concurrency: 4\\n    policy: {maxReplicas: 100000}' | s.yaml:9: classes[0].policy.maxReplicas: a simulated class may have at most 1000 replicas, got 100000
            """)
    void absurdNumbersAreRefusedAtTheirField(String name, String from, String to, String expected) {
        String text = replace(from, to.replace("\\n", "\n"));
        ConfigException e = assertThrows(ConfigException.class, () -> read(text));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @Test
    void aRunHasABudgetOfControlTicks() {
        // 30 days at 1 s ticks: each number is fine on its own, the run is not.
        String text = replace("durationSeconds: 600\ntickSeconds: 15",
                "durationSeconds: 2592000\ntickSeconds: 1").replace("baseRate: 5", "baseRate: 0.01");
        ConfigException e = assertThrows(ConfigException.class, () -> read(text));
        assertTrue(e.getMessage().startsWith("s.yaml:3: tickSeconds: 2592000 s at 1 s ticks for 1 class is 2592000"
                + " class-ticks; a run may have at most " + ScenarioReader.MAX_CLASS_TICKS), e.getMessage());
    }

    @Test
    void aRunHasABudgetOfJobs() {
        // 10,000 jobs/s for a day is 864 million jobs: each number is within its range, the product is not.
        String text = replace("durationSeconds: 600\ntickSeconds: 15", "durationSeconds: 86400\ntickSeconds: 60")
                .replace("baseRate: 5", "baseRate: 10000");
        ConfigException e = assertThrows(ConfigException.class, () -> read(text));
        assertTrue(e.getMessage().startsWith("s.yaml:6: classes[0].arrival: about 864000010 jobs in the run"
                + " (arrivals and initial backlog); a run may have at most " + ScenarioReader.MAX_JOBS),
                e.getMessage());
    }

    @Test
    void theJobBudgetCountsSegmentsRampsAndRepeats() throws ConfigException {
        // Base 1/s for 1000 s, but a segment of 1000/s for the first 100 s of every 200 s: 5 × 100 × 1000 + 500 × 1.
        Scenario s = read(replace("durationSeconds: 600", "durationSeconds: 1000")
                .replace("arrival: {baseRate: 5}", "arrival: {baseRate: 1, repeatSeconds: 200,"
                        + " segments: [{from: 0, to: 100, rate: 500, rampTo: 1500}]}"));
        assertEquals(500_000 + 500 + 10, ScenarioReader.expectedJobs(s.classes().get(0).sandbox(), s.durationSeconds()),
                1e-6);
    }

    @Test
    void theTickBudgetCountsEveryClassAndTheSimulatorDoesNoMoreThanItCounts() throws ConfigException {
        String two = GOOD + """
                  - name: d
                    service: {distribution: constant, meanSeconds: 1}
                """;
        // Two classes: half the ticks of one class fit the budget.
        long tooMany = ScenarioReader.MAX_CLASS_TICKS / 2 + 1;
        ConfigException e = assertThrows(ConfigException.class, () -> read(two.replace("durationSeconds: 600",
                "durationSeconds: " + tooMany * 15)));
        assertTrue(e.getMessage().contains("for 2 classes is " + 2 * tooMany + " class-ticks"), e.getMessage());
        // Counting work, not timing it: a run makes exactly the lines its class-ticks promise.
        Scenario s = read(two.replace("durationSeconds: 600", "durationSeconds: 15000"));
        assertEquals(1000, s.ticks());
        long[] lines = new long[1];
        Simulator.run(s, l -> lines[0]++);
        assertEquals(2 * (1000 + 1), lines[0], "ticks 0 … 1000 for each class");
    }
}
