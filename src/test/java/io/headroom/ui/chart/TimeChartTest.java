package io.headroom.ui.chart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Three charts on one time axis in a real (headless) stage. */
@ExtendWith(ApplicationExtension.class)
class TimeChartTest {

    private static final double T = Instant.parse("2026-03-01T10:00:00Z").getEpochSecond();
    private static final double WINDOW = 600;

    private TimeAxis axis;
    private TimeChart age;
    private TimeChart replicas;
    private TimeChart rate;

    @Start
    void start(Stage stage) {
        axis = new TimeAxis(Clock.fixed(Instant.ofEpochSecond((long) T), ZoneOffset.UTC), ZoneOffset.UTC);
        axis.setFollowLive(false);
        axis.setWindowLength(WINDOW);
        axis.setWindowEnd(T);

        age = new TimeChart("Oldest age", axis);
        age.setUnit("s");
        age.getReferenceLines().add(new ReferenceLine(120, "objective 120 s"));
        replicas = new TimeChart("Replicas", axis);
        replicas.setFixedYRange(0, 10);
        rate = new TimeChart("Arrival rate", axis);
        rate.setUnit("msg/s");
        rate.setFixedYRange(0, 10);

        VBox root = new VBox(age, replicas, rate);
        for (TimeChart c : List.of(age, replicas, rate)) {
            VBox.setVgrow(c, Priority.ALWAYS);
        }
        stage.setScene(new Scene(root, 800, 600));
        stage.show();
    }

    @Test
    void appendingDataRedrawsEveryChartAndPaintsThePlot() throws Exception {
        ChartSeries ageSeries = fx(() -> age.addSeries("oldest", SeriesKind.LINE));
        ChartSeries desired = fx(() -> replicas.addSeries("desired", SeriesKind.STEP));
        ChartSeries arrivals = fx(() -> rate.addSeries("arrivals", SeriesKind.LINE));
        waitUntil(() -> fx(() -> age.getRedrawCount() > 0 && replicas.getRedrawCount() > 0
                && rate.getRedrawCount() > 0));
        Point probe = fx(() -> probe(replicas, T - WINDOW / 2, 7));
        Color background = fx(() -> pixel(replicas, probe));

        // Read the counters and append in one FX task, so any later redraw includes the data.
        long[] before = fx(() -> {
            for (double t = T - WINDOW - 30; t <= T; t += 5) {
                ageSeries.append(t, 60 + (t % 50));
                desired.append(t, 7);
                arrivals.append(t, 3);
            }
            return new long[] {age.getRedrawCount(), replicas.getRedrawCount(), rate.getRedrawCount()};
        });

        waitUntil(() -> fx(() -> age.getRedrawCount() > before[0]
                && replicas.getRedrawCount() > before[1]
                && rate.getRedrawCount() > before[2]));
        Color painted = fx(() -> pixel(replicas, probe));
        Color seriesColor = ChartTheme.dark().seriesColor(0);
        assertFalse(close(background, seriesColor), "the probe starts off the line: " + background);
        assertTrue(close(painted, seriesColor), "step line at 7 painted there: " + painted);
        // The objective line is part of the auto range, and the range starts at 0.
        double[] range = fx(age::getYRange);
        assertEquals(0, range[0]);
        assertTrue(range[1] >= 120, "objective visible: " + range[1]);
    }

    @Test
    void drawsMissingDataAsAGapNotAsZero() throws Exception {
        long before = fx(() -> {
            ChartSeries arrivals = rate.addSeries("arrivals", SeriesKind.LINE);
            for (double t = T - WINDOW - 30; t <= T; t += 5) {
                boolean outage = t > T - 400 && t < T - 200;
                arrivals.append(t, outage ? Double.NaN : 5);
            }
            return rate.getRedrawCount();
        });
        waitUntil(() -> fx(() -> rate.getRedrawCount() > before));

        Color seriesColor = ChartTheme.dark().seriesColor(0);
        assertTrue(fx(() -> paintedNear(rate, T - 500, 5, seriesColor)), "line where there is data");
        assertFalse(fx(() -> paintedNear(rate, T - 300, 5, seriesColor)), "no line across the outage");
        assertFalse(fx(() -> paintedNear(rate, T - 300, 0, seriesColor)), "no line dropped to zero");
    }

    @Test
    void denseDataDrawsEveryColumnFromItsMinToItsMax() throws Exception {
        // About 16 samples per pixel column, swinging between 2 and 8: each column is drawn as
        // one span, which must still reach both extremes and cover what lies between them.
        long before = fx(() -> {
            ChartSeries arrivals = rate.addSeries("arrivals", SeriesKind.LINE);
            int i = 0;
            for (double t = T - WINDOW - 30; t <= T; t += 0.05) {
                arrivals.append(t, i++ % 2 == 0 ? 2 : 8);
            }
            return rate.getRedrawCount();
        });
        waitUntil(() -> fx(() -> rate.getRedrawCount() > before));

        Color seriesColor = ChartTheme.dark().seriesColor(0);
        for (double t : new double[] {T - 550, T - 300, T - 10}) {
            for (double v : new double[] {2, 5, 8}) {
                assertTrue(fx(() -> paintedNear(rate, t, v, seriesColor)), "painted at " + v + " at " + (T - t) + " s ago");
            }
            assertFalse(fx(() -> paintedNear(rate, t, 9.5, seriesColor)), "nothing above the max");
            assertFalse(fx(() -> paintedNear(rate, t, 0.5, seriesColor)), "nothing below the min");
        }
    }

    @Test
    void aSparseSlopedLineIsDrawnBetweenItsSamples() throws Exception {
        // One sample a minute (~80 px apart): the line between samples is stroked, not spans.
        long before = fx(() -> {
            ChartSeries arrivals = rate.addSeries("arrivals", SeriesKind.LINE);
            for (double t = T - WINDOW - 60; t <= T; t += 60) {
                arrivals.append(t, (t - (T - WINDOW)) / WINDOW * 8 + 1);
            }
            return rate.getRedrawCount();
        });
        waitUntil(() -> fx(() -> rate.getRedrawCount() > before));

        Color seriesColor = ChartTheme.dark().seriesColor(0);
        // Half-way between the samples at T - 300 and T - 240 the ramp is at 5.4.
        // A sloped 1.5 px line is anti-aliased: where it crosses a pixel column it may cover no pixel
        // whole (at least three quarters of one), so look for the line's ink, not its exact colour.
        assertTrue(fx(() -> inkedNear(rate, T - 270, 5.4, seriesColor)), "the segment between two samples");
        assertFalse(fx(() -> inkedNear(rate, T - 270, 7, seriesColor)), "nothing off the line");
    }

    @Test
    void valuesBeyondAFixedRangeAreCutAtThePlotEdge() throws Exception {
        // Dense data swinging between 2 and 50 on a 0-10 axis: each column's span runs to the top
        // of the plot and stops there, as the stroked line did under the plot's clip.
        long before = fx(() -> {
            ChartSeries arrivals = rate.addSeries("arrivals", SeriesKind.LINE);
            int i = 0;
            for (double t = T - WINDOW - 30; t <= T; t += 0.05) {
                arrivals.append(t, i++ % 2 == 0 ? 2 : 50);
            }
            return rate.getRedrawCount();
        });
        waitUntil(() -> fx(() -> rate.getRedrawCount() > before));

        Color seriesColor = ChartTheme.dark().seriesColor(0);
        Bounds plot = fx(rate::getPlotBounds);
        boolean[] inside = fx(() -> {
            WritableImage shot = rate.snapshot(null, null);
            int x = (int) Math.floor(rate.xOf(T - 300));
            return new boolean[] {
                close(shot.getPixelReader().getColor(x, (int) plot.getMinY() + 2), seriesColor),
                close(shot.getPixelReader().getColor(x, (int) plot.getMinY() - 3), seriesColor)};
        });
        assertTrue(inside[0], "the span reaches the top of the plot");
        assertFalse(inside[1], "and stops there");
    }

    @Test
    void aMissingStretchIsShadedAndACurrentOutageReachesTheRightEdge() throws Exception {
        long before = fx(() -> {
            ChartSeries ages = age.addSeries("oldest", SeriesKind.LINE);
            for (double t = T - WINDOW - 30; t <= T - 120; t += 5) {
                boolean gap = t > T - 450 && t < T - 350;
                ages.append(t, gap ? Double.NaN : 40);
            }
            age.setGapSeries(ages, 12.5);
            return age.getRedrawCount();
        });
        waitUntil(() -> fx(() -> age.getRedrawCount() > before && age.getGaps().size() == 2));
        List<Gaps.Gap> gaps = fx(() -> age.getGaps());
        assertFalse(gaps.get(0).current(), "the old gap ended");
        assertTrue(gaps.get(1).current(), "no age since two minutes ago: marked at the right edge");
        assertEquals(T, gaps.get(1).to());
        Color background = ChartTheme.dark().background();
        Color outside = fx(() -> pixel(age, new Point((int) age.xOf(T - 550) + 2, (int) age.yOf(90))));
        // Across one period of the hatching (8 px): every pixel is tinted by the fill, and the hatch
        // lines stand out more. One pixel alone may fall between two lines, where only the fill shows.
        double strongest = 0;
        for (int dx = 0; dx < 9; dx++) {
            int d = dx;
            Color inGap = fx(() -> pixel(age, new Point((int) age.xOf(T - 400) + d, (int) age.yOf(90))));
            assertTrue(difference(inGap, outside) > 0.02, "the gap is shaded at +" + dx + ": " + inGap + " vs " + outside);
            strongest = Math.max(strongest, difference(inGap, outside));
        }
        assertTrue(strongest >= 0.08, "the gap is hatched: strongest difference " + strongest);
        assertTrue(close(outside, background), "outside the gap is the background: " + outside);
    }

    @Test
    void stepLinesAtTheSameValueStaySideBySide() throws Exception {
        Color first = Color.web("#ff0000");
        Color second = Color.web("#00ff00");
        long before = fx(() -> {
            ChartSeries a = replicas.addSeries("replicas", SeriesKind.STEP);
            ChartSeries b = replicas.addSeries("desired (3 px above)", SeriesKind.STEP);
            a.setColor(first);
            b.setColor(second);
            b.setPixelOffset(-3);
            for (double t = T - WINDOW - 30; t <= T; t += 5) {
                a.append(t, 5);
                b.append(t, 5);
            }
            return replicas.getRedrawCount();
        });
        waitUntil(() -> fx(() -> replicas.getRedrawCount() > before));
        assertTrue(fx(() -> paintedNear(replicas, T - 300, 5, first)), "the first line at its value");
        boolean above = fx(() -> {
            WritableImage shot = replicas.snapshot(null, null);
            int x = (int) Math.floor(replicas.xOf(T - 300));
            int y = (int) Math.round(replicas.yOf(5));
            for (int row = y - 5; row <= y - 2; row++) {
                if (close(shot.getPixelReader().getColor(x, row), second)) {
                    return true;
                }
            }
            return false;
        });
        assertTrue(above, "the second line shows just above it instead of hiding under it");
    }

    @Test
    void samplesPostedFromAnotherThreadArriveAtTheNextFrame() throws Exception {
        ChartSeries arrivals = fx(() -> rate.addSeries("arrivals", SeriesKind.LINE));
        Thread producer = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                arrivals.post(T - WINDOW + i * 0.5, i % 10);
            }
        }, "test-producer");
        producer.start();
        producer.join(TimeUnit.SECONDS.toMillis(5));

        waitUntil(() -> fx(() -> arrivals.getBuffer().size() == 1000));
        assertEquals(T - WINDOW + 999 * 0.5, (double) fx(() -> arrivals.getBuffer().lastTime()));
    }

    @Test
    void hoverInOneChartShowsTheCrosshairInEveryChartOnTheAxis(FxRobot robot) throws Exception {
        fx(() -> {
            replicas.addSeries("desired", SeriesKind.STEP).append(T - WINDOW, 2);
            return null;
        });
        waitUntil(() -> fx(() -> replicas.getRedrawCount() > 0 && rate.getRedrawCount() > 0));

        Bounds plot = fx(age::getPlotBounds);
        robot.moveTo(age.localToScreen(plot.getMinX() + plot.getWidth() / 3, plot.getMaxY() - 10));

        waitUntil(() -> fx(() -> !Double.isNaN(axis.getHoverTime())));
        double hover = fx(axis::getHoverTime);
        assertTrue(hover > T - WINDOW && hover < T, "hover time inside the window: " + hover);
        // The crosshair in another chart sits at the same time, near the bottom of its plot.
        waitUntil(() -> fx(() -> {
            Bounds p = rate.getPlotBounds();
            int x = (int) Math.floor(rate.xOf(hover));
            WritableImage shot = rate.snapshot(null, null);
            return close(shot.getPixelReader().getColor(x, (int) p.getMaxY() - 5), ChartTheme.dark().crosshair());
        }));

        robot.moveTo(age.localToScreen(2, 2)); // the title area, outside the plot
        waitUntil(() -> fx(() -> Double.isNaN(axis.getHoverTime())));
    }

    // --- helpers ----------------------------------------------------------------------------

    private record Point(int x, int y) {
    }

    /** The pixel a series at {@code value} covers at time {@code t}. */
    private static Point probe(TimeChart chart, double t, double value) {
        // Steps and lines sit on whole-pixel y; the row just above covers the 2 px stroke too.
        return new Point((int) Math.floor(chart.xOf(t)), (int) Math.round(chart.yOf(value)) - 1);
    }

    /** Whether any pixel row within one of {@code value}'s line at {@code t} has {@code color}. */
    private static boolean paintedNear(TimeChart chart, double t, double value, Color color) {
        return inkNear(chart, t, value, color, 0.08);
    }

    /** A sloped line's ink: a pixel at least about two thirds of {@code color} (anti-aliased edges). */
    private static boolean inkedNear(TimeChart chart, double t, double value, Color color) {
        return inkNear(chart, t, value, color, 0.3);
    }

    /** Whether a pixel within one row of (t, value) differs from {@code color} by less than {@code within} per channel. */
    private static boolean inkNear(TimeChart chart, double t, double value, Color color, double within) {
        WritableImage shot = chart.snapshot(null, null);
        int x = (int) Math.floor(chart.xOf(t));
        int y = (int) Math.floor(chart.yOf(value));
        for (int row = y - 1; row <= y + 1; row++) {
            if (difference(shot.getPixelReader().getColor(x, row), color) < within) {
                return true;
            }
        }
        return false;
    }

    private static Color pixel(TimeChart chart, Point p) {
        WritableImage shot = chart.snapshot(null, null);
        return shot.getPixelReader().getColor(p.x(), p.y());
    }

    private static double difference(Color a, Color b) {
        return Math.max(Math.abs(a.getRed() - b.getRed()),
                Math.max(Math.abs(a.getGreen() - b.getGreen()), Math.abs(a.getBlue() - b.getBlue())));
    }

    private static boolean close(Color a, Color b) {
        return Math.abs(a.getRed() - b.getRed()) < 0.08
                && Math.abs(a.getGreen() - b.getGreen()) < 0.08
                && Math.abs(a.getBlue() - b.getBlue()) < 0.08;
    }

    private static <T> T fx(Callable<T> action) throws Exception {
        return WaitForAsyncUtils.asyncFx(action).get(5, TimeUnit.SECONDS);
    }

    private static void waitUntil(Callable<Boolean> condition) throws Exception {
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, condition);
    }
}
