package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.ScenarioReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A few scenarios of {@link ControlQualityBenchmark}, side by side, for a quicker look while working on one:
 * {@code scripts/bench ScenarioProbe SEEDS NAME[:absorbStep=G] ...}. Prints the same rows as the benchmark;
 * {@code :absorbStep=G} runs the scenario with every class's policy buying warm capacity for a G× step
 * (decision 0009), so what it buys and costs shows beside KEDA's rule on the same worlds.
 */
public final class ScenarioProbe {

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            seeds[i] = 1000 + i;
        }
        ControlQualityBenchmark.header();
        for (int i = 1; i < args.length; i++) {
            String[] parts = args[i].split(":absorbStep=");
            Scenario s = ScenarioReader.read(ControlQualityBenchmark.path(parts[0]));
            if (parts.length > 1) {
                s = withAbsorbStep(s, Double.parseDouble(parts[1]));
            }
            long t0 = System.nanoTime();
            ControlQualityBenchmark.scenario(args[i], s, seeds);
            System.out.printf(Locale.ROOT, "  (%.1f s)%n", (System.nanoTime() - t0) / 1e9);
        }
    }

    static Scenario withAbsorbStep(Scenario s, double step) {
        List<ScenarioClass> classes = new ArrayList<>();
        for (ScenarioClass c : s.classes()) {
            Policy p = c.policy().toBuilder().absorbStep(step).build();
            classes.add(new ScenarioClass(c.sandbox(), p));
        }
        return new Scenario(s.name(), s.durationSeconds(), s.tickSeconds(), s.seed(), s.start(), classes);
    }

    private ScenarioProbe() {
    }
}
