package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.History;
import io.headroom.history.WeekBackfill;
import io.headroom.loop.TickResult;
import io.headroom.ui.Typing;
import io.headroom.ui.chart.ChartSeries;
import io.headroom.ui.chart.TimeChart;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ToggleButton;
import javafx.scene.image.PixelReader;
import javafx.scene.input.KeyCode;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The detail at 7 d on a real headless window (issue 29): the operator reaches the window selector with Tab and picks
 * the week with the arrow keys; the load chart then draws the backfilled days (pixels left of a day's boundary two
 * days back, which the day's charts cannot reach), the forecast band right of now, and, while the backfill is still
 * running, its progress over the part of the week not read yet.
 */
@ExtendWith(ApplicationExtension.class)
class WeekChartUiTest {
    static final double NOW = ForecastBandUiTest.NOW;

    private final History history = new History(Duration.ofSeconds(15));
    private final AtomicReference<WeekBackfill.Progress> progress = new AtomicReference<>(WeekBackfill.Progress.NONE);
    private DetailViewModel vm;
    private DetailView view;
    private Stage stage;

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Clock clock = Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC);
        vm = new DetailViewModel(clock, Runnable::run);
        vm.forecast().setForecasts(ForecastBandUiTest.forecasts(), () -> progress.get().words());
        vm.setWeekHistory(history::findWeek, progress::get, Runnable::run);
        view = new DetailView(vm, clock);
        stage.setScene(new Scene(view, 1280, 800));
        stage.show();
    }

    private void tick() throws Exception {
        fx(() -> {
            vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90),
                    DetailWorkStripTest.snapshot("b", 3, 3, 0)), "dev", "test")));
            vm.select("a");
            return null;
        });
    }

    /** Tab until the window selector has the focus, then → until the week is chosen. */
    private void chooseTheWeekByKeyboard(FxRobot robot) throws Exception {
        fx(() -> {
            stage.requestFocus();
            return null;
        });
        for (int i = 0; i < 80 && !fx(() -> focused() != null && focused().startsWith("window-")); i++) {
            Typing.keys(robot, KeyCode.TAB);
        }
        assertEquals(DetailView.windowId("15m"), fx(this::focused), "Tab reaches the window chosen, 15 minutes");
        for (int i = 0; i < 4; i++) {
            Typing.keys(robot, KeyCode.RIGHT);
        }
        assertEquals(DetailViewModel.WEEK, fx(() -> vm.windowProperty().get()), "→ four times: 1h, 6h, 24h, 7d");
        assertTrue(fx(() -> ((ToggleButton) stage.getScene().lookup("#" + DetailView.windowId("7d"))).isSelected()));
        assertEquals(DetailView.windowId("7d"), fx(this::focused), "the focus follows the choice");
    }

    private String focused() {
        Node n = stage.getScene().getFocusOwner();
        return n == null ? null : n.getId();
    }

    @Test
    void theWeekChosenByKeyboardDrawsTheBackfilledDaysAndTheForecastBesideThem(FxRobot robot) throws Exception {
        DetailWeekWindowTest.minutes(history.weekOf("a"), NOW - 7 * 86_400, NOW, 5);
        progress.set(new WeekBackfill.Progress(WeekBackfill.State.DONE, 7 * 86_400, 7 * 86_400, 28, 28, "",
                7 * 86_400));
        tick();
        TimeChart load = view.charts().get(2);
        double boundary = midnightDaysBack(2);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(load::getRedrawCount) > 0);
        assertEquals(0, linePixelsLeftOf(load, boundary), "at 15 minutes nothing two days back is drawn");

        chooseTheWeekByKeyboard(robot);
        assertEquals(7 * 86_400 + 6 * 3600, fx(() -> view.timeAxis().getWindowLength()), 300,
                "the whole week, and the forecast's six hours beside it");
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> linePixelsLeftOf(load, boundary) > 300);
        assertTrue(fx(() -> load.getForecastBand()) != null, "the forecast continues right of now");
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> bandPixelsRightOfNow(load) > 50);
        assertEquals("", fx(load::getPendingWords), "the week is all in: nothing said over it");
        assertTrue(fx(() -> view.charts().get(0).getGaps()).isEmpty(),
                "a minute a point is continuous data, not gaps: " + fx(() -> view.charts().get(0).getGaps()));
    }

    @Test
    void whileTheWeekIsStillArrivingItsProgressIsSaidOverTheEmptyPart(FxRobot robot) throws Exception {
        DetailWeekWindowTest.minutes(history.weekOf("a"), NOW - 3 * 86_400, NOW, 5);
        progress.set(new WeekBackfill.Progress(WeekBackfill.State.RUNNING, 3 * 86_400, 7 * 86_400, 12, 28, "",
                Double.NaN));
        tick();
        chooseTheWeekByKeyboard(robot);
        TimeChart load = view.charts().get(2);
        for (TimeChart c : view.charts()) {
            assertEquals("history: 3 of 7 days…", fx(c::getPendingWords), c.getTitle());
        }
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(load::getRedrawCount) > 0);
        // Left of the first day boundary 12 h into what was read: at least 12 hours of line, about 48 columns.
        double boundary = midnightAfter(NOW - 3 * 86_400 + 12 * 3600);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> linePixelsLeftOf(load, boundary) > 40);
        assertEquals(0, linePixelsLeftOf(load, NOW - 3 * 86_400 - 1800), "nothing drawn where the week is not in");
        assertTrue(fx(() -> view.charts().get(0).getGaps()).isEmpty(),
                "the days not read yet are not missing data: " + fx(() -> view.charts().get(0).getGaps()));
        assertTrue(textPixelsLeftOf(load, NOW - 3 * 86_400) > 40, "the words are drawn over the empty part");
    }

    /** The local midnight (the axis's zone) {@code days} days before now. */
    private double midnightDaysBack(int days) throws Exception {
        return fx(() -> (double) Instant.ofEpochSecond((long) NOW - days * 86_400L).atZone(view.timeAxis().getZone())
                .toLocalDate().atStartOfDay(view.timeAxis().getZone()).toEpochSecond());
    }

    /** The first local midnight (the axis's zone) at or after {@code t}. */
    private double midnightAfter(double t) throws Exception {
        return fx(() -> {
            var z = view.timeAxis().getZone();
            var day = Instant.ofEpochSecond((long) Math.ceil(t)).atZone(z).toLocalDate();
            double m = day.atStartOfDay(z).toEpochSecond();
            return m >= t ? m : (double) day.plusDays(1).atStartOfDay(z).toEpochSecond();
        });
    }

    /** Pixels of the arrivals line's colour in the plot left of time {@code t}. */
    private int linePixelsLeftOf(TimeChart chart, double t) throws Exception {
        return fx(() -> {
            ChartSeries arrivals = chart.getSeries().get(0);
            Color line = arrivals.resolveColor(chart.getTheme());
            return count(chart, t, c -> near(c, line));
        });
    }

    /** Light pixels (the words' on their plate) in the plot left of time {@code t}. */
    private int textPixelsLeftOf(TimeChart chart, double t) throws Exception {
        return fx(() -> count(chart, t, c -> c.getBrightness() > 0.7 && c.getSaturation() < 0.2));
    }

    private int count(TimeChart chart, double t, java.util.function.Predicate<Color> match) {
        var image = chart.snapshot(null, null);
        PixelReader r = image.getPixelReader();
        Bounds plot = chart.getPlotBounds();
        double t0 = chart.getTimeAxis().getWindowStart();
        double t1 = chart.getTimeAxis().getWindowEnd();
        int x1 = (int) Math.floor(plot.getMinX() + (t - t0) / (t1 - t0) * plot.getWidth()) - 2;
        int n = 0;
        for (int x = (int) plot.getMinX() + 1; x < Math.min(x1, (int) plot.getMaxX() - 1); x++) {
            for (int y = (int) plot.getMinY() + 1; y < (int) plot.getMaxY() - 1; y++) {
                if (match.test(r.getColor(x, y))) {
                    n++;
                }
            }
        }
        return n;
    }

    private static boolean near(Color a, Color b) {
        return Math.abs(a.getRed() - b.getRed()) < 0.08 && Math.abs(a.getGreen() - b.getGreen()) < 0.08
                && Math.abs(a.getBlue() - b.getBlue()) < 0.08;
    }

    /** Pixels of the band's pink in the plot right of now (as {@link ForecastBandUiTest} counts them). */
    private int bandPixelsRightOfNow(TimeChart chart) throws Exception {
        return fx(() -> {
            var image = chart.snapshot(null, null);
            PixelReader r = image.getPixelReader();
            Bounds plot = chart.getPlotBounds();
            double t0 = chart.getTimeAxis().getWindowStart();
            double t1 = chart.getTimeAxis().getWindowEnd();
            int xNow = (int) Math.ceil(plot.getMinX() + (NOW - t0) / (t1 - t0) * plot.getWidth()) + 2;
            int n = 0;
            for (int x = xNow; x < (int) plot.getMaxX() - 1; x++) {
                for (int y = (int) plot.getMinY() + 1; y < (int) plot.getMaxY() - 1; y++) {
                    Color c = r.getColor(x, y);
                    if (c.getRed() > c.getGreen() + 0.05 && c.getBlue() > c.getGreen() + 0.03) {
                        n++;
                    }
                }
            }
            return n;
        });
    }

    private static <T> T fx(Callable<T> action) throws Exception {
        return WaitForAsyncUtils.asyncFx(action).get(5, TimeUnit.SECONDS);
    }
}
