package io.headroom.ui.overview;

import io.headroom.decision.Placement;
import io.headroom.decision.PlacementReason;
import io.headroom.loop.ClassSnapshot;
import java.util.ArrayList;
import java.util.List;

/**
 * A placed class's row says when one of its pools cannot get nodes (decision 0029): a chip in the alerts column
 * (which gives way to "+N" before it widens the table), its tooltip naming the pools, why, and where their share
 * went. Nothing for a class with one pool or with every pool available.
 */
final class PoolChip {
    private PoolChip() {
    }

    /** "POOL UNAVAILABLE", "2 POOLS UNAVAILABLE", or empty. */
    static String text(ClassSnapshot s) {
        long n = unavailable(s).size();
        return n == 0 ? "" : n == 1 ? "POOL UNAVAILABLE" : n + " POOLS UNAVAILABLE";
    }

    /**
     * e.g. "pool spot unavailable: 3 pods unschedulable for 75 s (deadline 60 s); keeps 5 replicas", then
     * "available pools take: on-demand 9 replicas".
     */
    static String detail(ClassSnapshot s) {
        List<Placement.PoolShare> down = unavailable(s);
        if (down.isEmpty()) {
            return "";
        }
        List<String> lines = new ArrayList<>();
        for (Placement.PoolShare p : down) {
            String why = p.reasons().stream().filter(r -> r.code() == PlacementReason.Code.UNAVAILABLE
                    || r.code() == PlacementReason.Code.RECOVERING).map(PlacementReason::words).findFirst().orElse("");
            why = why.replaceFirst("^unavailable:? ?", "");
            why = io.headroom.ui.detail.PoolBreakdown.times(why);
            lines.add("pool " + p.pool() + " unavailable" + (why.isEmpty() ? "" : ": " + why) + "; keeps "
                    + p.replicas() + (p.replicas() == 1 ? " replica" : " replicas"));
        }
        List<String> took = new ArrayList<>();
        for (Placement.PoolShare p : s.placement().shares()) {
            if (p.available() && p.replicas() > 0) {
                took.add(p.pool() + " " + p.replicas() + (p.replicas() == 1 ? " replica" : " replicas"));
            }
        }
        if (!took.isEmpty()) {
            lines.add("available pools take: " + String.join(", ", took));
        }
        if (s.placement().unplaced() > 0) {
            lines.add(s.placement().unplaced() + (s.placement().unplaced() == 1 ? " replica fits" : " replicas fit")
                    + " no available pool");
        }
        return String.join("\n", lines);
    }

    private static List<Placement.PoolShare> unavailable(ClassSnapshot s) {
        if (s == null || s.placement() == null) {
            return List.of();
        }
        return s.placement().shares().stream().filter(p -> !p.available()).toList();
    }
}
