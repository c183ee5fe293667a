package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Predictive;
import io.headroom.whatif.Replay;
import io.headroom.ui.whatif.WhatIfViewModel;
import io.headroom.whatif.LoadSource;
import io.headroom.whatif.WarmUp;
import io.headroom.whatif.WeekAhead;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A week's what-if for one class (issue 29 "Must show": under 1 s): the live policy reactive, the same with the
 * floors auto mode would hold (forecasts made every 5 min from the history before each step), and KEDA's rule at
 * listLength 5, on a week at a 15 s tick with a weekday morning rise (1 → 60 jobs/s at 09:00, 2 s a job) and a
 * quiet weekend. The runs go side by side on two threads as the console and {@code headroom whatif} run them.
 * Prints the wall time and the process's CPU time (median of 5 after one warm-up, then median of 5 after 11), and the
 * three runs' figures; then the operator's first week what-if in fresh JVMs taking turns: cold, after the warm-up,
 * and with the week computed ahead ({@link WeekAhead}: the figures shown at once, then the exact replay).
 * Not a test: {@code scripts/bench WeekWhatIfBenchmark}.
 */
public final class WeekWhatIfBenchmark {

    static final double DAY = 86_400;

    public static void main(String[] args) throws Exception {
        double monday = Instant.parse("2026-11-30T00:00:00Z").getEpochSecond();
        LoadHistory week = week(monday, 7, 15);
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(15).build();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        if (args.length > 0 && args[0].equals("first-ahead")) {
            firstAhead(week, live, os);
            return;
        }
        if (args.length > 0 && args[0].equals("jit")) {
            jitSideBySide(args.length > 1 ? Integer.parseInt(args[1]) : 3, os);
            return;
        }
        if (args.length > 0 && args[0].startsWith("first")) {
            first(args[0].equals("first-warm"), week, live, os);
            return;
        }
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
        freshJvms(args.length > 0 ? Integer.parseInt(args[0]) : 3, os);
        System.out.printf(Locale.ROOT, "load average after: %.1f%n", os.getSystemLoadAverage());
    }

    /**
     * The operator's first week what-if in a fresh console, with and without the console's warm-up
     * ({@link WarmUp}), each in its own fresh JVM, taking turns {@code pairs} times: the medians side by side.
     */
    static void freshJvms(int pairs, com.sun.management.OperatingSystemMXBean os) throws Exception {
        double[][] cold = new double[2][pairs];
        double[][] warm = new double[3][pairs];
        double[][] ahead = new double[5][pairs];
        for (int i = 0; i < pairs; i++) {
            double[] c = child("first");
            double[] w = child("first-warm");
            double[] a = child("first-ahead");
            cold[0][i] = c[0];
            cold[1][i] = c[1];
            warm[0][i] = w[0];
            warm[1][i] = w[1];
            warm[2][i] = w[2];
            for (int k = 0; k < ahead.length; k++) {
                ahead[k][i] = a[k];
            }
        }
        for (double[][] all : new double[][][] {cold, warm, ahead}) {
            for (double[] a : all) {
                Arrays.sort(a);
            }
        }
        int m = pairs / 2;
        System.out.printf(Locale.ROOT, "  first week what-if in a fresh JVM (median of %d, each its own JVM, taking"
                + " turns; load average %.1f):%n", pairs, os.getSystemLoadAverage());
        System.out.printf(Locale.ROOT, "    without the warm-up: %.0f ms wall (%.0f–%.0f), %.0f ms CPU%n", cold[0][m],
                cold[0][0], cold[0][pairs - 1], cold[1][m]);
        System.out.printf(Locale.ROOT, "    after the warm-up:   %.0f ms wall (%.0f–%.0f), %.0f ms CPU (the warm-up itself"
                + " %.0f ms wall on one thread, in the background)%n", warm[0][m], warm[0][0], warm[0][pairs - 1],
                warm[1][m], warm[2][m]);
        System.out.printf(Locale.ROOT, "    with the week computed ahead (after the warm-up, as the console does):"
                + " shown after %.1f ms (%.1f–%.1f); the exact replay after it %.0f ms wall (%.0f–%.0f), %.0f ms CPU"
                + " (the warm-up %.0f ms and the precompute %.0f ms wall on one thread, in the background)%n",
                ahead[3][m], ahead[3][0], ahead[3][pairs - 1], ahead[0][m], ahead[0][0], ahead[0][pairs - 1],
                ahead[1][m], ahead[2][m], ahead[4][m]);
    }

    /**
     * In a fresh JVM, as the console does it: the warm-up, then the week computed ahead ({@link WeekAhead}, one
     * thread), then the operator's week what-if in the window's view model: the time from asking to the figures
     * shown (the week computed ahead), then the exact replay's wall and CPU on two threads.
     * Prints "FIRST exact-wall exact-cpu warm-up shown precompute" in ms.
     */
    static void firstAhead(LoadHistory week, Policy live, com.sun.management.OperatingSystemMXBean os)
            throws Exception {
        long t = System.nanoTime();
        WarmUp.replay(Replay.Progress.NONE);
        double warmMs = (System.nanoTime() - t) / 1e6;
        LoadSource source = source(week);
        WeekAhead ahead = new WeekAhead(java.time.Clock.systemUTC());
        t = System.nanoTime();
        ahead.compute("orders", live, source, source, Runnable::run).get().orElseThrow();
        double precomputeMs = (System.nanoTime() - t) / 1e6;
        java.util.List<Runnable> held = new java.util.ArrayList<>();
        WhatIfViewModel vm = new WhatIfViewModel("orders", live, source, held::add, Runnable::run,
                ComparisonTable.SEED);
        vm.setWeek(source);
        vm.setWeekAhead(ahead);
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            vm.setReplayRuns(two);
            vm.windowMinutesProperty().set(WhatIfViewModel.WEEK_MINUTES);
            long w0 = System.nanoTime();
            vm.replay(); // on the FX thread in the console: the figures computed ahead are shown before it returns
            double shownMs = (System.nanoTime() - w0) / 1e6;
            if (vm.rows().isEmpty() || !vm.statusProperty().get().contains("in the background")) {
                throw new IllegalStateException("the week computed ahead was not shown: " + vm.statusProperty().get());
            }
            // The exact replay, on the replaying thread with its runs side by side on two (as the console's I/O pool).
            w0 = System.nanoTime();
            long c0 = os.getProcessCpuTime();
            held.forEach(Runnable::run);
            double exactMs = (System.nanoTime() - w0) / 1e6;
            double exactCpu = (os.getProcessCpuTime() - c0) / 1e6;
            if (!vm.statusProperty().get().startsWith("Replayed week")) {
                throw new IllegalStateException("the exact replay did not finish: " + vm.statusProperty().get());
            }
            System.out.printf(Locale.ROOT, "FIRST %.1f %.1f %.1f %.2f %.1f%n", exactMs, exactCpu, warmMs, shownMs,
                    precomputeMs);
        } finally {
            two.shutdownNow();
        }
    }

    /** The synthetic week as the console's histories answer: the points with {@code from <= t <= to}. */
    static LoadSource source(LoadHistory h) {
        return new LoadSource() {
            @Override
            public double newestTime() {
                return h.times()[h.times().length - 1];
            }

            @Override
            public LoadHistory between(double from, double to) {
                double[] t = h.times();
                int a = 0;
                while (a < t.length && t[a] < from) {
                    a++;
                }
                int b = a;
                while (b < t.length && t[b] <= to) {
                    b++;
                }
                return new LoadHistory(Arrays.copyOfRange(t, a, b), Arrays.copyOfRange(h.arrivalRate(), a, b),
                        Arrays.copyOfRange(h.meanServiceSeconds(), a, b), h.queueAtStart(), h.replicasAtStart());
            }
        };
    }

    /**
     * {@code jit [pairs]}: the operator's first week what-if in a fresh JVM after the console's warm-up, with the JIT
     * as the JVM's defaults set it, as {@code ./headroom} ran it until 2026-12-06 evening (C2 at four times its
     * counts) and as it runs it now ({@code headroom_jit_options}), fresh JVMs taking turns: what waiting longer for
     * C2 at start costs the steady work the console warms for.
     */
    static void jitSideBySide(int pairs, com.sun.management.OperatingSystemMXBean os) throws Exception {
        Map<String, List<String>> sets = new java.util.LinkedHashMap<>();
        sets.put("JVM defaults", List.of());
        sets.put("C2 at 4x its counts", StartupBenchmark.LATE_C2);
        sets.put("./headroom's (" + LauncherLayout.launcherFlags(java.nio.file.Path.of(".")).get(0) + " …)",
                LauncherLayout.launcherFlags(java.nio.file.Path.of(".")));
        Map<String, List<double[]>> got = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs; i++) {
            for (var e : sets.entrySet()) {
                got.computeIfAbsent(e.getKey(), k -> new java.util.ArrayList<>()).add(child("first-warm", e.getValue()));
            }
        }
        System.out.printf(Locale.ROOT, "  the first week what-if after the warm-up, fresh JVMs taking turns (median of %d;"
                + " load average %.1f):%n", pairs, os.getSystemLoadAverage());
        for (var e : got.entrySet()) {
            double[] wall = e.getValue().stream().mapToDouble(r -> r[0]).sorted().toArray();
            double[] cpu = e.getValue().stream().mapToDouble(r -> r[1]).sorted().toArray();
            double[] warmUp = e.getValue().stream().mapToDouble(r -> r[2]).sorted().toArray();
            System.out.printf(Locale.ROOT, "    %-44s %.0f ms wall (%.0f–%.0f), %.0f ms CPU; the warm-up %.0f ms%n",
                    e.getKey(), wall[pairs / 2], wall[0], wall[pairs - 1], cpu[pairs / 2], warmUp[pairs / 2]);
        }
    }

    /** Runs this class in a fresh JVM in {@code mode}: its wall ms, CPU ms and warm-up ms. */
    static double[] child(String mode) throws Exception {
        return child(mode, List.of());
    }

    /** As {@link #child(String)}, the JVM given {@code jvm} options too. */
    static double[] child(String mode, List<String> jvm) throws Exception {
        String javaBin = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new java.util.ArrayList<>(List.of(javaBin, "-Xmx2g"));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), WeekWhatIfBenchmark.class.getName(), mode));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException(mode + " failed: " + out);
        }
        String line = out.lines().filter(l -> l.startsWith("FIRST ")).findFirst()
                .orElseThrow(() -> new IllegalStateException(mode + " printed no figures: " + out));
        return Arrays.stream(line.substring(6).trim().split(" ")).mapToDouble(Double::parseDouble).toArray();
    }

    /** In a fresh JVM: the warm-up (if asked), then the first week what-if on two threads, as the console runs it. */
    static void first(boolean warmUp, LoadHistory week, Policy live, com.sun.management.OperatingSystemMXBean os) {
        double warmMs = 0;
        if (warmUp) {
            long t = System.nanoTime();
            WarmUp.replay(Replay.Progress.NONE);
            warmMs = (System.nanoTime() - t) / 1e6;
            // No pause after it: the operator's what-if starts the moment the warm-up ends (the worst case; the
            // console waits 5 s before warming and an operator some seconds more).
        }
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            long w0 = System.nanoTime();
            long c0 = os.getProcessCpuTime();
            run(week, live, two);
            System.out.printf(Locale.ROOT, "FIRST %.1f %.1f %.1f%n", (System.nanoTime() - w0) / 1e6,
                    (os.getProcessCpuTime() - c0) / 1e6, warmMs);
        } finally {
            two.shutdownNow();
        }
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
