package io.headroom.sim;

import io.headroom.baseline.KedaLengthRule;
import io.headroom.decision.Decider;
import io.headroom.sandbox.SandboxClassSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * One scenario under several rules and seeds, summed: how design.md §3a judges Headroom's decision
 * against the rule it replaces. Every rule sees the same worlds (same seeds, same arrivals), so the
 * difference is the rule's.
 */
public final class SideBySide {

    private SideBySide() {
    }

    /**
     * One rule over every seed and class of a scenario.
     *
     * @param violationSeconds age-objective violation seconds, summed
     * @param replicaHours     replica-hours, summed
     * @param p95AgeSeconds    the mean over runs of each class's p95 oldest age
     * @param maxAgeSeconds    the largest oldest age of any run
     */
    public record Totals(double violationSeconds, double replicaHours, double p95AgeSeconds, double maxAgeSeconds,
                         long scaleEvents, long jobsCompleted, int runs) {
    }

    /** Runs {@code scenario} from each seed under {@code rule} and sums the class summaries. */
    public static Totals run(Scenario scenario, Decider rule, long[] seeds) {
        double violation = 0;
        double replicaSeconds = 0;
        double p95 = 0;
        double max = 0;
        long events = 0;
        long completed = 0;
        int runs = 0;
        for (long seed : seeds) {
            for (Simulator.ClassSummary s : Simulator.run(scenario.withSeed(seed), rule, line -> { })) {
                violation += s.ageObjectiveViolationSeconds();
                replicaSeconds += s.replicaSeconds();
                p95 += s.p95OldestAgeSeconds();
                max = Math.max(max, s.maxOldestAgeSeconds());
                events += s.scaleEvents();
                completed += s.jobsCompleted();
                runs++;
            }
        }
        return new Totals(violation, replicaSeconds / 3600, runs == 0 ? 0 : p95 / runs, max, events, completed, runs);
    }

    /**
     * The KEDA {@code listLength} whose steady replicas match Headroom's: both run the scenario's
     * classes at their steady load (the base arrival rate, or the mean rate over the run for a class
     * that idles at zero), with no bursts, outages or expensive spells, and the listLength (to 0.1)
     * whose mean replicas over the second half come closest to Headroom's is chosen. This is the fair
     * opponent: as warm as Headroom when nothing happens, so only the reaction to what happens differs.
     */
    public static double matchedListLength(Scenario scenario, long seed) {
        Scenario steady = steady(scenario).withSeed(seed);
        double target = meanReplicasSecondHalf(steady, Decider.HEADROOM);
        // Each listLength's run is deterministic: the two ends compared last were usually run in the bisection.
        java.util.Map<Double, Double> runs = new java.util.HashMap<>();
        java.util.function.DoubleUnaryOperator keda = length -> runs.computeIfAbsent(length,
                l -> meanReplicasSecondHalf(steady, KedaLengthRule.of(l)));
        double lo = 0.1;
        double hi = 200;
        // Mean replicas fall as listLength grows; bisect on a 0.1 grid.
        for (int i = 0; i < 40 && hi - lo > 0.1; i++) {
            double mid = Math.round((lo + hi) / 2 * 10) / 10.0;
            double replicas = keda.applyAsDouble(mid);
            if (replicas > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        double a = Math.max(0.1, Math.round(lo * 10) / 10.0);
        double b = Math.round(hi * 10) / 10.0;
        double ra = keda.applyAsDouble(a);
        double rb = keda.applyAsDouble(b);
        return Math.abs(ra - target) <= Math.abs(rb - target) ? a : b;
    }

    /** The scenario's classes at their steady load: same service, pods and policies; nothing happens. */
    static Scenario steady(Scenario s) {
        List<ScenarioClass> classes = new ArrayList<>();
        for (ScenarioClass c : s.classes()) {
            SandboxClassSpec spec = c.sandbox();
            double rate = spec.baseRate() > 0 ? spec.baseRate() : meanRate(spec, s.durationSeconds());
            double cost = meanCost(spec, s.durationSeconds());
            SandboxClassSpec.ServiceTime st = spec.service();
            SandboxClassSpec.ServiceTime scaled = st.distribution() == SandboxClassSpec.Distribution.UNIFORM
                    ? SandboxClassSpec.ServiceTime.uniform(st.minSeconds() * cost, st.maxSeconds() * cost)
                    : new SandboxClassSpec.ServiceTime(st.distribution(), st.meanSeconds() * cost, st.cv(), null, null);
            SandboxClassSpec flat = SandboxClassSpec.builder(spec.name()).baseRate(rate).service(scaled)
                    .concurrency(spec.concurrency()).startupSeconds(spec.startupSeconds())
                    .initialReplicas(Math.max(1, spec.initialReplicas())).target(spec.target()).build();
            classes.add(new ScenarioClass(flat, c.policy()));
        }
        return new Scenario(s.name() + "-steady", Math.max(1800, s.durationSeconds()), s.tickSeconds(), s.seed(),
                s.start(), classes);
    }

    private static double meanRate(SandboxClassSpec spec, double duration) {
        double sum = 0;
        int n = 0;
        for (double t = 0; t < duration; t += 1, n++) {
            sum += spec.rateAt(t);
        }
        return n == 0 ? 0 : sum / n;
    }

    private static double meanCost(SandboxClassSpec spec, double duration) {
        double work = 0;
        double jobs = 0;
        for (double t = 0; t < duration; t += 1) {
            work += spec.rateAt(t) * spec.costAt(t);
            jobs += spec.rateAt(t);
        }
        return jobs > 0 ? work / jobs : 1;
    }

    private static double meanReplicasSecondHalf(Scenario s, Decider rule) {
        double half = s.durationSeconds() / 2;
        double[] sum = new double[1];
        int[] n = new int[1];
        Simulator.run(s, rule, line -> {
            if (line.t() >= half) {
                sum[0] += line.replicas();
                n[0]++;
            }
        });
        return n[0] == 0 ? 0 : sum[0] / n[0];
    }
}
