package io.headroom.bench;

import io.headroom.ui.chart.ChartSeries;
import io.headroom.ui.chart.SeriesKind;
import io.headroom.ui.chart.TimeAxis;
import io.headroom.ui.chart.TimeChart;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleConsumer;
import javafx.animation.AnimationTimer;
import javafx.application.Platform;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.chart.LineChart;
import javafx.scene.chart.NumberAxis;
import javafx.scene.chart.XYChart;
import javafx.stage.Stage;

/**
 * Benchmark, not a test: median time per update + frame for 10 series × 5,000 points, TimeChart
 * against chart-fx (test scope only) and JavaFX {@code LineChart} (symbols and animation off),
 * headless, in one run; then 50 sparklines × 5,760 points redrawn on one canvas per frame.
 *
 * <p>Run from the project root:
 * <pre>
 * mvn -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/bench.classpath -Dmdep.includeScope=test
 * java -cp target/test-classes:target/classes:$(cat target/bench.classpath) io.headroom.bench.ChartRenderBenchmark
 * </pre>
 *
 * <p>Each frame appends one sample to every series (the oldest drops out, so both charts keep
 * 5,000 points per series) and slides the window by one sample; then the pulse lays out,
 * draws and renders. Pulses run unthrottled ({@code javafx.animation.fullspeed}), so the time
 * between two animation-timer callbacks is the full cost of one update + frame, rendering on the
 * software pipeline included. The FX-thread share (update to end of layout and drawing) is
 * printed too: it is what the chart itself costs, while the frame also holds the software
 * renderer, which shares the machine's cores with the unthrottled pulse loop. The headless
 * Monocle settings are set here unless given with -D.
 */
public final class ChartRenderBenchmark {

    private static final int SERIES = 10;
    private static final int POINTS = 5_000;
    private static final double WIDTH = 1200;
    private static final double HEIGHT = 600;

    private ChartRenderBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        defaultProperty("glass.platform", "Monocle");
        defaultProperty("monocle.platform", "Headless");
        defaultProperty("prism.order", "sw");
        defaultProperty("prism.text", "t2k");
        defaultProperty("javafx.animation.fullspeed", "true");
        CompletableFuture<Void> started = new CompletableFuture<>();
        // Without this the toolkit exits as soon as the startup runnable finds no window open.
        Platform.setImplicitExit(false);
        Platform.startup(() -> started.complete(null));
        started.get(30, TimeUnit.SECONDS);

        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1; // 2 doubles the frames counted
        if (args.length > 1 && args[1].equals("TimeChart")) {
            // Only our chart, e.g. under a profiler: the same measurement, the others skipped.
            Result ours = measure("TimeChart", ChartRenderBenchmark::timeChart, 60, 300 * scale);
            System.out.printf(Locale.ROOT, "TimeChart frame %.2f ms, FX thread %.2f ms, CPU per frame FX %.2f ms"
                    + " + render %.2f ms%n", ours.frameMs, ours.fxMs, ours.fxCpuMs, ours.renderCpuMs);
            Platform.exit();
            return;
        }
        Result ours = measure("TimeChart", ChartRenderBenchmark::timeChart, 60, 300 * scale);
        Result fx = measure("chart-fx", ChartRenderBenchmark::chartFx, 60, 300 * scale);
        Result theirs = measure("LineChart", ChartRenderBenchmark::lineChart, 5, 25 * scale);
        Result sparks = measure("sparklines", ChartRenderBenchmark::sparklines, 60, 300 * scale);

        System.out.printf(Locale.ROOT, "%d series x %d points, %.0fx%.0f px, software pipeline, headless%n",
                SERIES, POINTS, WIDTH, HEIGHT);
        System.out.printf(Locale.ROOT, "%-10s %12s %14s %8s %12s %16s%n", "", "frame (ms)", "FX thread (ms)", "frames",
                "FX CPU (ms)", "render CPU (ms)");
        for (Result r : List.of(ours, fx, theirs)) {
            System.out.printf(Locale.ROOT, "%-10s %12.2f %14.2f %8d %12.2f %16.2f%n", r.name, r.frameMs, r.fxMs,
                    r.frames, r.fxCpuMs, r.renderCpuMs);
        }
        System.out.printf(Locale.ROOT, "LineChart / TimeChart: frame %.1fx, FX thread %.1fx (goal >= 10x per frame)%n",
                theirs.frameMs / ours.frameMs, theirs.fxMs / ours.fxMs);
        System.out.printf(Locale.ROOT, "chart-fx / TimeChart:  frame %.2fx, FX thread %.2fx (goal >= 1x)%n",
                fx.frameMs / ours.frameMs, fx.fxMs / ours.fxMs);
        System.out.printf(Locale.ROOT, "CPU per frame (FX + render): TimeChart %.2f ms, chart-fx %.2f ms, LineChart %.2f ms"
                        + " (chart-fx / TimeChart %.2fx, LineChart / TimeChart %.1fx)%n",
                ours.cpuMs(), fx.cpuMs(), theirs.cpuMs(), fx.cpuMs() / ours.cpuMs(), theirs.cpuMs() / ours.cpuMs());
        System.out.printf(Locale.ROOT, "%d sparklines x %d points (24 h at 15 s), %dx%d px each, one canvas:"
                        + " frame %.2f ms, FX thread %.2f ms (goal <= 16.7 ms)%n", SPARKLINES, SPARK_POINTS,
                SPARK_WIDTH, SPARK_HEIGHT, sparks.frameMs, sparks.fxMs);
        Platform.exit();
    }

    /** A chart under test: its root node and the per-frame update that appends at {@code t}. */
    private record Subject(Parent root, DoubleConsumer update) {
    }

    /**
     * Medians of the wall time per frame and of the FX-thread share; and the CPU time per frame of
     * the FX thread and of the renderer thread (the software pipeline rasterises there), averaged
     * over the measured frames: CPU time does not grow with the machine's load as wall time does.
     */
    private record Result(String name, double frameMs, double fxMs, int frames, double fxCpuMs, double renderCpuMs) {
        double cpuMs() {
            return fxCpuMs + renderCpuMs;
        }
    }

    private static Result measure(String name, java.util.function.Supplier<Subject> factory, int warmup, int frames)
            throws Exception {
        CompletableFuture<Result> done = new CompletableFuture<>();
        Platform.runLater(() -> {
            Subject subject = factory.get();
            Stage stage = new Stage();
            Scene scene = new Scene(subject.root(), WIDTH, HEIGHT);
            stage.setScene(scene);
            stage.show();

            long[] frameNanos = new long[frames];
            long[] fxNanos = new long[frames];
            long[] frameStart = {0};
            long[] cpuStart = new long[2];
            Thread renderer = rendererThread();
            int[] count = {0};
            // Registered after the chart's own listener (the chart is already in the scene), so
            // it runs after the chart has drawn: update → layout → draw is the FX-thread share.
            scene.addPostLayoutPulseListener(() -> {
                int i = count[0] - warmup - 1;
                if (i >= 0 && i < frames && frameStart[0] != 0) {
                    fxNanos[i] = System.nanoTime() - frameStart[0];
                }
            });
            AnimationTimer timer = new AnimationTimer() {
                private double t = POINTS;

                @Override
                public void handle(long ignored) {
                    long now = System.nanoTime();
                    int i = count[0] - warmup - 1;
                    if (i >= 0 && i < frames) {
                        frameNanos[i] = now - frameStart[0];
                    }
                    if (i == -1) {
                        cpuStart[0] = THREADS.getCurrentThreadCpuTime();
                        cpuStart[1] = THREADS.getThreadCpuTime(renderer.getId());
                    }
                    if (i + 1 >= frames) {
                        double fxCpu = (THREADS.getCurrentThreadCpuTime() - cpuStart[0]) / 1e6 / frames;
                        double renderCpu = (THREADS.getThreadCpuTime(renderer.getId()) - cpuStart[1]) / 1e6 / frames;
                        stop();
                        stage.hide();
                        done.complete(new Result(name, medianMs(frameNanos), medianMs(fxNanos), frames, fxCpu,
                                renderCpu));
                        return;
                    }
                    count[0]++;
                    frameStart[0] = now;
                    subject.update().accept(t++);
                }
            };
            // Start updating after the first pulse has laid out: stage.show() lays out outside a pulse,
            // and chart-fx keeps its data sets read-locked from a layout to the next post-layout hook,
            // so an update before that pulse would wait on its own thread forever.
            Runnable[] starter = new Runnable[1];
            starter[0] = () -> {
                scene.removePostLayoutPulseListener(starter[0]);
                timer.start();
            };
            scene.addPostLayoutPulseListener(starter[0]);
            Platform.requestNextPulse();
        });
        return done.get(3, TimeUnit.MINUTES);
    }

    private static Subject timeChart() {
        TimeAxis axis = new TimeAxis(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), ZoneOffset.UTC);
        axis.setFollowLive(false);
        axis.setWindowLength(POINTS - 1);
        axis.setWindowEnd(POINTS - 1);
        TimeChart chart = new TimeChart("TimeChart", axis);
        double[][] walks = walks();
        List<ChartSeries> series = new ArrayList<>();
        for (int s = 0; s < SERIES; s++) {
            ChartSeries cs = chart.addSeries("series " + s, SeriesKind.LINE, POINTS);
            for (int i = 0; i < POINTS; i++) {
                cs.append(i, walks[s][i]);
            }
            series.add(cs);
        }
        Random random = new Random(7);
        double[] last = lastValues(walks);
        return new Subject(chart, t -> {
            for (int s = 0; s < SERIES; s++) {
                last[s] += random.nextGaussian();
                series.get(s).append(t, last[s]);
            }
            axis.setWindowEnd(t);
        });
    }

    /**
     * chart-fx on the same data and the same per-frame update: one {@code XYChart}, its default
     * {@code ErrorDataSetRenderer} (point reduction on, as shipped) without markers or error bars,
     * ten circular data sets of 5,000 points, the x axis range moved by hand like the others.
     */
    private static Subject chartFx() {
        io.fair_acc.chartfx.axes.spi.DefaultNumericAxis x = new io.fair_acc.chartfx.axes.spi.DefaultNumericAxis("t");
        x.setAutoRanging(false);
        x.setAnimated(false);
        x.setMin(0);
        x.setMax(POINTS - 1);
        io.fair_acc.chartfx.axes.spi.DefaultNumericAxis y = new io.fair_acc.chartfx.axes.spi.DefaultNumericAxis("v");
        y.setAnimated(false);
        y.setAutoRanging(true);
        io.fair_acc.chartfx.XYChart chart = new io.fair_acc.chartfx.XYChart(x, y);
        chart.setTitle("chart-fx");
        chart.setAnimated(false);
        io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer renderer =
                new io.fair_acc.chartfx.renderer.spi.ErrorDataSetRenderer();
        renderer.setDrawMarker(false);
        renderer.setErrorStyle(io.fair_acc.chartfx.renderer.ErrorStyle.NONE);
        renderer.setPolyLineStyle(io.fair_acc.chartfx.renderer.LineStyle.NORMAL);
        chart.getRenderers().setAll(renderer);
        double[][] walks = walks();
        List<io.fair_acc.dataset.spi.CircularDoubleErrorDataSet> sets = new ArrayList<>();
        double[] zeros = new double[POINTS];
        double[] xs = new double[POINTS];
        for (int i = 0; i < POINTS; i++) {
            xs[i] = i;
        }
        for (int s = 0; s < SERIES; s++) {
            io.fair_acc.dataset.spi.CircularDoubleErrorDataSet d =
                    new io.fair_acc.dataset.spi.CircularDoubleErrorDataSet("series " + s, POINTS);
            d.add(xs, walks[s], zeros, zeros);
            sets.add(d);
        }
        renderer.getDatasets().setAll(sets);
        Random random = new Random(7);
        double[] last = lastValues(walks);
        return new Subject(chart, t -> {
            for (int s = 0; s < SERIES; s++) {
                last[s] += random.nextGaussian();
                sets.get(s).add(t, last[s], 0, 0);
            }
            x.setMin(t - (POINTS - 1));
            x.setMax(t);
        });
    }

    static final int SPARKLINES = 50;
    static final int SPARK_POINTS = 5_760;
    static final int SPARK_WIDTH = 160;
    static final int SPARK_HEIGHT = 18;

    /**
     * The overview's sparkline column as the brief asks for it (issue 13 item 3): one canvas for
     * every row, each row's 24 h at 15 s M4-reduced to its pixel columns and stroked as one path.
     * Each frame appends a sample to all 50 series and redraws the whole canvas.
     */
    private static Subject sparklines() {
        javafx.scene.canvas.Canvas canvas = new javafx.scene.canvas.Canvas(SPARK_WIDTH, SPARKLINES * SPARK_HEIGHT);
        Random random = new Random(11);
        io.headroom.history.SeriesBuffer[] rows = new io.headroom.history.SeriesBuffer[SPARKLINES];
        io.headroom.history.Downsampler[] m4 = new io.headroom.history.Downsampler[SPARKLINES];
        double[] last = new double[SPARKLINES];
        for (int r = 0; r < SPARKLINES; r++) {
            rows[r] = new io.headroom.history.SeriesBuffer(SPARK_POINTS);
            m4[r] = new io.headroom.history.Downsampler();
            double v = 30;
            for (int i = 0; i < SPARK_POINTS; i++) {
                v = Math.max(0, v + random.nextGaussian());
                rows[r].append(i * 15.0, v);
            }
            last[r] = v;
        }
        javafx.scene.layout.Pane root = new javafx.scene.layout.Pane(canvas);
        double[] t = {SPARK_POINTS * 15.0};
        return new Subject(root, ignored -> {
            double now = t[0];
            t[0] += 15;
            javafx.scene.canvas.GraphicsContext g = canvas.getGraphicsContext2D();
            g.setFill(javafx.scene.paint.Color.web("#0d1117"));
            g.fillRect(0, 0, canvas.getWidth(), canvas.getHeight());
            g.setStroke(javafx.scene.paint.Color.web("#58a6ff"));
            g.setLineWidth(1);
            for (int r = 0; r < SPARKLINES; r++) {
                last[r] = Math.max(0, last[r] + random.nextGaussian());
                rows[r].append(now, last[r]);
                io.headroom.history.Downsampler d = m4[r];
                d.run(rows[r], now - 86_400, now, SPARK_WIDTH);
                double lo = d.min() == d.min() ? Math.min(0, d.min()) : 0;
                double hi = d.max() == d.max() && d.max() > lo ? d.max() : lo + 1;
                double top = r * SPARK_HEIGHT + 2;
                double h = SPARK_HEIGHT - 4;
                g.beginPath();
                boolean pen = false;
                for (int i = 0; i < d.size(); i++) {
                    double v = d.value(i);
                    if (v != v) {
                        pen = false;
                        continue;
                    }
                    double px = (d.time(i) - (now - 86_400)) / 86_400 * SPARK_WIDTH;
                    double py = top + h - (v - lo) / (hi - lo) * h;
                    if (pen) {
                        g.lineTo(px, py);
                    } else {
                        g.moveTo(px, py);
                        pen = true;
                    }
                }
                g.stroke();
            }
        });
    }

    private static Subject lineChart() {
        NumberAxis x = new NumberAxis(0, POINTS - 1, 500);
        x.setAutoRanging(false);
        x.setAnimated(false);
        NumberAxis y = new NumberAxis();
        y.setAnimated(false);
        LineChart<Number, Number> chart = new LineChart<>(x, y);
        chart.setTitle("LineChart");
        chart.setCreateSymbols(false);
        chart.setAnimated(false);
        double[][] walks = walks();
        List<ObservableList<XYChart.Data<Number, Number>>> data = new ArrayList<>();
        for (int s = 0; s < SERIES; s++) {
            ObservableList<XYChart.Data<Number, Number>> points = FXCollections.observableArrayList();
            for (int i = 0; i < POINTS; i++) {
                points.add(new XYChart.Data<>(i, walks[s][i]));
            }
            chart.getData().add(new XYChart.Series<>("series " + s, points));
            data.add(chart.getData().get(s).getData());
        }
        Random random = new Random(7);
        double[] last = lastValues(walks);
        return new Subject(chart, t -> {
            for (int s = 0; s < SERIES; s++) {
                last[s] += random.nextGaussian();
                ObservableList<XYChart.Data<Number, Number>> points = data.get(s);
                points.remove(0);
                points.add(new XYChart.Data<>(t, last[s]));
            }
            x.setLowerBound(t - (POINTS - 1));
            x.setUpperBound(t);
        });
    }

    /** The same random walks for both charts. */
    private static double[][] walks() {
        Random random = new Random(42);
        double[][] walks = new double[SERIES][POINTS];
        for (int s = 0; s < SERIES; s++) {
            double v = 100 + 20 * s;
            for (int i = 0; i < POINTS; i++) {
                v += random.nextGaussian();
                walks[s][i] = v;
            }
        }
        return walks;
    }

    private static double[] lastValues(double[][] walks) {
        double[] last = new double[SERIES];
        for (int s = 0; s < SERIES; s++) {
            last[s] = walks[s][POINTS - 1];
        }
        return last;
    }

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /** The prism renderer thread: the software pipeline draws the canvases there. */
    private static Thread rendererThread() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("QuantumRenderer")) {
                return t;
            }
        }
        throw new IllegalStateException("no QuantumRenderer thread");
    }

    private static double medianMs(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static void defaultProperty(String key, String value) {
        if (System.getProperty(key) == null) {
            System.setProperty(key, value);
        }
    }
}
