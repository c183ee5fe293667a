package io.headroom.bench;

import io.headroom.decision.Decider;
import io.headroom.decision.ForecastMode;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.SideBySide;
import io.headroom.sim.Simulator;
import java.util.Locale;

/**
 * Issue 29's periodic scenario with the forecast acting, for a quicker look while working on it:
 * {@code scripts/bench PeriodicProbe SEEDS [NAME [FROM TO]]}
 * (run the class with {@code -DperSeed} for each seed's ratio, {@code -DtraceSeed=i} to trace seed 1000 + i,
 * {@code -Dexplain=true} for each traced tick's words). Prints the replica-hours against the work-conservation
 * ideal; with FROM and TO (seconds), the first seed's ticks in that span (replicas, desired, queue, λ, reasons).
 */
public final class PeriodicProbe {

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        String name = args.length > 1 ? args[1] : "periodic";
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            seeds[i] = 1000 + i;
        }
        Scenario s = ScenarioReader.read(ControlQualityBenchmark.path(name)).withForecastMode(ForecastMode.AUTO);
        if (args.length > 3) {
            double from = Double.parseDouble(args[2]);
            double to = Double.parseDouble(args[3]);
            Simulator.run(s.withSeed(1000 + Integer.getInteger("traceSeed", 0)), Decider.HEADROOM, l -> {
                if (l.t() >= from && l.t() <= to) {
                    System.out.printf(Locale.ROOT, "%6.0f rep %3d ready %3d desired %3d L %6.0f age %5.1f λ %6.2f S %5.2f %s%n",
                            l.t(), l.replicas(), l.readyReplicas(), l.desiredReplicas(), l.queueLength(),
                            l.oldestAgeSeconds(), l.arrivalRate(), l.meanServiceSeconds(), l.reasons());
                    if (Boolean.getBoolean("explain")) {
                        System.out.println("       " + l.explanation());
                    }
                }
            });
        }
        if (System.getProperty("perSeed") != null) {
            double one = ControlQualityBenchmark.idealReplicaHours(s);
            for (long seed : seeds) {
                SideBySide.Totals t = SideBySide.run(s, Decider.HEADROOM, new long[] {seed});
                System.out.printf(Locale.ROOT, "  seed %d: %.0f violation s, %.2f× ideal%n", seed, t.violationSeconds(),
                        t.replicaHours() / one);
            }
        }
        long t0 = System.nanoTime();
        SideBySide.Totals auto = SideBySide.run(s, Decider.HEADROOM, seeds);
        double ideal = ControlQualityBenchmark.idealReplicaHours(s) * seeds.length;
        System.out.printf(Locale.ROOT, "%s auto, %d seeds: %.0f violation s, %.2f replica-h, %.2f× ideal (%.2f), p95 age %.1f s,"
                + " max age %.1f s (%.1f s)%n", name, n, auto.violationSeconds(), auto.replicaHours(),
                auto.replicaHours() / ideal, ideal, auto.p95AgeSeconds(), auto.maxAgeSeconds(),
                (System.nanoTime() - t0) / 1e9);
    }

    private PeriodicProbe() {
    }
}
