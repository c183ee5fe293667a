package io.headroom.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.decision.PlacementReason;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The preferred pool's capacity vanishes mid-burst: placement moves the share on, one pool cannot (issue 30). */
class PlacementSimulatorTest {

    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(30), Duration.ofSeconds(60));

    static List<SimPool> spotThenOnDemand() {
        return List.of(new SimPool(new PoolSpec("spot", 30, null, 1, null), List.of(new Window(330, 600))),
                new SimPool(new PoolSpec("on-demand", 30, null, 3, null), List.of()));
    }

    static List<SimPool> spotAlone() {
        return List.of(spotThenOnDemand().get(0));
    }

    @Test
    void theShareMovesToTheNextPoolWithinTwoTicksOfTheDeadlineAndTheAgeObjectiveSuffersLess() throws Exception {
        Scenario s = ScenarioReader.read(Path.of("examples/scenarios/burst.yaml"));
        List<PlacementSimulator.PlacementLine> lines = new ArrayList<>();
        Simulator.ClassSummary placed = PlacementSimulator.run(s, Map.of("checkout-events", spotThenOnDemand()),
                TIMING, l -> { }, lines::add).get(0);
        Simulator.ClassSummary alone = PlacementSimulator.run(s, Map.of("checkout-events", spotAlone()),
                TIMING, l -> { }, l -> { }).get(0);

        PlacementSimulator.PlacementLine moved = lines.stream()
                .filter(l -> l.result().share("spot").has(PlacementReason.Code.UNAVAILABLE)).findFirst().orElseThrow();
        PlacementSimulator.PlacementLine before = lines.get(lines.indexOf(moved) - 1);
        double deadline = Duration.between(s.start(), before.pendingSince().get("spot")).toSeconds()
                + TIMING.unschedulableDeadline().toSeconds();
        assertTrue(moved.t() >= deadline && moved.t() - deadline <= 2 * s.tickSeconds(),
                "moved at " + moved.t() + " s, deadline " + deadline + " s");
        assertTrue(moved.result().share("on-demand").replicas() > 0, moved.result().explanation());
        assertTrue(placed.ageObjectiveViolationSeconds() < alone.ageObjectiveViolationSeconds(),
                placed + " vs " + alone);
        PlacementSimulator.PlacementLine last = lines.get(lines.size() - 1);
        assertTrue(last.result().share("spot").available(), "capacity back at 600 s: " + last.result().explanation());
        assertEquals(0, last.result().share("on-demand").replicas(), last.result().explanation());
    }
}
