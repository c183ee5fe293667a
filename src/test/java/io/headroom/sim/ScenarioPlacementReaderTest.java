package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A scenario's {@code placement:}: pools whose node capacity vanishes and comes back (issue 30). */
class ScenarioPlacementReaderTest {

    static final String HEAD = """
            name: p
            durationSeconds: 600
            classes:
              - {name: q, arrival: {baseRate: 1}, service: {distribution: exponential, meanSeconds: 1}}
            """;

    @Test
    void theExampleReadsItsPoolsAndTheirWindows() throws Exception {
        Scenario s = ScenarioReader.read(Path.of("examples/scenarios/spot-lost-mid-burst.yaml"));
        ScenarioPlacement p = s.placement();
        assertEquals(Duration.ofSeconds(30), p.timing().unschedulableDeadline());
        assertEquals(Duration.ofSeconds(120), p.timing().recovery());
        List<SimPool> pools = p.pools().get("checkout-events");
        assertEquals(new PoolSpec("spot", 30, null, 1, null), pools.get(0).spec());
        assertEquals(List.of(new Window(330, 600)), pools.get(0).noCapacity());
        assertEquals(new PoolSpec("on-demand", 30, null, 3, null), pools.get(1).spec());
        assertEquals(p, s.withSeed(8).placement(), "another seed, the same pools");
    }

    @Test
    void theBrokerExampleReadsItsAcquisitionWindowsAndHasABrokerFigure() throws Exception {
        Scenario s = ScenarioReader.read(Path.of("examples/scenarios/broker-fails-mid-burst.yaml"));
        List<SimPool> pools = s.placement().pools().get("checkout-events");
        assertEquals(List.of(new Window(330, 600)), pools.get(0).acquireFails());
        assertEquals(List.of(), pools.get(0).noCapacity(), "its nodes always have room");
        assertTrue(pools.get(0).hasBroker());
        assertTrue(pools.get(0).acquisitionsFail(330) && !pools.get(0).acquisitionsFail(600));
        assertTrue(!pools.get(1).hasBroker(), "on-demand reports no broker figure");
    }

    @Test
    void aScenarioWithoutPlacementHasNone() throws Exception {
        assertNull(ScenarioReader.read("s.yaml", HEAD, ConfigTree.Format.YAML).placement());
    }

    @Test
    void simulatingTheExampleMovesTheShareAndReturnsIt() throws Exception {
        Scenario s = ScenarioReader.read(Path.of("examples/scenarios/spot-lost-mid-burst.yaml"));
        List<PlacementSimulator.PlacementLine> lines = new java.util.ArrayList<>();
        PlacementSimulator.run(s, l -> { }, lines::add);
        assertTrue(lines.stream().anyMatch(l -> l.result().share("on-demand").replicas() > 0));
        assertEquals(0, lines.get(lines.size() - 1).result().share("on-demand").replicas());
        List<Simulator.TickLine> plain = new java.util.ArrayList<>();
        Simulator.run(s, plain::add);
        assertTrue(plain.stream().anyMatch(l -> l.t() > 330 && l.t() < 900 && l.replicas() > 10),
                "headroom simulate places too: on-demand runs what spot cannot");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown class   | '  pools:\\n    - {class: r, name: a, maxReplicas: 2}'                      | s.yaml:7: placement.pools[0].class: no class 'r' in this scenario
            no max          | '  pools:\\n    - {class: q, name: a}'                                       | s.yaml:7: placement.pools[0].maxReplicas: is required
            window past end | '  pools:\\n    - {class: q, name: a, maxReplicas: 2, noCapacity: [{from: 10, to: 700}]}' | s.yaml:7: placement.pools[0].noCapacity[0].to: must be within the run (600 s), got 700
            bad window      | '  pools:\\n    - {class: q, name: a, maxReplicas: 2, noCapacity: [{from: 10, to: 5}]}' | s.yaml:7: placement.pools[0].noCapacity[0].to: must be after from (10.0), got 5.0
            fails past end  | '  pools:\\n    - {class: q, name: a, maxReplicas: 2, acquireFails: [{from: 10, to: 700}]}' | s.yaml:7: placement.pools[0].acquireFails[0].to: must be within the run (600 s), got 700
            same pool twice | '  pools:\\n    - {class: q, name: a, maxReplicas: 2}\\n    - {class: q, name: a, maxReplicas: 2}' | s.yaml:8: placement.pools[1].name: pool 'a' of class 'q' is listed twice
            bad deadline    | '  unschedulableDeadlineSeconds: 0\\n  pools:\\n    - {class: q, name: a, maxReplicas: 2}' | s.yaml:6: placement.unschedulableDeadlineSeconds: must be at least 1, got 0
            unknown field   | '  pool: []\\n  pools:\\n    - {class: q, name: a, maxReplicas: 2}'        | s.yaml:6: placement.pool: unknown field
            """)
    void placementProblemsAreLocated(String name, String tail, String expected) {
        String yaml = HEAD + "placement:\n" + tail.replace("\\n", "\n") + "\n";
        ConfigException e = assertThrows(ConfigException.class,
                () -> ScenarioReader.read("s.yaml", yaml, ConfigTree.Format.YAML));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage() + "\nin\n" + yaml);
    }
}
