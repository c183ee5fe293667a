package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.Forecaster;
import io.headroom.forecast.LoadGrid;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.loop.TickResult;
import io.headroom.ui.chart.TimeChart;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.PixelReader;
import javafx.scene.paint.Color;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The detail draws a class's forecast as a band on the load and capacity charts, right of now, and says it in words;
 * a class without one says why, and its charts have no band.
 */
@ExtendWith(ApplicationExtension.class)
class ForecastBandUiTest {
    static final double NOW = DetailWorkStripTest.T0.getEpochSecond(); // a Tuesday, 10:00 UTC

    private DetailViewModel vm;
    private DetailView view;
    private Stage stage;

    /** A real forecast of "a": a week of 5 jobs/s rising to 20 at 11:00 until 17:00; "b" has 6 h of history. */
    static ClassForecasts forecasts() {
        ClassHistory week = new ClassHistory("a", 10_081);
        double[] row = new double[ClassHistory.SERIES];
        java.util.Random noise = new java.util.Random(1);
        for (double t = NOW - 7 * 86_400; t < NOW; t += 60) {
            Arrays.fill(row, Double.NaN);
            double inDay = Math.floorMod((long) t, 86_400L);
            row[Series.ARRIVAL_RATE.ordinal()] = inDay >= 11 * 3600 && inDay < 17 * 3600 ? 20 : 5;
            row[Series.ARRIVAL_RATE.ordinal()] *= 1 + 0.1 * noise.nextGaussian(); // so p80 and p95 stand apart
            week.append(t, row);
        }
        Forecaster f = new Forecaster(ForecastSettings.DEFAULTS);
        Forecast a = f.forecast(LoadGrid.of(week, Series.ARRIVAL_RATE, NOW - 7 * 86_400, NOW, 60), NOW, "jobs/s");
        Forecast b = f.forecast(LoadGrid.of(week, Series.ARRIVAL_RATE, NOW - 6 * 3600, NOW, 60), NOW, "jobs/s");
        return new ClassForecasts() {
            @Override
            public Forecast arrivals(String className) {
                return className.equals("a") ? a : b;
            }

            @Override
            public Forecast service(String className) {
                return null;
            }
        };
    }

    @Start
    void start(Stage stage) {
        this.stage = stage;
        Clock clock = Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC);
        vm = new DetailViewModel(clock, Runnable::run);
        vm.forecast().setForecasts(forecasts(), () -> "history: 3 of 7 days…");
        view = new DetailView(vm, clock);
        stage.setScene(new Scene(view, 1280, 800));
        stage.show();
    }

    @Test
    void aClassWithAForecastHasItsBandRightOfNowAndItsWordsAndOneWithoutSaysWhy() throws Exception {
        fx(() -> {
            vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90),
                    DetailWorkStripTest.snapshot("b", 3, 3, 0)), "dev", "test")));
            vm.select("a");
            return null;
        });
        TimeChart load = view.charts().get(2);
        TimeChart capacity = view.charts().get(1);
        assertNotNull(fx(load::getForecastBand), "a band on the load chart");
        assertEquals(5, fx(load::getForecastBand).p50()[0], 0.5, "10:00: before the rise");
        assertEquals(20, fx(load::getForecastBand).p50()[13], 2, "11:05: risen");
        assertTrue(fx(load::getForecastBand).p95()[0] > fx(load::getForecastBand).p50()[0] + 0.2, "a band, not a line");
        // Slots: 5 jobs/s × 10 s observed service / u (the policy default).
        double u = fx(() -> vm.latest("a").cls().policy().targetUtilization());
        assertEquals(fx(load::getForecastBand).p50()[0] * 10 / u, fx(capacity::getForecastBand).p50()[0], 1e-6, "the forecast's slots");
        assertEquals(NOW + 0.25 * 900, fx(() -> view.timeAxis().getWindowEnd()), 1e-6,
                "a quarter of the window right of now");
        assertTrue(text(ForecastPanel.WORDS_ID).matches("the last 5 weekdays rose from (4.9|5|5.1) to 20 jobs/s at 11:00; p80 2[01] jobs/s; backtest error . % over the last 3 days"), text(ForecastPanel.WORDS_ID));
        assertTrue(text(ForecastPanel.MODE_ID).startsWith("mode: forecast only"), text(ForecastPanel.MODE_ID));
        assertEquals("history: 3 of 7 days…", text(ForecastPanel.HISTORY_ID));
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> bandPixelsRightOfNow(load) > 300);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> bandPixelsRightOfNow(capacity) > 300);
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> fx(() -> view.charts().get(0).getRedrawCount()) > 0);
        assertTrue(fx(() -> view.charts().get(0).getGaps()).isEmpty(),
                "the hours right of now are the forecast's, not missing data: " + fx(() -> view.charts().get(0).getGaps()));

        fx(() -> {
            vm.select("b");
            return null;
        });
        assertNull(fx(load::getForecastBand), "no band without a forecast");
        assertNull(fx(capacity::getForecastBand));
        assertEquals("no forecast: only 6 h of history; a forecast needs 24 h", text(ForecastPanel.WORDS_ID));
        assertEquals(NOW, fx(() -> view.timeAxis().getWindowEnd()), 1e-6, "the window ends at now again");
        WaitForAsyncUtils.waitFor(5, TimeUnit.SECONDS, () -> bandPixelsRightOfNow(load) == 0);
    }

    /** Pixels of the band's pink (over the chart's dark background) in the plot right of now. */
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

    private String text(String id) throws Exception {
        return fx(() -> ((Label) stage.getScene().lookup("#" + id)).getText());
    }

    private static <T> T fx(Callable<T> action) throws Exception {
        return WaitForAsyncUtils.asyncFx(action).get(5, TimeUnit.SECONDS);
    }
}
