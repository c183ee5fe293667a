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
 * tick at which the share moved on, counted from the unschedulable deadline (goal: within two ticks).
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
        row("spot alone", alone, seeds);
        row("spot then on-demand", placed, seeds);
    }

    private static void row(String label, Scenario placed, long[] seeds) {
        double violation = 0;
        double replicaSeconds = 0;
        double cost = 0;
        double maxAge = 0;
        List<String> moves = new ArrayList<>();
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
            for (PlacementSimulator.PlacementLine l : lines) {
                for (int i = 0; i < pools.size(); i++) {
                    cost += l.result().shares().get(i).replicas() * pools.get(i).spec().costWeight() * s.tickSeconds();
                }
                if (previous != null && previous.result().share("spot").available()
                        && l.result().share("spot").has(PlacementReason.Code.UNAVAILABLE) && pools.size() > 1) {
                    double deadline = Duration.between(s.start(), previous.pendingSince().get("spot")).toNanos() / 1e9
                            + deadlineAfter.toSeconds();
                    moves.add(Integer.toString((int) Math.max(0, Math.ceil((l.t() - deadline) / s.tickSeconds() - 1e-9))));
                }
                previous = l;
            }
        }
        int n = seeds.length;
        System.out.printf(Locale.ROOT, "  %-22s %12.1f %12.2f %12.2f %10.1f %22s%n", label, violation / n,
                replicaSeconds / 3600 / n, cost / 3600 / n, maxAge,
                moves.isEmpty() ? "-" : "ticks: " + String.join(",", moves.stream().distinct().sorted().toList()));
    }
}
