package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.Simulator;
import java.time.Instant;
import java.util.List;

/**
 * How many simulated hours of one class the simulator runs per wall-clock second, through the
 * same sandbox, loop and decision core as the console. Not a test: {@code scripts/bench SimulatorBenchmark}.
 * Reports the load side by side: a light class (0.5 jobs/s) and a busy one (20 jobs/s).
 */
public final class SimulatorBenchmark {

    public static void main(String[] args) {
        double hours = args.length > 0 ? Double.parseDouble(args[0]) : 24;
        System.out.printf("simulator benchmark: one class, %.0f simulated hours, 15 s ticks%n", hours);
        for (double rate : new double[] {0.5, 20}) {
            run(rate, 1); // warm the JIT on a short run
            double[] walls = new double[3];
            for (int i = 0; i < walls.length; i++) {
                walls[i] = run(rate, hours);
            }
            java.util.Arrays.sort(walls);
            double wall = walls[1];
            System.out.printf("  %5.1f jobs/s: %.2f s wall (median of 3) → %.0f simulated hours per wall second%n",
                    rate, wall, hours / wall);
        }
    }

    static double run(double rate, double hours) {
        SandboxClassSpec spec = SandboxClassSpec.builder("bench")
                .baseRate(rate).service(SandboxClassSpec.ServiceTime.exponential(2.0)).concurrency(4).startupSeconds(20).initialReplicas(2).build();
        Policy policy = Policy.builder().slotsPerReplica(4).maxReplicas(100).pollIntervalSeconds(15).build();
        Scenario sc = new Scenario("bench", hours * 3600, 15, 1, Instant.parse("2026-01-01T00:00:00Z"),
                List.of(new ScenarioClass(spec, policy)));
        long[] lines = new long[1];
        long start = System.nanoTime();
        Simulator.run(sc, line -> lines[0]++);
        return (System.nanoTime() - start) / 1e9;
    }

    private SimulatorBenchmark() {
    }
}
