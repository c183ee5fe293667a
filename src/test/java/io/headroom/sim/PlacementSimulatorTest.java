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

    @Test
    void aBrokerFailingAcquisitionsMovesTheShareWithinTwoTicksOfTheDeadlineWithNothingPending() throws Exception {
        Scenario s = ScenarioReader.read(Path.of("examples/scenarios/broker-fails-mid-burst.yaml"));
        List<PlacementSimulator.PlacementLine> lines = new ArrayList<>();
        Simulator.ClassSummary placed = PlacementSimulator.run(s, l -> { }, lines::add).get(0);
        List<SimPool> spotAlone = List.of(s.placement().pools().get("checkout-events").get(0));
        Simulator.ClassSummary alone = PlacementSimulator.run(s, Map.of("checkout-events", spotAlone),
                s.placement().timing(), l -> { }, l -> { }).get(0);

        PlacementSimulator.PlacementLine moved = lines.stream()
                .filter(l -> l.result().share("spot").has(PlacementReason.Code.UNAVAILABLE)).findFirst().orElseThrow();
        double deadline = 330 + s.placement().timing().unschedulableDeadline().toSeconds();
        assertTrue(moved.t() >= deadline && moved.t() - deadline <= 2 * s.tickSeconds(),
                "moved at " + moved.t() + " s, deadline " + deadline + " s");
        assertTrue(moved.result().share("spot").words().contains("failed acquisitions/s for"),
                moved.result().share("spot").words());
        assertEquals(0, moved.result().share("spot").replicas(), moved.result().explanation());
        assertTrue(moved.result().share("on-demand").replicas() > 0, moved.result().explanation());
        assertTrue(lines.stream().noneMatch(l -> l.pendingSince().containsKey("spot")),
                "no pod of spot ever pended: the broker alone told");
        assertTrue(placed.ageObjectiveViolationSeconds() < alone.ageObjectiveViolationSeconds(),
                placed + " vs " + alone);
        // Back after the broker's failures end (600 s) and the 120 s hysteresis, without a move a tick meanwhile.
        PlacementSimulator.PlacementLine back = lines.stream()
                .filter(l -> l.result().share("spot").has(PlacementReason.Code.CAPACITY_BACK)).findFirst().orElseThrow();
        assertTrue(back.t() >= 720 && back.t() <= 720 + 2 * s.tickSeconds(), "back at " + back.t() + " s");
        List<Integer> spotWhileRecovering = lines.stream()
                .filter(l -> l.result().share("spot").has(PlacementReason.Code.RECOVERING))
                .map(l -> l.result().share("spot").specReplicas()).distinct().toList();
        assertEquals(List.of(1), spotWhileRecovering, "spot's Deployment holds still while it recovers");
    }
}
