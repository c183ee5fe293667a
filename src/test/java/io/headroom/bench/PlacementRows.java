package io.headroom.bench;

import io.headroom.decision.PlacementReason;
import io.headroom.sandbox.SandboxClassSpec.Window;
import io.headroom.sim.PlacementSimulator;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioPlacement;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.SimPool;
import io.headroom.sim.Simulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 30's placement rows of {@link ControlQualityBenchmark}: {@code spot-lost-mid-burst}, the burst scenario
 * with its class on two pools, spot (preferred, cost 1) then on-demand (cost 3), spot's nodes gone mid-burst:
 * violation seconds, replica-hours and weighted cost with placement vs the class on spot alone, and the
 * tick at which the share moved on, counted from the unschedulable deadline (goal: within two ticks); then
 * {@code broker-fails-mid-burst}, spot's broker failing its acquisitions with nothing pending, with the moves
 * of spot's Deployment on the way back (quiet recovery: one or two, not one a tick).
 */
final class PlacementRows {

    private PlacementRows() {
    }

    static void print(long[] seeds) throws Exception {
        Scenario placed = ScenarioReader.read(ControlQualityBenchmark.path("spot-lost-mid-burst"));
        ScenarioPlacement p = placed.placement();
        String cls = placed.classes().get(0).name();
        List<SimPool> pools = p.pools().get(cls);
        Window gone = pools.get(0).noCapacity().get(0);
        Scenario alone = placed.withPlacement(new ScenarioPlacement(p.timing(), Map.of(cls, pools.subList(0, 1))));
        System.out.printf(Locale.ROOT, "placement (issue 30): %s, %s's nodes gone %.0f-%.0f s, deadline %d s,"
                        + " hysteresis %d s, %d seeds%n", placed.name(), pools.get(0).spec().name(), gone.fromSeconds(),
                gone.toSeconds(), p.timing().unschedulableDeadline().toSeconds(), p.timing().recovery().toSeconds(),
                seeds.length);
        System.out.printf(Locale.ROOT, "  %-22s %12s %12s %12s %10s %22s%n", "pools", "violation-s", "replica-h",
                "cost-h", "max-age-s", "move after deadline");
        System.out.println("  (replica-h: pods that ran; cost-h: replicas placed in each pool × its cost weight)");
        row("spot alone", alone, seeds, null);
        row("spot then on-demand", placed, seeds, null);
        brokerRows(seeds);
    }

    /**
     * {@code broker-fails-mid-burst}: spot's broker fails every acquisition for a window (its pods run, do no work,
     * nothing pends): the move counted from the failures' start plus the deadline.
     */
    private static void brokerRows(long[] seeds) throws Exception {
        Scenario placed = ScenarioReader.read(ControlQualityBenchmark.path("broker-fails-mid-burst"));
        ScenarioPlacement p = placed.placement();
        String cls = placed.classes().get(0).name();
        List<SimPool> pools = p.pools().get(cls);
        Window fails = pools.get(0).acquireFails().get(0);
        Scenario alone = placed.withPlacement(new ScenarioPlacement(p.timing(), Map.of(cls, pools.subList(0, 1))));
        System.out.printf(Locale.ROOT, "placement on the broker's figure (issue 30): %s, %s's acquisitions fail"
                        + " %.0f-%.0f s, deadline %d s, hysteresis %d s, %d seeds%n", placed.name(),
                pools.get(0).spec().name(), fails.fromSeconds(), fails.toSeconds(),
                p.timing().unschedulableDeadline().toSeconds(), p.timing().recovery().toSeconds(), seeds.length);
        System.out.printf(Locale.ROOT, "  %-22s %12s %12s %12s %10s %22s %10s%n", "pools", "violation-s", "replica-h",
                "cost-h", "max-age-s", "move after deadline", "way back");
        row("spot alone", alone, seeds, fails.fromSeconds());
        row("spot then on-demand", placed, seeds, fails.fromSeconds());
    }

    /**
     * One row over {@code seeds}; {@code failingFrom}: when spot's broker starts failing (the move is counted from
     * it plus the deadline, and the way back is printed: spot's changes from its first recovering tick to the
     * tick it is available), or null for the nodes-gone scenario (counted from spot's oldest Pending pod).
     */
    private static void row(String label, Scenario placed, long[] seeds, Double failingFrom) {
        double violation = 0;
        double replicaSeconds = 0;
        double cost = 0;
        double maxAge = 0;
        List<String> moves = new ArrayList<>();
        List<String> wayBack = new ArrayList<>();
        for (long seed : seeds) {
            Scenario s = placed.withSeed(seed);
            List<SimPool> pools = s.placement().pools().get(s.classes().get(0).name());
            Duration deadlineAfter = s.placement().timing().unschedulableDeadline();
            List<PlacementSimulator.PlacementLine> lines = new ArrayList<>();
            Simulator.ClassSummary sum = PlacementSimulator.run(s, l -> { }, lines::add).get(0);
            violation += sum.ageObjectiveViolationSeconds();
            replicaSeconds += sum.replicaSeconds();
            maxAge = Math.max(maxAge, sum.maxOldestAgeSeconds());
            PlacementSimulator.PlacementLine previous = null;
            int back = 0;
            boolean recovering = false;
            for (PlacementSimulator.PlacementLine l : lines) {
                if (pools.size() > 1 && l.result().share("spot").has(PlacementReason.Code.RECOVERING)) {
                    recovering = true;
                }
                if (recovering && previous != null
                        && previous.result().share("spot").specReplicas() != l.result().share("spot").specReplicas()) {
                    back++;
                }
                if (recovering && l.result().share("spot").available()) {
                    recovering = false;
                    wayBack.add(Integer.toString(back));
                }
                for (int i = 0; i < pools.size(); i++) {
                    cost += l.result().shares().get(i).replicas() * pools.get(i).spec().costWeight() * s.tickSeconds();
                }
                if (previous != null && previous.result().share("spot").available()
                        && l.result().share("spot").has(PlacementReason.Code.UNAVAILABLE) && pools.size() > 1) {
                    double deadline = (failingFrom != null ? failingFrom
                            : Duration.between(s.start(), previous.pendingSince().get("spot")).toNanos() / 1e9)
                            + deadlineAfter.toSeconds();
                    moves.add(Integer.toString((int) Math.max(0, Math.ceil((l.t() - deadline) / s.tickSeconds() - 1e-9))));
                }
                previous = l;
            }
        }
        int n = seeds.length;
        String moved = moves.isEmpty() ? "-" : "ticks: " + String.join(",", moves.stream().distinct().sorted().toList());
        if (failingFrom == null) {
            System.out.printf(Locale.ROOT, "  %-22s %12.1f %12.2f %12.2f %10.1f %22s%n", label, violation / n,
                    replicaSeconds / 3600 / n, cost / 3600 / n, maxAge, moved);
        } else {
            System.out.printf(Locale.ROOT, "  %-22s %12.1f %12.2f %12.2f %10.1f %22s %10s%n", label, violation / n,
                    replicaSeconds / 3600 / n, cost / 3600 / n, maxAge, moved,
                    wayBack.isEmpty() ? "-" : String.join(",", wayBack.stream().distinct().sorted().toList())
                            + (wayBack.stream().distinct().count() == 1 ? " moves" : ""));
        }
    }
}
