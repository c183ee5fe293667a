package io.headroom.bench;

import io.headroom.decision.Placement;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.decision.PlacementReason;
import io.headroom.sandbox.SandboxClassSpec.Window;
import io.headroom.sim.PlacementSimulator;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.SimPool;
import io.headroom.sim.Simulator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Issue 30's placement rows of {@link ControlQualityBenchmark}: the burst scenario with its class on two pools,
 * spot (preferred, cost 1) then on-demand (cost 3), spot's nodes gone from 330 s to 900 s (mid-burst):
 * violation seconds, replica-hours and weighted cost with placement vs the class on spot alone, and the
 * tick at which the share moved on, counted from the unschedulable deadline (goal: within two ticks).
 */
final class PlacementRows {

    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(30), Duration.ofSeconds(120));
    static final Window SPOT_GONE = new Window(330, 900);

    private PlacementRows() {
    }

    static void print(long[] seeds) throws Exception {
        Scenario burst = ScenarioReader.read(ControlQualityBenchmark.path("burst"));
        SimPool spot = new SimPool(new PoolSpec("spot", 30, null, 1, null), List.of(SPOT_GONE));
        SimPool onDemand = new SimPool(new PoolSpec("on-demand", 30, null, 3, null), List.of());
        System.out.printf(Locale.ROOT, "placement (issue 30): burst, spot's nodes gone %.0f-%.0f s, deadline %d s,"
                        + " hysteresis %d s, %d seeds%n", SPOT_GONE.fromSeconds(), SPOT_GONE.toSeconds(),
                TIMING.unschedulableDeadline().toSeconds(), TIMING.recovery().toSeconds(), seeds.length);
        System.out.printf(Locale.ROOT, "  %-22s %12s %12s %12s %10s %22s%n", "pools", "violation-s", "replica-h",
                "cost-h", "max-age-s", "move after deadline");
        row("spot alone", burst, List.of(spot), seeds);
        row("spot then on-demand", burst, List.of(spot, onDemand), seeds);
    }

    private static void row(String label, Scenario burst, List<SimPool> pools, long[] seeds) {
        double violation = 0;
        double replicaSeconds = 0;
        double cost = 0;
        double maxAge = 0;
        List<String> moves = new ArrayList<>();
        for (long seed : seeds) {
            Scenario s = burst.withSeed(seed);
            String cls = s.classes().get(0).name();
            List<PlacementSimulator.PlacementLine> lines = new ArrayList<>();
            Simulator.ClassSummary sum = PlacementSimulator.run(s, Map.of(cls, pools), TIMING, l -> { }, lines::add)
                    .get(0);
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
                            + TIMING.unschedulableDeadline().toSeconds();
                    moves.add(String.format(Locale.ROOT, "%.0f", Math.ceil((l.t() - deadline) / s.tickSeconds())));
                }
                previous = l;
            }
        }
        int n = seeds.length;
        System.out.printf(Locale.ROOT, "  %-22s %12.1f %12.2f %12.2f %10.1f %22s%n", label, violation / n,
                replicaSeconds / 3600 / n, cost / 3600 / n, maxAge,
                moves.isEmpty() ? "-" : "ticks " + String.join(",", moves.stream().distinct().sorted().toList()));
    }
}
