package io.headroom.config;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PolicyReaderTest {

    static Policy read(String yaml) throws ConfigException {
        return PolicyReader.read(ConfigTree.parse("p.yaml", yaml, ConfigTree.Format.YAML));
    }

    @Test
    void readsEveryField() throws ConfigException {
        Policy p = read("""
                slotsPerReplica: 4
                targetUtilization: 0.8
                drainTargetSeconds: 120
                maxAgeSeconds: 30
                minReplicas: 0
                maxReplicas: 40
                cooldownSeconds: 600
                pollIntervalSeconds: 5
                scaleUp:
                  stabilizationWindowSeconds: 0
                  selectPolicy: Max
                  policies:
                    - {type: Pods, value: 4, periodSeconds: 15}
                    - {type: Percent, value: 100, periodSeconds: 15}
                scaleDown:
                  stabilizationWindowSeconds: 300
                  selectPolicy: Min
                  policies:
                    - {type: Percent, value: 50, periodSeconds: 60}
                fallback: {failureThreshold: 2, floorReplicas: 3}
                ceilings:
                  - {name: tenant, replicas: 30}
                  - {name: db-connections, budget: 200, perReplica: 10}
                  - {name: memory, budgetSignal: nodeMemoryMb, perReplicaSignal: podMemory, conservativeReplicas: 5}
                dependencyGuard: {threshold: 250, label: enrichment-db}
                """);
        assertEquals(4, p.slotsPerReplica());
        assertEquals(0.8, p.targetUtilization());
        assertEquals(120, p.drainTargetSeconds());
        assertEquals(30.0, p.maxAgeSeconds());
        assertEquals(0, p.minReplicas());
        assertEquals(40, p.maxReplicas());
        assertEquals(600, p.cooldownSeconds());
        assertEquals(5, p.pollIntervalSeconds());
        assertEquals(new ScalingBehavior(0, List.of(ScalingRule.pods(4, 15), ScalingRule.percent(100, 15)),
                ScalingBehavior.SelectPolicy.MAX), p.scaleUp());
        assertEquals(new ScalingBehavior(300, List.of(ScalingRule.percent(50, 60)),
                ScalingBehavior.SelectPolicy.MIN), p.scaleDown());
        assertEquals(2, p.fallback().failureThreshold());
        assertEquals(3, p.fallback().floorReplicas());
        assertEquals(List.of(CeilingSpec.replicas("tenant", 30), CeilingSpec.budget("db-connections", 200, 10),
                new CeilingSpec("memory", CeilingSpec.Source.signal(SignalName.of("nodeMemoryMb")),
                        CeilingSpec.Source.signal(Signals.POD_MEMORY), 5)), p.ceilings());
        assertEquals(250, p.dependencyGuard().threshold());
        assertEquals("enrichment-db", p.dependencyGuard().label());
    }

    @Test
    void absentFieldsKeepDefaults() throws ConfigException {
        assertEquals(Policy.defaults(), read("{}"));
        Policy p = read("scaleDown: {stabilizationWindowSeconds: 60}");
        assertEquals(ScalingBehavior.defaultDown().withWindow(60), p.scaleDown());
        assertNull(p.dependencyGuard());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            u above 1             | targetUtilization: 1.5                  | p.yaml:1: targetUtilization: must be in (0, 1], got 1.5
            unknown field         | tragetUtilization: 0.5                  | p.yaml:1: tragetUtilization: unknown field; expected one of
            wrong type            | slotsPerReplica: abc                    | p.yaml:1: slotsPerReplica: expected an integer, got a string ("abc")
            fraction for integer  | maxReplicas: 2.5                        | p.yaml:1: maxReplicas: expected an integer, got a number (2.5)
            max below min         | 'minReplicas: 5\nmaxReplicas: 3'        | p.yaml:2: maxReplicas: maxReplicas (3) is below minReplicas (5)
            min above default max | 'minReplicas: 60'                       | p.yaml:1: minReplicas: maxReplicas (50) is below minReplicas (60)
            bad select policy     | 'scaleUp:\n  selectPolicy: Most'        | p.yaml:2: scaleUp.selectPolicy: must be Max, Min or Disabled, got "Most"
            bad rule type         | 'scaleUp:\n  policies:\n    - {type: Pod, value: 1, periodSeconds: 15}' | p.yaml:3: scaleUp.policies[0].type: must be Pods or Percent, got "Pod"
            rule value zero       | 'scaleUp:\n  policies:\n    - {type: Pods, value: 0, periodSeconds: 15}' | p.yaml:3: scaleUp.policies[0].value: rate policy value must be > 0, got 0
            rule missing period   | 'scaleUp:\n  policies:\n    - {type: Pods, value: 2}' | p.yaml:3: scaleUp.policies[0].periodSeconds: is required
            window too long       | 'scaleDown:\n  stabilizationWindowSeconds: 4000' | p.yaml:2: scaleDown.stabilizationWindowSeconds: must be in 0..3600, got 4000
            ceiling both kinds    | 'ceilings:\n  - {name: db, replicas: 3, budget: 10}' | p.yaml:2: ceilings[0].replicas: give either replicas or budget/perReplica, not both
            ceiling no budget     | 'ceilings:\n  - {name: db, perReplica: 10}' | p.yaml:2: ceilings[0].budget: a ceiling needs replicas, budget or budgetSignal
            ceiling zero budget   | 'ceilings:\n  - {name: db, budget: 0, perReplica: 10}' | p.yaml:2: ceilings[0].budget: a ceiling constant must be a positive number, got 0.0
            ceiling signal no conservative | 'ceilings:\n  - {name: mem, budgetSignal: m, perReplica: 1}' | p.yaml:2: ceilings[0].conservativeReplicas: is required when the ceiling reads a signal
            ceiling unnamed       | 'ceilings:\n  - {replicas: 3}'          | p.yaml:2: ceilings[0].name: is required
            ceiling twice         | 'ceilings:\n  - {name: a, replicas: 3}\n  - {name: a, replicas: 4}' | p.yaml:3: ceilings[1].name: ceiling name 'a' is used twice (first at line 2)
            guard without threshold | 'dependencyGuard: {label: db}'        | p.yaml:1: dependencyGuard.threshold: is required
            fallback threshold 0  | 'fallback:\n  failureThreshold: 0'      | p.yaml:2: fallback.failureThreshold: fallback failureThreshold must be >= 1, got 0
            not a mapping         | '- 1'                                   | p.yaml:1: expected a mapping, got a list
            floor bad day         | 'scheduledFloors:\n  - {days: Mon-Fry, from: "08:00", to: "20:00", replicas: 2}' | p.yaml:2: scheduledFloors[0].days: "fry" is not a day
            floor bad time        | 'scheduledFloors:\n  - {days: Mon, from: "8h", to: "20:00", replicas: 2}' | p.yaml:2: scheduledFloors[0].from: is not a time of day HH:MM, got "8h"
            floor empty window    | 'scheduledFloors:\n  - {days: Mon, from: "08:00", to: "08:00", replicas: 2}' | p.yaml:2: scheduledFloors[0].from: a scheduled floor's from and to are both 08:00
            floor no replicas     | 'scheduledFloors:\n  - {days: Mon, from: "08:00", to: "09:00"}' | p.yaml:2: scheduledFloors[0].replicas: is required
            bad time zone         | 'timeZone: Mars/Olympus'                | p.yaml:1: timeZone: is not a time zone, got "Mars/Olympus"
            absorbStep below 1    | 'absorbStep: 0.5'                       | p.yaml:1: absorbStep: must be in 1..1000, got 0.5
            absorbStep too large  | 'absorbStep: 5000'                      | p.yaml:1: absorbStep: must be at most 1000, got 5000
            """)
    void badPoliciesAreLocated(String name, String yaml, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> read(yaml.replace("\\n", "\n")));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @Test
    void reportsSeveralProblemsAtOnce() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("""
                slotsPerReplica: x
                targetUtilization: y
                bogus: 1
                """));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertEquals(List.of(1, 2, 3), e.problems().stream().map(ConfigException.Problem::line).toList());
    }

    @Test
    void jsonIsLocatedToo() {
        ConfigException e = assertThrows(ConfigException.class, () -> PolicyReader.read(ConfigTree.parse("p.json",
                "{\n  \"slotsPerReplica\": 2,\n  \"targetUtilization\": 1.5\n}", ConfigTree.Format.JSON)));
        assertEquals("p.json:3: targetUtilization: must be in (0, 1], got 1.5", e.getMessage());
    }
}
