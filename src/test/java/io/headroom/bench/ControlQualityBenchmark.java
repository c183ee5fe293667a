package io.headroom.bench;

import io.headroom.baseline.KedaLengthRule;
import io.headroom.decision.Decider;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sim.FixedLimit;
import io.headroom.sim.Scenario;
import io.headroom.sim.ScenarioClass;
import io.headroom.sim.ScenarioProducers;
import io.headroom.sim.ScenarioReader;
import io.headroom.sim.SideBySide;
import io.headroom.sim.SideBySide.Totals;
import io.headroom.sim.Simulator;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Headroom's decision against KEDA's queue-length rule (design.md §3a), side by side on the same
 * simulated worlds: per scenario over 10 seeds, age-objective violation seconds, p95 and max
 * oldest age, replica-hours, scale events and jobs completed, for Headroom, KEDA at listLength 5 and
 * KEDA at the listLength matched to Headroom's steady replicas. Then the totals over the capacity
 * scenarios and the checks of §3a. Not a test: {@code scripts/bench ControlQualityBenchmark [seeds [anticipation]]}
 * ({@code anticipation}: issue 29's scenarios alone, then the forecast acting, {@code anticipation N}
 * with N seeds for those; {@code capacity}: the capacity scenarios and their totals alone;
 * {@code placement}: issue 30's pools alone, {@link PlacementRows};
 * {@code admission}: issue 30's admission rows alone).
 */
public final class ControlQualityBenchmark {

    /** Where capacity is the problem: §3a's criterion is judged over these. */
    static final List<String> CAPACITY = List.of("burst", "surge", "expensive-burst", "slow-startup", "scale-from-zero",
            "outage-in-burst");
    /** The other load tests of the brief: judged on their own terms (lock-in, holding on missing data, cost). */
    static final List<String> OTHERS = List.of("dependency-saturation", "scale-down-active", "metric-outage",
            "poison", "ceiling", "scale-down", "warm-floor");
    /**
     * Issue 29's scenarios, where a reactive rule loses: periodic bursts, an outage right after a decided
     * scale-up, and a low-rate class of long jobs. Totalled apart, so the capacity totals stay comparable.
     */
    static final List<String> ANTICIPATION = List.of("periodic", "outage-after-scale-up", "low-rate-long-jobs");
    /**
     * Issue 29's forecast acting (decision 0030): scenarios whose class says {@code forecast: auto}, each run reactive
     * (forecast-only), with anticipation, and under KEDA at listLength 5.
     */
    static final List<String> FORECAST = List.of("periodic", "diurnal-week");

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        long[] seeds = new long[n];
        for (int i = 0; i < n; i++) {
            seeds[i] = 1000 + i;
        }
        if (args.length > 1 && args[1].equals("admission")) { // issue 30's rows alone
            admission(seeds);
            return;
        }
        System.out.printf(Locale.ROOT, "control quality: Headroom vs KEDA's length rule, %d seeds per scenario%n%n", n);
        header();
        if (args.length > 1 && args[1].equals("anticipation")) { // issue 29's scenarios alone, for a quicker look
            anticipation(seeds);
            System.out.println();
            // The week runs about a minute a seed per rule: a third argument takes fewer seeds for it.
            forecast(seeds, args.length > 2 ? java.util.Arrays.copyOf(seeds, Integer.parseInt(args[2])) : seeds);
            return;
        }
        boolean capacityOnly = args.length > 1 && args[1].equals("capacity"); // the capacity scenarios and totals alone
        if (args.length > 1 && args[1].equals("placement")) { // issue 30's placement rows alone
            PlacementRows.print(seeds);
            return;
        }
        Totals[] capacity = new Totals[3];
        boolean neverWorse = true;
        StringBuilder losses = new StringBuilder();
        for (String name : CAPACITY) {
            Totals[] t = scenario(name, seeds);
            for (int i = 0; i < 3; i++) {
                capacity[i] = add(capacity[i], t[i]);
            }
            for (int i = 1; i < 3; i++) {
                if (t[0].violationSeconds() > t[i].violationSeconds() + 1e-9) {
                    neverWorse = false;
                    losses.append(String.format(Locale.ROOT, "  %s: %.0f s vs %.0f s (%s)%n", name,
                            t[0].violationSeconds(), t[i].violationSeconds(), i == 1 ? "KEDA 5" : "KEDA matched"));
                }
            }
        }
        System.out.println();
        if (!capacityOnly) {
            for (String name : OTHERS) {
                scenario(name, seeds);
            }
            System.out.println();
            anticipation(seeds);
            System.out.println();
            forecast(seeds, seeds);
            System.out.println();
            PlacementRows.print(seeds);
            System.out.println();
            admission(seeds);
            System.out.println();
        }
        System.out.println("capacity scenarios, in total:");
        row("headroom", capacity[0], "");
        row("keda:5", capacity[1], "");
        row("keda:matched", capacity[2], "");
        for (int i = 1; i < 3; i++) {
            String who = i == 1 ? "KEDA at listLength 5" : "KEDA at the matched listLength";
            double fewer = 1 - capacity[0].violationSeconds() / Math.max(1e-9, capacity[i].violationSeconds());
            double cost = capacity[0].replicaHours() / capacity[i].replicaHours();
            System.out.printf(Locale.ROOT, "  vs %-32s %5.1f %% fewer violation seconds at %.2f× the replica-hours: %s%n",
                    who, fewer * 100, cost, fewer >= 0.5 && cost <= 1.0 + 1e-9 ? "PASS" : "FAIL");
        }
        System.out.println("  never more violation seconds than KEDA in any capacity scenario: "
                + (neverWorse ? "PASS" : "FAIL\n" + losses));
    }

    /**
     * Issue 30: admission while capacity starts. {@code admission-burst} (60 jobs/s against 90 s start-up and a
     * 60 s objective), all under Headroom's scaling, with producers that submit everything, that obey the
     * class's admission, or that sit behind a fixed concurrency limit ({@link FixedLimit}: the steady
     * capacity, and the steady capacity plus the objective's room). Summed over the seeds: violation seconds
     * of the jobs let in (the queue's oldest age over the objective, sampled every second), the largest
     * oldest age, jobs refused at least once, refusals (retries included), jobs still held at the end,
     * jobs completed and replica-hours.
     */
    static void admission(long[] seeds) throws Exception {
        Scenario s = ScenarioReader.read(path("admission-burst"));
        ScenarioClass c = s.classes().get(0);
        int steady = FixedLimit.of(c);
        int roomy = FixedLimit.withObjective(c);
        System.out.println("admission-burst: producers that obey (retry after 30 s), Headroom scaling");
        System.out.printf(Locale.ROOT, "  %-22s %12s %10s %10s %12s %10s %10s %12s%n", "producers", "violation s",
                "max age s", "rejected", "rejections", "held", "completed", "replica-h");
        long[] rejected = new long[4];
        double[] violation = new double[4];
        String[] names = {"submit everything", "obey admission", "limit " + steady + " (steady)",
            "limit " + roomy + " (steady+obj)"};
        ScenarioProducers[] ps = {ScenarioProducers.FREE, ScenarioProducers.obey(30), ScenarioProducers.limit(steady, 30),
            ScenarioProducers.limit(roomy, 30)};
        for (int i = 0; i < ps.length; i++) {
            ScenarioProducers p = ps[i];
            Scenario run = new Scenario(s.name(), s.durationSeconds(), s.tickSeconds(), s.seed(), s.start(),
                    s.classes().stream().map(x -> x.withProducers(p)).toList());
            double v = 0;
            double max = 0;
            double replicaSeconds = 0;
            long rej = 0;
            long refusals = 0;
            long held = 0;
            long done = 0;
            for (long seed : seeds) {
                Simulator.ClassSummary r = Simulator.run(run.withSeed(seed), line -> { }).get(0);
                v += r.ageObjectiveViolationSeconds();
                max = Math.max(max, r.maxOldestAgeSeconds());
                replicaSeconds += r.replicaSeconds();
                rej += r.jobsRejected();
                refusals += r.rejections();
                held += r.jobsHeld();
                done += r.jobsCompleted();
            }
            rejected[i] = rej;
            violation[i] = v;
            System.out.printf(Locale.ROOT, "  %-22s %12.0f %10.1f %10d %12d %10d %10d %12.2f%n", names[i], v, max, rej,
                    refusals, held, done, replicaSeconds / 3600);
        }
        System.out.printf(Locale.ROOT, "  admission: %.0f %% fewer violation seconds than submitting everything;"
                + " rejects %.2f× the jobs of the steady limit, %.2f× those of the steady+objective limit%n",
                100 * (1 - violation[1] / Math.max(1e-9, violation[0])), rejected[1] / (double) Math.max(1, rejected[2]),
                rejected[1] / (double) Math.max(1, rejected[3]));
    }

    /**
     * Issue 29's scenarios, each with its own yardstick: periodic against the work-conservation ideal
     * ({@link #idealReplicaHours}), low-rate-long-jobs' steady replicas against its plan ({@link #plan}).
     */
    static void anticipation(long[] seeds) throws Exception {
        for (String name : ANTICIPATION) {
            // Reactive, as these rows were first measured; the forecast acting is {@link #forecast}'s.
            Scenario s = ScenarioReader.read(path(name)).withForecastMode(io.headroom.decision.ForecastMode.FORECAST_ONLY);
            Totals[] t = scenario(name, s, seeds);
            if (name.equals("periodic")) {
                double ideal = idealReplicaHours(s) * seeds.length;
                System.out.printf(Locale.ROOT, "  work-conservation ideal %.2f replica-h (every class at its target"
                        + " utilisation, instant pods, perfect foresight): headroom %.2f×, keda:5 %.2f×, keda:matched %.2f×%n",
                        ideal, t[0].replicaHours() / ideal, t[1].replicaHours() / ideal, t[2].replicaHours() / ideal);
            }
            if (name.equals("low-rate-long-jobs")) {
                double h = steadyReplicas(s, Decider.HEADROOM, seeds);
                double k = steadyReplicas(s, KedaLengthRule.of(5), seeds);
                int plan = plan(s.classes().get(0));
                System.out.printf(Locale.ROOT, "  steady state (second half, mean over seeds): headroom %.1f replicas"
                        + " = %.2f× the plan of %d; keda:5 %.1f (%.2f×)%n", h, h / plan, plan, k, k / plan);
            }
        }
    }

    /**
     * Issue 29's forecast acting: each of {@link #FORECAST} (the week on {@code weekSeeds}) reactive (its class in forecast-only), with anticipation
     * (auto, as the file says: in the simulator a proposal counts as approved at once), and KEDA at listLength 5;
     * violation seconds and replica-hours beside the work-conservation ideal.
     */
    static void forecast(long[] all, long[] weekSeeds) throws Exception {
        System.out.printf(Locale.ROOT, "forecast acting (issue 29); the floor ahead of each forecast rise, the"
                + " scale-down window shortened while a floor brings the capacity back%n");
        for (String name : FORECAST) {
            Scenario s = ScenarioReader.read(path(name));
            long[] seeds = name.equals("diurnal-week") ? weekSeeds : all;
            long t0 = System.nanoTime();
            Totals reactive = SideBySide.run(s.withForecastMode(io.headroom.decision.ForecastMode.FORECAST_ONLY),
                    Decider.HEADROOM, seeds);
            long t1 = System.nanoTime();
            Totals auto = SideBySide.run(s.withForecastMode(io.headroom.decision.ForecastMode.AUTO), Decider.HEADROOM,
                    seeds);
            long t2 = System.nanoTime();
            Totals k5 = SideBySide.run(s, KedaLengthRule.of(5), seeds);
            double ideal = idealReplicaHours(s) * seeds.length;
            System.out.println(name + " (" + seeds.length + " seeds)");
            row("headroom", reactive, String.format(Locale.ROOT, " %.2f× ideal (reactive, %.1f s a run)",
                    reactive.replicaHours() / ideal, (t1 - t0) / 1e9 / seeds.length));
            row("headroom+fcst", auto, String.format(Locale.ROOT, " %.2f× ideal (auto, %.1f s a run)",
                    auto.replicaHours() / ideal, (t2 - t1) / 1e9 / seeds.length));
            row("keda:5", k5, String.format(Locale.ROOT, " %.2f× ideal", k5.replicaHours() / ideal));
            System.out.printf(Locale.ROOT, "  work-conservation ideal %.2f replica-h%n", ideal);
        }
    }

    /**
     * The work-conservation ideal in replica-hours: the scenario's expected work, second by second
     * ({@code rate(t) × cost(t) × mean S}), served at the policy's target utilisation by {@code k}-slot
     * replicas that appear the moment the work does and leave when it is done: {@code ∫ λ(t)·S(t) dt / (k·u)}.
     * No queue, no start-up, no noise: no rule reaches it, and a steady class at its plan runs at about 1×.
     */
    static double idealReplicaHours(Scenario s) {
        double seconds = 0;
        for (ScenarioClass c : s.classes()) {
            double mean = meanService(c.sandbox());
            double slotSeconds = 0;
            for (double t = 0; t < s.durationSeconds(); t += 1) {
                slotSeconds += c.sandbox().rateAt(t) * c.sandbox().costAt(t) * mean;
            }
            seconds += slotSeconds / (c.policy().slotsPerReplica() * c.policy().targetUtilization());
        }
        return seconds / 3600;
    }

    /** The decision's plan for a class at its base rate and mean service time: ceil(ceil(λ × S / u) / k). */
    static int plan(ScenarioClass c) {
        double slots = Math.ceil(c.sandbox().baseRate() * meanService(c.sandbox()) / c.policy().targetUtilization() - 1e-9);
        return (int) Math.ceil(slots / c.policy().slotsPerReplica() - 1e-9);
    }

    static double meanService(SandboxClassSpec spec) {
        SandboxClassSpec.ServiceTime st = spec.service();
        return st.distribution() == SandboxClassSpec.Distribution.UNIFORM
                ? (st.minSeconds() + st.maxSeconds()) / 2 : st.meanSeconds();
    }

    /** Mean spec replicas over the second half of the run, over every seed (the first class). */
    static double steadyReplicas(Scenario s, Decider rule, long[] seeds) {
        double half = s.durationSeconds() / 2;
        double sum = 0;
        long n = 0;
        for (long seed : seeds) {
            double[] acc = new double[2];
            Simulator.run(s.withSeed(seed), rule, line -> {
                if (line.t() >= half) {
                    acc[0] += line.replicas();
                    acc[1]++;
                }
            });
            sum += acc[0];
            n += (long) acc[1];
        }
        return n == 0 ? 0 : sum / n;
    }

    /** Runs one scenario under the three rules; prints three rows; returns headroom, keda 5, keda matched. */
    static Totals[] scenario(String name, long[] seeds) throws Exception {
        return scenario(name, ScenarioReader.read(path(name)), seeds);
    }

    /** A scenario by name: under examples/scenarios, or under its long/ folder (runs of hours, kept out of the tests). */
    static Path path(String name) {
        Path p = Path.of("examples/scenarios", name + ".yaml");
        return java.nio.file.Files.exists(p) ? p : Path.of("examples/scenarios/long", name + ".yaml");
    }

    /** The same for a scenario already read (e.g. with a policy changed), printed under {@code name}. */
    static Totals[] scenario(String name, Scenario s, long[] seeds) {
        double matched = SideBySide.matchedListLength(s, seeds[0]);
        Totals h = SideBySide.run(s, Decider.HEADROOM, seeds);
        Totals k5 = SideBySide.run(s, KedaLengthRule.of(5), seeds);
        Totals km = SideBySide.run(s, KedaLengthRule.of(matched), seeds);
        System.out.println(name);
        row("headroom", h, "");
        row("keda:5", k5, "");
        row("keda:" + fmt(matched), km, " (matched)");
        return new Totals[] {h, k5, km};
    }

    static void header() {
        System.out.printf(Locale.ROOT, "  %-16s %12s %10s %10s %12s %8s %10s%n", "rule", "violation s", "p95 age s",
                "max age s", "replica-h", "scales", "completed");
    }

    static void row(String rule, Totals t, String note) {
        System.out.printf(Locale.ROOT, "  %-16s %12.0f %10.1f %10.1f %12.2f %8d %10d%s%n", rule, t.violationSeconds(),
                t.p95AgeSeconds(), t.maxAgeSeconds(), t.replicaHours(), t.scaleEvents(), t.jobsCompleted(), note);
    }

    static Totals add(Totals a, Totals b) {
        if (a == null) {
            return b;
        }
        int runs = a.runs() + b.runs();
        return new Totals(a.violationSeconds() + b.violationSeconds(), a.replicaHours() + b.replicaHours(),
                (a.p95AgeSeconds() * a.runs() + b.p95AgeSeconds() * b.runs()) / runs,
                Math.max(a.maxAgeSeconds(), b.maxAgeSeconds()), a.scaleEvents() + b.scaleEvents(),
                a.jobsCompleted() + b.jobsCompleted(), runs);
    }

    static String fmt(double v) {
        return io.headroom.decision.Figures.fmt(v);
    }

    private ControlQualityBenchmark() {
    }
}
