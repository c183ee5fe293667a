package io.headroom.cli;

import io.headroom.sim.PlacementSimulator.PlacementLine;
import io.headroom.sim.Simulator;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code headroom simulate}'s placement lines (issue 30): after a pooled class's tick line, its split across
 * pools with why, printed only when the split or its reasons change. The placement is made during the tick,
 * the tick's line printed after it: the placement waits here for its line.
 */
final class PlacementPrinter {

    private final boolean enabled;
    private final Map<String, PlacementLine> waiting = new HashMap<>();
    private final Map<String, String> printed = new HashMap<>();

    PlacementPrinter(boolean enabled) {
        this.enabled = enabled;
    }

    void placed(PlacementLine line) {
        if (enabled) {
            waiting.put(line.className(), line);
        }
    }

    void after(Simulator.TickLine tick, PrintStream out) {
        PlacementLine p = waiting.remove(tick.className());
        if (p == null || p.key().equals(printed.get(tick.className()))) {
            return;
        }
        printed.put(tick.className(), p.key());
        out.println("          pools " + tick.className() + ": " + p.result().explanation());
    }
}
