package io.headroom.config;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.DependencyGuard;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.sandbox.SandboxCatalog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A written policy reads back as the same policy. */
class PolicyWriterTest {

    static Policy readBack(String yaml) throws Exception {
        ConfigNode root = ConfigTree.parse("p.yaml", yaml, ConfigTree.Format.YAML);
        ConfigNode policy = ((ConfigNode.MapNode) root).fields().get("policy");
        return PolicyReader.read(policy);
    }

    @Test
    void everyFieldRoundTrips() throws Exception {
        Policy p = Policy.builder().slotsPerReplica(3).targetUtilization(0.55).drainTargetSeconds(45)
                .maxAgeSeconds(90.0).minReplicas(2).maxReplicas(40).cooldownSeconds(120).pollIntervalSeconds(10)
                .scaleUp(new ScalingBehavior(0, List.of(new ScalingRule(ScalingRule.Type.PERCENT, 100, 15)),
                        ScalingBehavior.SelectPolicy.MAX))
                .scaleDown(new ScalingBehavior(600, List.of(), ScalingBehavior.SelectPolicy.DISABLED))
                .fallback(new Fallback(4, 3))
                .ceilings(List.of(CeilingSpec.replicas("partitions", 12), CeilingSpec.budget("db", 100, 7.5),
                        new CeilingSpec("mem", CeilingSpec.Source.constant(64_000),
                                CeilingSpec.Source.signal(Signals.POD_MEMORY), 8)))
                .dependencyGuard(new DependencyGuard(250, "p95 ms", 0.5, 90))
                .expectedServiceSeconds(4.0).startupSeconds(45).minDrainSeconds(20.0).absorbStep(6.5)
                .scheduledFloors(List.of(new io.headroom.decision.ScheduledFloor(java.util.EnumSet.of(
                        java.time.DayOfWeek.MONDAY, java.time.DayOfWeek.TUESDAY, java.time.DayOfWeek.WEDNESDAY,
                        java.time.DayOfWeek.SATURDAY), java.time.LocalTime.of(22, 30), java.time.LocalTime.of(6, 0), 3)))
                .timeZone(java.time.ZoneId.of("America/New_York")).build();
        assertEquals(p, readBack(PolicyWriter.toYaml(p)));
        String yaml = PolicyWriter.toYaml(p);
        assertTrue(yaml.contains("# ceiling db: floor(100 / 7.5 per replica) = 13 replicas\n"),
                "a budget is said as what it comes to: " + yaml);
        assertTrue(yaml.contains("budget: 100") && yaml.contains("perReplica: 7.5"), "and written as a budget: " + yaml);
        assertFalse(yaml.contains("# ceiling partitions"), "a replica limit needs no comment");
    }

    @Test
    void theSandboxPoliciesAndTheDefaultsRoundTrip() throws Exception {
        assertEquals(Policy.defaults(), readBack(PolicyWriter.toYaml(Policy.defaults())));
        for (SandboxCatalog.Entry e : SandboxCatalog.defaultClasses()) {
            assertEquals(e.policy(), readBack(PolicyWriter.toYaml(e.policy())), e.name());
        }
    }

    @Test
    void aCeilingFedByTheFilesPromqlIsLeftOutAndNamed() throws Exception {
        Policy p = Policy.builder().ceilings(List.of(new CeilingSpec("db", CeilingSpec.Source.signal(SignalName.of("ceiling:db:budget")),
                CeilingSpec.Source.constant(10), 5), CeilingSpec.replicas("tenant", 6))).build();
        String yaml = PolicyWriter.toYaml(p);
        assertTrue(yaml.startsWith("# ceiling db reads PromQL of the workloads file: keep it from there\n"), yaml);
        assertFalse(yaml.contains("ceiling:db"), yaml);
        assertEquals(List.of(CeilingSpec.replicas("tenant", 6)), readBack(yaml).ceilings());
    }
}
