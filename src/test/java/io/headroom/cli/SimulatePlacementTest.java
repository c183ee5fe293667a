package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code headroom simulate} on a scenario with pools prints each change of the split, with why (issue 30). */
class SimulatePlacementTest {

    @Test
    void eachChangeOfTheSplitIsPrintedAfterItsTickWithWhy() {
        SimulateCommandTest.Run r = SimulateCommandTest.run("simulate", "--scenario",
                "examples/scenarios/spot-lost-mid-burst.yaml");
        assertEquals(0, r.code(), r.err());
        List<String> lines = Arrays.asList(r.out().split("\n"));
        List<String> placements = lines.stream().filter(l -> l.trim().startsWith("pools ")).toList();
        assertTrue(placements.stream().anyMatch(l -> l.contains("unavailable: ") && l.contains("on-demand: ")),
                String.join("\n", placements));
        assertTrue(placements.stream().anyMatch(l -> l.contains("capacity back")), String.join("\n", placements));
        String first = placements.get(0);
        int at = lines.indexOf(first);
        assertTrue(lines.get(at - 1).startsWith("t=") && lines.get(at - 1).contains("checkout-events"),
                "after its tick's line: " + lines.get(at - 1));
        assertTrue(placements.size() < 40, "only changes are printed: " + placements.size());
    }

    @Test
    void aScenarioWithoutPoolsPrintsNoPlacement() {
        SimulateCommandTest.Run r = SimulateCommandTest.run("simulate", "--scenario", "examples/scenarios/burst.yaml");
        assertEquals(0, r.code(), r.err());
        assertTrue(Arrays.stream(r.out().split("\n")).noneMatch(l -> l.trim().startsWith("pools ")));
    }
}
