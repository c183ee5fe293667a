package io.headroom.ui.chart;

import io.headroom.history.SeriesBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** Series keep their colours when a chart is rebuilt for another class (no toolkit needed). */
class ChartPaletteTest {

    @Test
    void rebuildingAChartGivesTheSameColoursInTheSameOrder() {
        TimeChart chart = new TimeChart(new TimeAxis(java.time.Clock.fixed(java.time.Instant.parse("2026-01-01T00:00:00Z"), java.time.ZoneOffset.UTC), java.time.ZoneOffset.UTC));
        ChartTheme theme = ChartTheme.dark();
        ChartSeries a = chart.addSeries("a", SeriesKind.LINE, new SeriesBuffer(4));
        ChartSeries b = chart.addSeries("b", SeriesKind.LINE, new SeriesBuffer(4));
        assertNotEquals(a.resolveColor(theme), b.resolveColor(theme));
        chart.removeSeries(a);
        chart.removeSeries(b);
        ChartSeries a2 = chart.addSeries("a", SeriesKind.LINE, new SeriesBuffer(4));
        ChartSeries b2 = chart.addSeries("b", SeriesKind.LINE, new SeriesBuffer(4));
        assertEquals(a.resolveColor(theme), a2.resolveColor(theme));
        assertEquals(b.resolveColor(theme), b2.resolveColor(theme));
    }
}
