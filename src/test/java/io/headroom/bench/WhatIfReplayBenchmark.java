package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * How long a what-if replay takes (both runs) for the windows the console offers, at a 5 s tick,
 * side by side for a light class (2 jobs/s) and a busy one (40 jobs/s) with a burst, and side by
 * side for the two models: per job (the sandbox's world, the default up to an hour) and the fluid
 * queue (the default beyond), each with its two runs on two threads as the console runs them. The
 * console replays on every edit, off the FX thread: this says whether that is instant.
 * Not a test: {@code scripts/bench WhatIfReplayBenchmark}.
 */
public final class WhatIfReplayBenchmark {

    public static void main(String[] args) {
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
                .pollIntervalSeconds(5).build();
        Policy edited = live.toBuilder().targetUtilization(0.5).build();
        ExecutorService two = Executors.newFixedThreadPool(2);
        System.out.printf(Locale.ROOT, "what-if replay: both runs (live and edited policy) on two threads, 5 s ticks;"
                + " load average %.1f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println("                              per job (median of 3)   fluid (median of 5)   default");
        try {
            for (double rate : new double[] {2, 40}) {
                for (int minutes : new int[] {15, 30, 60, 180, 1440}) {
                    LoadHistory h = history(minutes, rate);
                    // A day job by job at 40 jobs/s is minutes of work: the figure is not taken.
                    boolean perJob = minutes <= 180;
                    String a = perJob ? time(h, live, edited, Replay.Model.PER_JOB, two, 3) : "      (not run)";
                    String b = time(h, live, edited, Replay.Model.FLUID, two, 5);
                    System.out.printf(Locale.ROOT, "  %4.0f jobs/s, %4d min window: %-22s  %-20s  %s%n", rate,
                            minutes, a, b, Replay.Model.forWindow(h.seconds()).name().toLowerCase(Locale.ROOT));
                }
            }
        } finally {
            two.shutdownNow();
        }
        System.out.printf(Locale.ROOT, "load average after: %.1f%n",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String time(LoadHistory h, Policy live, Policy edited, Replay.Model model, ExecutorService two, int n) {
        Replay.compare(h, live, edited, 1, null, Replay.Progress.NONE, model, two); // warm the JIT
        double[] ms = new double[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            Replay.compare(h, live, edited, 1, null, Replay.Progress.NONE, model, two);
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return String.format(Locale.ROOT, "%7.1f ms (%.0f-%.0f)", ms[n / 2], ms[0], ms[n - 1]);
    }

    /** {@code minutes} of charted load at a 5 s tick: {@code rate} jobs/s of 1 s, tripled in the middle third. */
    static LoadHistory history(int minutes, double rate) {
        int n = minutes * 12 + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = 1_796_000_000 + 5.0 * i;
            r[i] = i > n / 3 && i < 2 * n / 3 ? 3 * rate : rate;
            s[i] = 1;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }

    private WhatIfReplayBenchmark() {
    }
}
