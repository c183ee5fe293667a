package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.sim.Simulator.TickLine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example scenarios run through the simulator (the same sandbox, loop and decision core as
 * the console) reproduce the behaviours the brief asks for. Times and numbers come from the
 * scenario files themselves, so editing a file keeps these checks honest.
 */
class ExampleScenariosTest {

    static List<TickLine> run(String file) throws Exception {
        Scenario sc = ScenarioReader.read(Path.of("examples/scenarios", file));
        List<TickLine> lines = new ArrayList<>();
        Simulator.run(sc, lines::add);
        return lines;
    }

    static Scenario scenario(String file) throws Exception {
        return ScenarioReader.read(Path.of("examples/scenarios", file));
    }

    @Test
    void aBurstIsAbsorbedWithinTwoIntervalsPlusStartUp() throws Exception {
        Scenario sc = scenario("burst.yaml");
        ScenarioClass c = sc.classes().get(0);
        double burstStart = c.sandbox().segments().get(0).fromSeconds();
        double burstEnd = c.sandbox().segments().get(0).toSeconds();
        double tick = sc.tickSeconds();
        double startup = c.sandbox().startupSeconds();
        List<TickLine> lines = run("burst.yaml");
        int before = lines.stream().filter(l -> l.t() <= burstStart).reduce((a, b) -> b).orElseThrow().readyReplicas();

        TickLine firstUp = lines.stream().filter(l -> l.t() > burstStart && l.desiredReplicas() > l.replicas())
                .findFirst().orElseThrow(() -> new AssertionError("no scale-up after the burst"));
        assertTrue(firstUp.t() <= burstStart + 2 * tick, "scale-up decided at " + firstUp.t());
        // New capacity is ready within two control intervals plus the start-up delay (seen at the next tick).
        double deadline = burstStart + 2 * tick + startup + tick;
        assertTrue(lines.stream().anyMatch(l -> l.t() <= deadline && l.readyReplicas() > before),
                "ready capacity grew by t=" + deadline);
        // Absorbed: the backlog is gone before the burst ends.
        assertTrue(lines.stream().anyMatch(l -> l.t() > firstUp.t() && l.t() < burstEnd && l.queueLength() == 0),
                "the queue drained during the burst");
    }

    @Test
    void aMetricOutageHoldsReplicas() throws Exception {
        Scenario sc = scenario("metric-outage.yaml");
        var window = sc.classes().get(0).sandbox().outages().get(0);
        List<TickLine> during = run("metric-outage.yaml").stream()
                .filter(l -> l.t() >= window.fromSeconds() && l.t() < window.toSeconds()).toList();
        assertFalse(during.isEmpty());
        int held = during.get(0).replicas();
        for (TickLine l : during) {
            assertTrue(l.reasons().stream().anyMatch(r -> r.startsWith("TELEMETRY_MISSING")), "t=" + l.t());
            assertTrue(Double.isNaN(l.queueLength()), "missing is missing, not 0: t=" + l.t());
            assertEquals(l.replicas(), l.desiredReplicas(), "no scale-up or scale-down from missing data at t=" + l.t());
            assertEquals(held, l.replicas(), "replicas held at t=" + l.t());
        }
    }

    @Test
    void aCeilingCapsReplicasAndIsNamed() throws Exception {
        List<TickLine> lines = run("ceiling.yaml");
        List<TickLine> capped = lines.stream().filter(l -> "db-connections".equals(l.bindingCeiling())).toList();
        assertFalse(capped.isEmpty(), "the db-connections ceiling binds");
        int limit = 15; // ceiling.yaml: budget 150 connections, 10 per replica
        assertTrue(lines.stream().allMatch(l -> l.desiredReplicas() <= limit && l.replicas() <= limit));
        assertTrue(capped.stream().allMatch(l -> l.reasons().contains("CEILING:db-connections")));
        assertTrue(capped.stream().anyMatch(l -> l.estimatedSlots() != null && l.estimatedSlots() > limit * 2),
                "the estimate wanted more than the ceiling allows");
    }

    @Test
    void aStalledQueueIsFlaggedAndNotScaledUp() throws Exception {
        Scenario sc = scenario("poison.yaml");
        var poison = sc.classes().get(0).sandbox().poison();
        List<TickLine> lines = run("poison.yaml");
        List<TickLine> stalled = lines.stream().filter(l -> l.reasons().contains("STALLED")).toList();
        assertFalse(stalled.isEmpty(), "the poison message stalls the queue");
        assertTrue(stalled.stream().allMatch(l -> l.t() >= poison.atSeconds() && l.t() <= poison.clearAtSeconds()),
                "flagged only while the poison is there");
        assertTrue(stalled.stream().allMatch(l -> l.desiredReplicas() <= l.replicas()), "no scale-up while stalled");
        assertTrue(stalled.stream().noneMatch(l -> l.reasons().stream().anyMatch(r -> r.startsWith("TELEMETRY"))),
                "no completions is data, not missing telemetry");
        double clear = poison.clearAtSeconds();
        assertTrue(lines.stream().anyMatch(l -> l.t() > clear && l.queueLength() == 0), "drains after the clear");
    }

    @Test
    void scaleDownWaitsForTheStabilisationWindow() throws Exception {
        Scenario sc = scenario("scale-down.yaml");
        ScenarioClass c = sc.classes().get(0);
        double drop = c.sandbox().segments().get(0).toSeconds();
        int window = c.policy().scaleDown().stabilizationWindowSeconds();
        List<TickLine> lines = run("scale-down.yaml");
        int atDrop = lines.stream().filter(l -> l.t() <= drop).reduce((a, b) -> b).orElseThrow().replicas();
        List<TickLine> inWindow = lines.stream().filter(l -> l.t() > drop && l.t() < drop + window).toList();
        // What the load before the drop needed (the queue was empty: the slots are the incoming work's); the count may
        // be higher still from the initial backlog, which the window does not hold.
        TickLine beforeDrop = lines.stream().filter(l -> l.t() <= drop).reduce((a, b) -> b).orElseThrow();
        int needed = (beforeDrop.estimatedSlots() + c.sandbox().concurrency() - 1) / c.sandbox().concurrency();
        assertTrue(inWindow.stream().allMatch(l -> l.desiredReplicas() >= Math.min(atDrop, needed)),
                "held at what the load before the drop needed (" + needed + ") for the window");
        assertTrue(inWindow.stream().anyMatch(l -> l.reasons().contains("STABILISING_DOWN")
                && l.estimatedSlots() != null && l.estimatedSlots() < atDrop), "the window is what holds it");
        TickLine last = lines.get(lines.size() - 1);
        assertTrue(last.replicas() < atDrop / 2, "after the window replicas come down: " + last.replicas());
    }
}
