package io.headroom.bench;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.DependencyGuard;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * How long one decision takes, and one tick's decisions for 1,000 classes. Not a test: run with
 * {@code scripts/bench DecisionBenchmark}. Each class keeps its memory across ticks (stabilisation
 * windows fill up as in a real run), and every policy has ceilings and a dependency guard.
 */
public final class DecisionBenchmark {
    static final int CLASSES = 1000;
    static final int TICKS = 200;

    public static void main(String[] args) {
        System.out.printf("decision benchmark: %d classes per tick, %d ticks (second half measured)%n", CLASSES, TICKS);
        // Half the classes with an objective: 120 s (loose, as before) or 30 s with 20 s start-up, where every
        // such class is tight and computes the reaction gap's fluid model (decision 0009). Loose, tight, loose,
        // tight, ...: side by side in one run.
        int rounds = 3;
        double[] loose = new double[rounds];
        double[] tight = new double[rounds];
        for (int round = 0; round < rounds; round++) {
            loose[round] = run(120.0, "loose objectives (120 s)");
            tight[round] = run(30.0, "tight objectives (30 s, 20 s start-up: reaction gap computed)");
        }
        Arrays.sort(loose);
        Arrays.sort(tight);
        System.out.printf("  median of %d rounds: loose %.1f µs, tight %.1f µs per decision: tight / loose %.2f×%n", rounds,
                loose[rounds / 2], tight[rounds / 2], tight[rounds / 2] / loose[rounds / 2]);
    }

    private static double run(double maxAge, String label) {
        SplittableRandom rnd = new SplittableRandom(7);
        List<Policy> policies = new ArrayList<>();
        for (int i = 0; i < CLASSES; i++) {
            policies.add(Policy.builder().slotsPerReplica(1 + i % 8).maxAgeSeconds(i % 2 == 0 ? maxAge : null)
                    .startupSeconds(20)
                    .maxReplicas(200).ceilings(List.of(CeilingSpec.budget("db", 400, 10),
                            new CeilingSpec("memory", CeilingSpec.Source.constant(65536),
                                    CeilingSpec.Source.signal(Signals.POD_MEMORY), 20)))
                    .dependencyGuard(new DependencyGuard(250, "db p95 ms")).pollIntervalSeconds(15).build());
        }
        ClassMemory[] memory = new ClassMemory[CLASSES];
        Arrays.fill(memory, ClassMemory.initial());
        int[] replicas = new int[CLASSES];
        Arrays.fill(replicas, 3);
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        long[] tickNanos = new long[TICKS];
        long sink = 0;
        for (int tick = 0; tick < TICKS; tick++) {
            Instant now = t0.plusSeconds(15L * tick);
            List<Observation> obs = new ArrayList<>(CLASSES);
            for (int i = 0; i < CLASSES; i++) {
                obs.add(new Observation(replicas[i], replicas[i], Map.of(
                        Signals.QUEUE_LENGTH, Signal.of(rnd.nextInt(500), now),
                        Signals.OLDEST_AGE, Signal.of(rnd.nextDouble(300), now),
                        Signals.ARRIVAL_RATE, Signal.of(rnd.nextDouble(20), now),
                        Signals.MEAN_SERVICE, Signal.of(0.2 + rnd.nextDouble(5), now),
                        Signals.IN_FLIGHT, Signal.of(rnd.nextInt(20), now),
                        Signals.COMPLETION_RATE, Signal.of(rnd.nextDouble(20), now),
                        Signals.DEPENDENCY, Signal.of(rnd.nextDouble(300), now),
                        Signals.POD_MEMORY, Signal.of(500 + rnd.nextDouble(1500), now))));
            }
            long start = System.nanoTime();
            for (int i = 0; i < CLASSES; i++) {
                Decision d = DecisionEngine.decide("class-" + i, policies.get(i), obs.get(i), memory[i], now);
                memory[i] = d.memory();
                replicas[i] = d.desiredReplicas();
                sink += d.explanation().length();
            }
            tickNanos[tick] = System.nanoTime() - start;
        }
        long[] measured = Arrays.copyOfRange(tickNanos, TICKS / 2, TICKS); // second half: JIT warm
        Arrays.sort(measured);
        double median = measured[measured.length / 2] / 1e6;
        double p90 = measured[(int) (measured.length * 0.9)] / 1e6;
        System.out.printf("  %s%n", label);
        System.out.printf("    one tick, 1,000 decisions: median %.2f ms, p90 %.2f ms%n", median, p90);
        System.out.printf("    one decision: median %.1f µs%n", median * 1000 / CLASSES);
        System.out.printf("    (checksum %d)%n", sink);
        return median;
    }

    private DecisionBenchmark() {
    }
}
