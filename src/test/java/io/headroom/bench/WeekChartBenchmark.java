package io.headroom.bench;

import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.history.Downsampler;
import io.headroom.history.History;
import io.headroom.history.SeriesBuffer;
import io.headroom.history.WeekBackfill;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.ui.chart.TimeChart;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.detail.DetailViewModel;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * Benchmark, not a test (issue 29): what the detail's 7 d window costs the FX thread per redraw. One class's full
 * week tier (10,081 points a minute, every series noisy, one-minute bursts) shown at 7 d in a real {@link DetailView}
 * at 1280×800 and 1920×1080, headless: the three charts redrawn 200 times, the FX thread's time from the first
 * chart's draw to the last's per frame (the downsampling of the eight week series to the pixel columns, the band, the
 * grid and the lines), median and p95; and the downsampling alone, per redraw of all eight series. Also the copy of
 * the week into chart series (made off the FX thread when the week grows), median.
 *
 * <pre>scripts/bench WeekChartBenchmark</pre>
 */
public final class WeekChartBenchmark {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final int FRAMES = 200;

    private WeekChartBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        CompletableFuture<Void> started = new CompletableFuture<>();
        Platform.setImplicitExit(false);
        Platform.startup(() -> started.complete(null));
        started.get(30, TimeUnit.SECONDS);
        System.out.printf(Locale.ROOT, "week chart: one class, %d points a series, %d cores, load %.1f%n",
                History.WEEK_POINTS, Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        History h = new History(java.time.Duration.ofSeconds(15));
        fill(h.weekOf("a"));
        for (int[] size : new int[][] {{1280, 800}, {1920, 1080}}) {
            run(h, size[0], size[1]);
        }
        Platform.exit();
    }

    private static void fill(ClassHistory week) {
        Random r = new Random(29);
        double now = T0.getEpochSecond();
        double[] row = new double[ClassHistory.SERIES];
        for (double t = now - 7 * 86_400; t <= now - 60; t += 60) {
            double day = Math.floorMod((long) t, 86_400L) / 86_400.0;
            double rate = 5 + 30 * Math.max(0, Math.sin(Math.PI * (day - 0.3) / 0.5)) + r.nextGaussian();
            if (r.nextInt(2000) == 0) {
                rate *= 6; // a one-minute burst
            }
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = rate;
            row[Series.MEAN_SERVICE.ordinal()] = 8 + r.nextGaussian();
            row[Series.QUEUE_LENGTH.ordinal()] = Math.max(0, 20 * r.nextGaussian());
            row[Series.OLDEST_AGE.ordinal()] = Math.max(0, 30 + 10 * r.nextGaussian());
            row[Series.REPLICAS.ordinal()] = Math.ceil(rate * 8 / 0.7 / 4);
            row[Series.READY_REPLICAS.ordinal()] = row[Series.REPLICAS.ordinal()];
            row[Series.DESIRED_REPLICAS.ordinal()] = row[Series.REPLICAS.ordinal()];
            row[Series.ESTIMATED_SLOTS.ordinal()] = rate * 8 / 0.7;
            week.append(t, row);
        }
    }

    private static void run(History h, int width, int height) throws Exception {
        Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
        List<TimeChart> charts = new ArrayList<>();
        long[] firstStart = new long[1];
        List<Long> frames = new ArrayList<>();
        CountDownLatch shown = new CountDownLatch(1);
        Stage[] stage = new Stage[1];
        DetailViewModel[] vm = new DetailViewModel[1];
        Platform.runLater(() -> {
            vm[0] = new DetailViewModel(clock, Runnable::run);
            vm[0].setWeekHistory(h::findWeek, () -> WeekBackfill.Progress.NONE, Runnable::run);
            DetailView view = new DetailView(vm[0], clock);
            charts.addAll(view.charts());
            StackPane root = new StackPane();
            Scene scene = new Scene(root, width, height);
            // Before the charts' own listeners (they add theirs when they join the scene): the frame's start.
            scene.addPostLayoutPulseListener(() -> firstStart[0] = System.nanoTime());
            root.getChildren().add(view);
            stage[0] = new Stage();
            stage[0].setScene(scene);
            stage[0].show();
            ClassSnapshot s = io.headroom.bench.WeekChartBenchmark.snapshot();
            vm[0].apply(List.of(new TickResult(T0, List.of(s), "dev", "bench")));
            vm[0].select("a");
            vm[0].showWindow(DetailViewModel.WEEK, width);
            // After the charts' listeners: the frame's end.
            scene.addPostLayoutPulseListener(() -> {
                if (charts.get(2).getRedrawCount() > 0) {
                    frames.add(System.nanoTime() - firstStart[0]);
                }
            });
            shown.countDown();
        });
        shown.await(30, TimeUnit.SECONDS);
        List<Long> redraws = new ArrayList<>();
        for (int i = 0; i < FRAMES + 20; i++) {
            long before = count(charts);
            int at = frames.size();
            Platform.runLater(() -> charts.forEach(TimeChart::requestRedraw));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (count(charts) < before + 3 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            while (frames.size() <= at && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            if (i >= 20 && frames.size() > at) { // the first 20: warm-up
                redraws.add(frames.get(frames.size() - 1));
            }
        }
        // The downsampling alone: eight week series (the detail's, at 7 d) to the load chart's columns.
        SeriesBuffer[] buffers = new SeriesBuffer[8];
        int columns = width - 460 - 120;
        CompletableFuture<Void> got = new CompletableFuture<>();
        Platform.runLater(() -> {
            var cs = vm[0].seriesProperty().get();
            int k = 0;
            for (var c : charts) {
                for (var s : c.getSeries()) {
                    if (k < buffers.length) {
                        buffers[k++] = s.getBuffer();
                    }
                }
            }
            got.complete(null);
        });
        got.get(10, TimeUnit.SECONDS);
        Downsampler d = new Downsampler();
        double t1 = T0.getEpochSecond() + 6 * 3600;
        double t0 = t1 - 7 * 86_400 - 6 * 3600;
        List<Long> downs = new ArrayList<>();
        for (int i = 0; i < 520; i++) {
            long a = System.nanoTime();
            for (SeriesBuffer b : buffers) {
                if (b != null) {
                    d.run(b, t0, t1, columns);
                }
            }
            if (i >= 20) {
                downs.add(System.nanoTime() - a);
            }
        }
        // The copy of the week into chart series (off the FX thread in the console).
        List<Long> copies = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            long a = System.nanoTime();
            ClassHistory.Window w = h.findWeek("a").window(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
            new io.headroom.ui.detail.ClassSeries(w.size()).seed(w, 4);
            if (i >= 10) {
                copies.add(System.nanoTime() - a);
            }
        }
        System.out.printf(Locale.ROOT, "  %dx%d: redraw of the three charts at 7 d (FX thread): median %.2f ms, p95 %.2f ms"
                + " (%d frames); downsampling alone, 8 series x %d points to %d columns: median %.3f ms;"
                + " copy of the week into chart series (off the FX thread): median %.1f ms%n", width, height,
                ms(redraws, 0.5), ms(redraws, 0.95), redraws.size(), History.WEEK_POINTS - 1, columns, ms(downs, 0.5),
                ms(copies, 0.5));
        Platform.runLater(stage[0]::close);
    }

    private static long count(List<TimeChart> charts) {
        long n = 0;
        for (TimeChart c : charts) {
            n += c.getRedrawCount();
        }
        return n;
    }

    private static double ms(List<Long> ns, double q) {
        List<Long> s = new ArrayList<>(ns);
        s.sort(null);
        return s.isEmpty() ? Double.NaN : s.get(Math.min(s.size() - 1, (int) (q * s.size()))) / 1e6;
    }

    static ClassSnapshot snapshot() {
        io.headroom.decision.Policy p = io.headroom.decision.Policy.builder().slotsPerReplica(4).maxReplicas(50).build();
        java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals = java.util.Map.of(
                io.headroom.decision.Signals.QUEUE_LENGTH, io.headroom.decision.Signal.of(10, T0),
                io.headroom.decision.Signals.OLDEST_AGE, io.headroom.decision.Signal.of(10, T0),
                io.headroom.decision.Signals.ARRIVAL_RATE, io.headroom.decision.Signal.of(2, T0),
                io.headroom.decision.Signals.MEAN_SERVICE, io.headroom.decision.Signal.of(10, T0));
        io.headroom.decision.Observation o = new io.headroom.decision.Observation(3, 3, signals);
        io.headroom.decision.Decision dec = io.headroom.decision.DecisionEngine.decide("a", p, o,
                io.headroom.decision.ClassMemory.initial(), T0);
        return new ClassSnapshot(new io.headroom.loop.WorkloadClass("a", new io.headroom.cluster.WorkloadRef("dev", "ns",
                "Deployment", "a"), p), T0, o, null, dec, null, null);
    }
}
