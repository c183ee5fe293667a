package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Predictive;
import io.headroom.whatif.Replay;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A week's what-if for one class (issue 29 "Must show": under 1 s): the live policy reactive, the same with the
 * floors auto mode would hold (forecasts made every 5 min from the history before each step), and KEDA's rule at
 * listLength 5, on a week at a 15 s tick with a weekday morning rise (1 → 60 jobs/s at 09:00, 2 s a job) and a
 * quiet weekend. The runs go side by side on two threads as the console and {@code headroom whatif} run them.
 * Prints the wall time and the process's CPU time (median of 5 after one warm-up, then median of 5 after 11), and the
 * three runs' figures.
 * Not a test: {@code scripts/bench WeekWhatIfBenchmark}.
 */
public final class WeekWhatIfBenchmark {

    static final double DAY = 86_400;

    public static void main(String[] args) {
        double monday = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();
        LoadHistory week = week(monday, 7, 15);
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(15).build();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.printf(Locale.ROOT, "week what-if: %d points at 15 s, live + predictive + KEDA (listLength 5) on two"
                + " threads; load average %.1f, %d cores%n", week.times().length, os.getSystemLoadAverage(),
                os.getAvailableProcessors());
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            long w0 = System.nanoTime();
            long c0 = os.getProcessCpuTime();
            Replay.Comparison first = run(week, live, two);
            System.out.printf(Locale.ROOT, "  first replay in a fresh JVM (JIT cold): %.0f ms wall, %.0f ms CPU%n",
                    (System.nanoTime() - w0) / 1e6, (os.getProcessCpuTime() - c0) / 1e6);
            int n = 5;
            double[] timed = timed(n, () -> run(week, live, two), os);
            System.out.printf(Locale.ROOT, "  a week's what-if, one class: %.0f ms wall (%.0f–%.0f), %.0f ms CPU"
                    + " (median of %d; goal < 1000 ms)%n", timed[0], timed[1], timed[2], timed[3], n);
            // Warm, as in a console that has run its loop for a while: the decision code the replay runs is the
            // loop's own, compiled by then. Five more replays, then the median of five.
            timed(n, () -> run(week, live, two), os);
            timed = timed(n, () -> run(week, live, two), os);
            System.out.printf(Locale.ROOT, "  the same, warm (after 11 replays): %.0f ms wall (%.0f–%.0f), %.0f ms CPU"
                    + " (median of %d)%n", timed[0], timed[1], timed[2], timed[3], n);
            // On this thread alone, its own CPU time (no JIT or GC threads, no other process): the live run by
            // itself, then the whole what-if one run after the other.
            java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            double[] liveCpu = new double[3];
            double[] allCpu = new double[3];
            for (int i = 0; i < 3; i++) {
                long a = mx.getCurrentThreadCpuTime();
                Replay.compare(week, live, live, ComparisonTable.SEED, null, null, Replay.Progress.NONE,
                        Replay.Model.FLUID, Runnable::run);
                long b = mx.getCurrentThreadCpuTime();
                run(week, live, Runnable::run);
                long c = mx.getCurrentThreadCpuTime();
                liveCpu[i] = (b - a) / 1e6;
                allCpu[i] = (c - b) / 1e6;
            }
            Arrays.sort(liveCpu);
            Arrays.sort(allCpu);
            System.out.printf(Locale.ROOT, "  one thread, its CPU (median of 3): the live run alone %.0f ms; live +"
                    + " KEDA + predictive in turn %.0f ms%n", liveCpu[1], allCpu[1]);
            for (var r : new Object[][] {{"live (reactive)", first.current()}, {"with predictive", first.predictive()},
                {first.baselineLabel(), first.baseline()}}) {
                Replay.Run run = (Replay.Run) r[1];
                System.out.printf(Locale.ROOT, "  %-32s %8.0f s over the objective, %7.1f replica-hours%n", r[0],
                        run.summary().ageObjectiveViolationSeconds(), run.replicaHours());
            }
            System.out.println("  " + first.predictiveSummary().words());
        } finally {
            two.shutdownNow();
        }
        System.out.printf(Locale.ROOT, "load average after: %.1f%n", os.getSystemLoadAverage());
    }

    /** Runs {@code n} times: the median, least and most wall ms, and the median process CPU ms. */
    static double[] timed(int n, Runnable once, com.sun.management.OperatingSystemMXBean os) {
        double[] wall = new double[n];
        double[] cpu = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            long p0 = os.getProcessCpuTime();
            once.run();
            wall[i] = (System.nanoTime() - t0) / 1e6;
            cpu[i] = (os.getProcessCpuTime() - p0) / 1e6;
        }
        Arrays.sort(wall);
        Arrays.sort(cpu);
        return new double[] {wall[n / 2], wall[0], wall[n - 1], cpu[n / 2]};
    }

    static Replay.Comparison run(LoadHistory week, Policy live, java.util.concurrent.Executor two) {
        return Replay.compare(week, live, live, ComparisonTable.SEED, ComparisonTable.keda(5.0), Predictive.of(week),
                Replay.Progress.NONE, Replay.Model.FLUID, two);
    }

    /** {@code days} from Monday at {@code step}: 1 job/s, 60 jobs/s 09:00–17:00 on weekdays, 2 s a job. */
    static LoadHistory week(double monday, int days, double step) {
        int n = (int) (days * DAY / step) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = monday + step * i;
            double inDay = (step * i) % DAY;
            boolean weekend = (int) (step * i / DAY) % 7 >= 5;
            double ramp = Math.min(1, Math.max(0, (inDay - 9 * 3600) / 120))
                    - Math.min(1, Math.max(0, (inDay - 17 * 3600) / 120));
            r[i] = 1 + (weekend ? 9 : 59) * ramp;
            s[i] = 2;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }
}
