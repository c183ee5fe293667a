package io.headroom.bench;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.HeadroomApp;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.stage.Stage;

/**
 * Benchmark, not a test (issue 13): what 24 h of history for 50 classes costs.
 *
 * <ol>
 *   <li>Heap after GC: the real console (the sandbox session and its window, headless), then the
 *       same with 50 classes × 24 h added to the session's domain history and to the detail's chart
 *       buffers (each class opened at 24 h, so its charts are seeded), at a 15 s and at a 5 s tick.
 *       Goal: under 300 MB for the whole console.</li>
 *   <li>A what-if replay (both runs, live and edited policy) of 24 h of one class's domain history
 *       (goal under 100 ms), and of 50 classes (goal under 2 s), on this machine's cores: the per-job
 *       replay (before) and the fluid one (after) side by side in one run.</li>
 * </ol>
 *
 * <p>{@code scripts/bench HistoryBenchmark} (the console part runs headless on Monocle);
 * {@code scripts/bench HistoryBenchmark --replay-only} for the replays alone.
 */
public final class HistoryBenchmark {

    static final int CLASSES = 50;
    static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

    private HistoryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        boolean skipConsole = Arrays.asList(args).contains("--no-console");
        if (Arrays.asList(args).contains("--replay-only")) {
            replays();
            System.exit(0);
        }
        System.out.printf(Locale.ROOT, "history: %d classes x 24 h, %d cores, max heap %d MB%n", CLASSES,
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        double base = heapAfterGcMb();
        System.out.printf(Locale.ROOT, "  JVM before anything:                 %6.1f MB%n", base);
        double console = base;
        Session session = null;
        if (!skipConsole) {
            session = startConsole();
            console = heapAfterGcMb();
            System.out.printf(Locale.ROOT, "  the console (sandbox, 5 classes):    %6.1f MB%n", console);
        }
        for (int tickSeconds : new int[] {15, 5}) {
            Object[] keep = fleet(tickSeconds);
            double with = heapAfterGcMb();
            System.out.printf(Locale.ROOT, "  + %d classes x 24 h at a %2d s tick:  %6.1f MB (history %5.1f MB, %.2f MB a class)"
                            + "  goal < 300 MB: %s%n", CLASSES, tickSeconds, with, with - console,
                    (with - console) / CLASSES, with < 300 ? "met" : "MISSED");
            keep[0] = null;
            keep = null;
        }
        replays();
        if (session != null) {
            Platform.exit();
            session.close();
        }
        System.exit(0);
    }

    /** The real console window on the built-in sandbox, warmed up 15 minutes, laid out at 1280×800. */
    private static Session startConsole() throws Exception {
        System.setProperty("glass.platform", System.getProperty("glass.platform", "Monocle"));
        System.setProperty("monocle.platform", System.getProperty("monocle.platform", "Headless"));
        System.setProperty("prism.order", System.getProperty("prism.order", "sw"));
        CompletableFuture<Void> started = new CompletableFuture<>();
        Platform.setImplicitExit(false);
        Platform.startup(() -> started.complete(null));
        started.get(30, TimeUnit.SECONDS);
        Session session = Session.sandbox(7, NOW, Duration.ofMinutes(15), new MemoryJournal());
        session.warmUp(Duration.ofMinutes(15));
        CompletableFuture<Void> shown = new CompletableFuture<>();
        Platform.runLater(() -> {
            Stage stage = new Stage();
            HeadroomApp.show(stage, session);
            stage.setWidth(1280);
            stage.setHeight(800);
            shown.complete(null);
        });
        shown.get(60, TimeUnit.SECONDS);
        // A few live ticks (and the frames they draw) before measuring: wait for them, with a deadline.
        java.util.concurrent.CountDownLatch ticks = new java.util.concurrent.CountDownLatch(3);
        Runnable unsubscribe = session.subscribe(t -> ticks.countDown());
        session.start();
        if (!ticks.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the console made no 3 live ticks within 60 s");
        }
        unsubscribe.run();
        return session;
    }

    /**
     * 50 classes × a full day in a domain history at {@code tickSeconds}, and the detail's chart
     * buffers for each (opened at 24 h, seeded from it). Returned so the caller keeps it reachable.
     */
    private static Object[] fleet(int tickSeconds) {
        History h = new History(Duration.ofSeconds(tickSeconds));
        double end = NOW.getEpochSecond();
        double[] row = new double[ClassHistory.SERIES];
        for (int c = 0; c < CLASSES; c++) {
            fill(h.of("fleet-" + c), end, tickSeconds, row, c);
        }
        DetailViewModel detail = new DetailViewModel(java.time.Clock.fixed(NOW, java.time.ZoneOffset.UTC), Runnable::run);
        detail.setDomainHistory(h::find, h.capacity(), Runnable::run);
        for (int c = 0; c < CLASSES; c++) {
            detail.select("fleet-" + c);
            detail.showWindow(Duration.ofHours(24), 1_200);
        }
        return new Object[] {h, detail};
    }

    /** A day of a class with a daily wave, a burst and a short outage (NaN). */
    static void fill(ClassHistory ch, double end, int tickSeconds, double[] row, int c) {
        int n = ch.capacity();
        for (int i = 0; i < n; i++) {
            double t = end - (double) (n - 1 - i) * tickSeconds;
            double day = Math.sin(2 * Math.PI * i / n);
            double rate = Math.max(0.1, (2 + c % 5) * (1 + 0.6 * day) * (i % 1_000 < 40 ? 3 : 1));
            boolean outage = i > n / 2 && i < n / 2 + 20;
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = outage ? Double.NaN : rate;
            row[Series.COMPLETION_RATE.ordinal()] = outage ? Double.NaN : rate;
            row[Series.QUEUE_LENGTH.ordinal()] = outage ? Double.NaN : rate * 4;
            row[Series.OLDEST_AGE.ordinal()] = outage ? Double.NaN : 5 + (i % 60);
            row[Series.MEAN_SERVICE.ordinal()] = 1 + (c % 3);
            row[Series.REPLICAS.ordinal()] = Math.ceil(rate * (1 + c % 3) / 4);
            row[Series.READY_REPLICAS.ordinal()] = Math.ceil(rate * (1 + c % 3) / 4);
            row[Series.DESIRED_REPLICAS.ordinal()] = Math.ceil(rate * (1 + c % 3) / 4);
            row[Series.ESTIMATED_SLOTS.ordinal()] = rate * (1 + c % 3);
            ch.append(t, row);
        }
    }

    /**
     * What-if over each class's whole day, side by side in one run: the per-job replay (what a day cost
     * before the fluid model), then the fluid one for one class (its runs one after the other, and side
     * by side on two threads), then 50 classes on every core.
     */
    private static void replays() throws Exception {
        int tick = 15;
        History h = new History(Duration.ofSeconds(tick));
        double[] row = new double[ClassHistory.SERIES];
        for (int c = 0; c < CLASSES; c++) {
            fill(h.of("fleet-" + c), NOW.getEpochSecond(), tick, row, c);
        }
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(200)
                .pollIntervalSeconds(tick).build();
        Policy edited = live.toBuilder().targetUtilization(0.5).build();
        LoadHistory one = LoadHistory.of(h.find("fleet-0"), 86_400);
        java.lang.management.ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "what-if replay of 24 h at a %d s tick (%d points, both runs), load average %.1f:%n",
                tick, one.times().length, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        // What the operator feels first: the first fluid replay in this JVM, before any replay warmed the JIT
        // (with --replay-only nothing ran before it; after the console, the console's ticks warmed the decision).
        long c1 = cpu.getCurrentThreadCpuTime();
        long t1 = System.nanoTime();
        Replay.compare(LoadHistory.of(h.find("fleet-0"), 86_400), live, edited, 1, null, Replay.Progress.NONE,
                Replay.Model.FLUID, Runnable::run);
        System.out.printf(Locale.ROOT, "  one class, fluid, first replay:  %8.1f ms (%.1f ms CPU), its two runs in turn, JIT cold%n",
                (System.nanoTime() - t1) / 1e6, (cpu.getCurrentThreadCpuTime() - c1) / 1e6);

        // Before: the per-job world (one event per job), once after a warm-up on an hour.
        Replay.compare(LoadHistory.of(h.find("fleet-0"), 3_600), live, edited, 1, null, Replay.Progress.NONE,
                Replay.Model.PER_JOB, Runnable::run);
        long c0 = cpu.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Replay.Comparison perJob = Replay.compare(one, live, edited, 1, null, Replay.Progress.NONE,
                Replay.Model.PER_JOB, Runnable::run);
        double perJobMs = (System.nanoTime() - t0) / 1e6;
        System.out.printf(Locale.ROOT, "  one class, per job (before):     %8.1f ms (%.1f ms CPU), live %.1f / edited %.1f replica-h%n",
                perJobMs, (cpu.getCurrentThreadCpuTime() - c0) / 1e6, perJob.current().replicaHours(),
                perJob.edited().replicaHours());

        // After: the fluid queue, runs one after the other on this thread.
        for (int i = 0; i < 5; i++) {
            Replay.compare(one, live, edited, 1, null, Replay.Progress.NONE, Replay.Model.FLUID, Runnable::run);
        }
        double[] ms = new double[7];
        double[] cpuMs = new double[7];
        Replay.Comparison fluid = null;
        for (int i = 0; i < ms.length; i++) {
            c0 = cpu.getCurrentThreadCpuTime();
            t0 = System.nanoTime();
            fluid = Replay.compare(LoadHistory.of(h.find("fleet-0"), 86_400), live, edited, 1, null,
                    Replay.Progress.NONE, Replay.Model.FLUID, Runnable::run);
            ms[i] = (System.nanoTime() - t0) / 1e6;
            cpuMs[i] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6;
        }
        Arrays.sort(ms);
        Arrays.sort(cpuMs);
        System.out.printf(Locale.ROOT, "  one class, fluid, in turn:       %8.1f ms median of 7 (min %.1f, max %.1f; CPU %.1f ms),"
                        + " live %.1f / edited %.1f replica-h%n", ms[3], ms[0], ms[6], cpuMs[3],
                fluid.current().replicaHours(), fluid.edited().replicaHours());

        // After, side by side: the two runs on two threads, as the console and the CLI replay. The CPU is both
        // threads' (this one's and the pool thread's, told when its run has finished).
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            for (int i = 0; i < ms.length; i++) {
                java.util.concurrent.atomic.DoubleAdder other = new java.util.concurrent.atomic.DoubleAdder();
                java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
                java.util.concurrent.Executor timed = r -> two.execute(() -> {
                    long mine = cpu.getCurrentThreadCpuTime();
                    try {
                        r.run();
                    } finally {
                        other.add((cpu.getCurrentThreadCpuTime() - mine) / 1e6);
                        ran.countDown();
                    }
                });
                c0 = cpu.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                Replay.compare(LoadHistory.of(h.find("fleet-0"), 86_400), live, edited, 1, null,
                        Replay.Progress.NONE, Replay.Model.FLUID, timed);
                ms[i] = (System.nanoTime() - t0) / 1e6;
                double mine = (cpu.getCurrentThreadCpuTime() - c0) / 1e6;
                if (!ran.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the pool thread's run did not finish");
                }
                cpuMs[i] = mine + other.sum();
            }
        } finally {
            two.shutdownNow();
        }
        Arrays.sort(ms);
        Arrays.sort(cpuMs);
        System.out.printf(Locale.ROOT, "  one class, fluid, side by side:  %8.1f ms median of 7 (min %.1f, max %.1f;"
                + " CPU %.1f ms, both threads)  goal < 100 ms: %s%n", ms[3], ms[0], ms[6], cpuMs[3],
                ms[3] < 100 ? "met" : "MISSED");
        System.out.printf(Locale.ROOT, "  per job / fluid side by side: %.0fx%n", perJobMs / ms[3]);

        // 50 classes, each a whole day (its two runs in turn), on every core.
        int threads = Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            double[] total = new double[3];
            double[] cpuTotal = new double[3];
            for (int round = 0; round < total.length; round++) {
                java.util.concurrent.atomic.DoubleAdder used = new java.util.concurrent.atomic.DoubleAdder();
                t0 = System.nanoTime();
                List<Future<?>> all = new ArrayList<>();
                for (int c = 0; c < CLASSES; c++) {
                    ClassHistory ch = h.find("fleet-" + c);
                    all.add(pool.submit(() -> {
                        long mine = cpu.getCurrentThreadCpuTime();
                        Replay.compare(LoadHistory.of(ch, 86_400), live, edited, 1, null, Replay.Progress.NONE,
                                Replay.Model.FLUID, Runnable::run);
                        used.add((cpu.getCurrentThreadCpuTime() - mine) / 1e6);
                    }));
                }
                for (Future<?> f : all) {
                    f.get();
                }
                total[round] = (System.nanoTime() - t0) / 1e6;
                cpuTotal[round] = used.sum();
            }
            Arrays.sort(total);
            Arrays.sort(cpuTotal);
            System.out.printf(Locale.ROOT, "  %d classes, fluid: %8.1f ms median of 3 (min %.1f, max %.1f) on %d threads"
                            + "  goal < 2 s: %s; load average now %.1f%n", CLASSES, total[1], total[0], total[2], threads,
                    total[1] < 2_000 ? "met" : "MISSED", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            // What the cores would take if they were the benchmark's alone: the CPU the replays used, spread on them.
            System.out.printf(Locale.ROOT, "  %d classes, fluid: %8.1f ms of CPU (median of 3), %.1f ms a class;"
                            + " %.1f ms on %d idle cores%n", CLASSES, cpuTotal[1], cpuTotal[1] / CLASSES,
                    cpuTotal[1] / threads, threads);
        } finally {
            pool.shutdownNow();
        }
    }

    static double heapAfterGcMb() throws InterruptedException {
        // Collect until the heap stops shrinking (at most 10 rounds): the figure is what is live.
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
            if (now >= used) {
                break;
            }
            used = now;
        }
        return used / 1048576.0;
    }
}
