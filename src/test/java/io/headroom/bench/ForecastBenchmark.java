package io.headroom.bench;

import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.Forecaster;
import io.headroom.forecast.LoadGrid;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.History;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Benchmark, not a test (issue 29): what a week of history costs, and what forecasting a fleet from it costs.
 *
 * <ol>
 *   <li>Heap after GC: 50 classes × 7 days of domain history ({@link ClassHistory}, every series) at a 60 s and at a
 *       15 s resolution. Goal: under 500 MB.</li>
 *   <li>1,000 forecasts (arrival rate, 5-minute slots, 6 h ahead, backtested on 3 days), each read from a week of
 *       history at 60 s: 50 classes × 20 different times of forecasting. Goal: within one tick's budget, 1 s, on one
 *       thread (the poll interval is 5–15 s; forecasts change once a slot, so this is the worst case).</li>
 * </ol>
 *
 * <p>{@code scripts/bench ForecastBenchmark}
 */
public final class ForecastBenchmark {

    static final int CLASSES = 50;
    static final int FORECASTS = 1_000;
    static final double END = Instant.parse("2026-03-09T06:00:00Z").getEpochSecond(); // a Monday, 06:00
    static final double WEEK = 7 * 86_400;

    private ForecastBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        System.out.printf(Locale.ROOT, "forecast: %d classes x 7 days, %d cores, max heap %d MB, load average %.1f%n",
                CLASSES, Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        double base = HistoryBenchmark.heapAfterGcMb();
        System.out.printf(Locale.ROOT, "  JVM before anything:                %6.1f MB%n", base);
        for (int tick : new int[] {60, 15}) {
            ClassHistory[] week = week(tick);
            double with = HistoryBenchmark.heapAfterGcMb();
            System.out.printf(Locale.ROOT, "  + %d classes x 7 days at %2d s:       %6.1f MB (history %5.1f MB, %.2f MB a class,"
                            + " %d points each)  goal < 500 MB: %s%n", CLASSES, tick, with, with - base,
                    (with - base) / CLASSES, week[0].size(), with - base < 500 ? "met" : "MISSED");
            week[0] = null;
        }
        console();
        ClassHistory[] week = week(60);
        forecasts(week);
        System.exit(0);
    }

    /**
     * The week as the console holds it (issue 29): {@link History#forClasses} with the session's budgets, each class's
     * day at the tick (5 s, the sandbox's poll) and its week tier at a minute, both full (the week rolled up from the
     * ticks, as {@link io.headroom.history.HistoryRecorder} does), plus the runner's forecasts of every class.
     */
    static void console() throws InterruptedException {
        double base = HistoryBenchmark.heapAfterGcMb();
        int tick = 5;
        History history = History.forClasses(Duration.ofSeconds(tick), CLASSES, 1L << 30, 1L << 29);
        double[] row = new double[ClassHistory.SERIES];
        int weekPoints = (int) (WEEK / 60);
        double start = END - WEEK;
        for (int c = 0; c < CLASSES; c++) {
            String name = "fleet-" + c;
            Random random = new Random(c);
            ClassHistory week = history.weekOf(name);
            for (int i = 0; i < weekPoints; i++) { // the older days, as the backfill leaves them
                fill(row, random, 5 + 10 * Math.sin(i / 240.0));
                week.append(start + i * 60.0, row);
            }
            ClassHistory day = history.of(name);
            for (double t = END - 86_400; t <= END; t += tick) { // the recent day at the tick
                fill(row, random, 5);
                day.append(t, row);
            }
        }
        io.headroom.session.ForecastRunner runner = new io.headroom.session.ForecastRunner(history,
                () -> java.util.stream.IntStream.range(0, CLASSES).mapToObj(c -> new io.headroom.loop.WorkloadClass(
                        "fleet-" + c, new io.headroom.cluster.WorkloadRef("b", "ns", "Deployment", "fleet-" + c),
                        io.headroom.decision.Policy.builder().build(), null)).toList(),
                java.time.Clock.fixed(Instant.ofEpochSecond((long) END), java.time.ZoneOffset.UTC),
                ForecastSettings.DEFAULTS, io.headroom.session.ForecastRunner.EVERY);
        long t0 = System.nanoTime();
        runner.runDue();
        double ms = (System.nanoTime() - t0) / 1e6;
        double with = HistoryBenchmark.heapAfterGcMb();
        System.out.printf(Locale.ROOT, "  as the console holds it: %d classes, a day at %d s (%d points) and a week at"
                        + " 60 s (%d points), with their forecasts: %6.1f MB (%.1f MB a class; forecasting all %.0f ms)"
                        + "  goal < 500 MB: %s%n", CLASSES, tick, history.of("fleet-0").size(),
                history.weekOf("fleet-0").size(), with - base, (with - base) / CLASSES, ms,
                with - base < 500 ? "met" : "MISSED");
        if (runner.arrivals("fleet-0") == null) {
            throw new AssertionError("no forecast made");
        }
    }

    private static void fill(double[] row, Random random, double rate) {
        for (int s = 0; s < row.length; s++) {
            row[s] = rate * (1 + 0.05 * random.nextGaussian());
        }
    }

    /** 50 classes × a week: 5 jobs/s, a weekday rise to 20–60 jobs/s at 09:00 (± 4 min), 5 % noise, every series. */
    static ClassHistory[] week(int tick) {
        ClassHistory[] all = new ClassHistory[CLASSES];
        double[] row = new double[ClassHistory.SERIES];
        int points = (int) (WEEK / tick) + 1;
        for (int c = 0; c < CLASSES; c++) {
            Random random = new Random(c);
            ClassHistory h = new ClassHistory("fleet-" + c, ClassHistory.capacityFor(Duration.ofSeconds(tick)) * 7);
            double high = 20 + c % 5 * 10;
            double jitter = 0;
            for (int i = 0; i < points; i++) {
                double t = END - WEEK + (double) i * tick;
                long day = Math.floorDiv((long) t, 86_400L);
                double inDay = t - day * 86_400;
                if (inDay < tick) {
                    jitter = (random.nextInt(9) - 4) * 60;
                }
                boolean weekend = Math.floorMod(day + 3, 7) >= 5;
                double rate = (!weekend && inDay >= 9 * 3600 + jitter && inDay < 17 * 3600 ? high : 5)
                        * (1 + 0.05 * random.nextGaussian());
                Arrays.fill(row, Double.NaN);
                row[Series.ARRIVAL_RATE.ordinal()] = rate;
                row[Series.COMPLETION_RATE.ordinal()] = rate;
                row[Series.QUEUE_LENGTH.ordinal()] = rate * 2;
                row[Series.OLDEST_AGE.ordinal()] = 3;
                row[Series.MEAN_SERVICE.ordinal()] = 1 + c % 3;
                row[Series.REPLICAS.ordinal()] = Math.ceil(rate * (1 + c % 3) / 4);
                row[Series.READY_REPLICAS.ordinal()] = row[Series.REPLICAS.ordinal()];
                row[Series.DESIRED_REPLICAS.ordinal()] = row[Series.REPLICAS.ordinal()];
                row[Series.ESTIMATED_SLOTS.ordinal()] = rate * (1 + c % 3);
                h.append(t, row);
            }
            all[c] = h;
        }
        return all;
    }

    private static void forecasts(ClassHistory[] week) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Forecaster forecaster = new Forecaster(ForecastSettings.DEFAULTS);
        int rounds = 7;
        double[] wall = new double[rounds];
        double[] cpuMs = new double[rounds];
        double[] gridMs = new double[rounds];
        int available = 0;
        List<String> words = new ArrayList<>();
        for (int warm = 0; warm < 3; warm++) {
            all(week, forecaster, null);
        }
        for (int r = 0; r < rounds; r++) {
            long c0 = cpu.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            double[] grid = new double[1];
            available = all(week, forecaster, r == 0 ? words : null, grid);
            wall[r] = (System.nanoTime() - t0) / 1e6;
            cpuMs[r] = (cpu.getCurrentThreadCpuTime() - c0) / 1e6;
            gridMs[r] = grid[0];
        }
        Arrays.sort(wall);
        Arrays.sort(cpuMs);
        Arrays.sort(gridMs);
        System.out.printf(Locale.ROOT, "  %d forecasts from a week at 60 s, one thread: %.1f ms median of %d (min %.1f, max %.1f;"
                        + " CPU %.1f ms; reading the grids %.1f ms), %.3f ms a class, %d given  goal < 1 s: %s%n",
                FORECASTS, wall[rounds / 2], rounds, wall[0], wall[rounds - 1], cpuMs[rounds / 2],
                gridMs[rounds / 2], wall[rounds / 2] / FORECASTS, available, wall[rounds / 2] < 1_000 ? "met" : "MISSED");
        System.out.println("  e.g. " + words.get(0));
        System.out.println("  e.g. " + words.get(words.size() - 1));
    }

    private static int all(ClassHistory[] week, Forecaster forecaster, List<String> words) {
        return all(week, forecaster, words, new double[1]);
    }

    /** 1,000 forecasts: each class at 20 times of forecasting, a minute apart (each reads its own grid). */
    private static int all(ClassHistory[] week, Forecaster forecaster, List<String> words, double[] gridMs) {
        int given = 0;
        int per = FORECASTS / week.length;
        for (int k = 0; k < per; k++) {
            double now = END - k * 60.0;
            for (ClassHistory h : week) {
                long g0 = System.nanoTime();
                LoadGrid grid = LoadGrid.of(h, Series.ARRIVAL_RATE, now - WEEK, now, 60);
                gridMs[0] += (System.nanoTime() - g0) / 1e6;
                Forecast f = forecaster.forecast(grid, now, "jobs/s");
                given += f.available() ? 1 : 0;
                if (words != null && k == 0) {
                    words.add(h.className() + ": " + f.reason());
                }
            }
        }
        return given;
    }
}
