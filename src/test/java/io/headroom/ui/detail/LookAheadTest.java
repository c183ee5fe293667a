package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.ui.chart.ForecastBand;
import org.junit.jupiter.api.Test;

/**
 * How much of the window right of now the charts keep for the forecast band: a quarter, or up to half when the band
 * rises further ahead (within two thirds of the window), so a rise the forecast words and a predictive proposal speak of is on the chart the operator
 * approves from (at 15 minutes a quarter showed 3¾ minutes ahead, and a rise 8 minutes away was off the chart).
 */
class LookAheadTest {
    static final double NOW = 1_000_000;

    /** Slots of 60 s from now: {@code flat} jobs/s, then {@code high} from {@code riseAfter} seconds on. */
    static ForecastBand band(double flat, double high, double riseAfter, int slots) {
        double[] t = new double[slots];
        double[] p50 = new double[slots];
        double[] p80 = new double[slots];
        double[] p95 = new double[slots];
        for (int i = 0; i < slots; i++) {
            t[i] = NOW + i * 60.0;
            double v = i * 60.0 >= riseAfter ? high : flat;
            p50[i] = v;
            p80[i] = v * 1.1;
            p95[i] = v * 1.2;
        }
        return new ForecastBand("arrivals", 60, t, p50, p80, p95, NOW);
    }

    @Test
    void aFlatBandKeepsAQuarterOfTheWindow() {
        assertEquals(225, DetailView.lookAhead(band(5, 5, 0, 360), NOW, 900), 1e-9, "15 min: 3¾ min ahead");
        assertEquals(900, DetailView.lookAhead(band(5, 5, 0, 360), NOW, 3600), 1e-9);
    }

    @Test
    void aRiseFurtherAheadIsShownWithASlotAfterItWithinTwoThirdsOfTheWindow() {
        assertEquals(8 * 60 + 60, DetailView.lookAhead(band(5, 38, 8 * 60, 360), NOW, 900), 1e-9,
                "a rise at +8 min: the window keeps 9 min right of now, 6 left");
        assertEquals(225, DetailView.lookAhead(band(5, 38, 12 * 60, 360), NOW, 900), 1e-9,
                "a rise at +12 min is beyond two thirds of 15 min: the past keeps its room (1 h shows it)");
        assertEquals(900, DetailView.lookAhead(band(5, 38, 12 * 60, 360), NOW, 3600), 1e-9,
                "1 h: a quarter is 15 min, the rise within it");
        assertEquals(25 * 60 + 60, DetailView.lookAhead(band(5, 38, 25 * 60, 360), NOW, 3600), 1e-9);
        assertEquals(225, DetailView.lookAhead(band(5, 38, 2 * 60, 360), NOW, 900), 1e-9,
                "a rise inside the quarter needs no more");
        assertEquals(225, DetailView.lookAhead(band(5, 5.5, 8 * 60, 360), NOW, 900), 1e-9,
                "10 % more is no rise");
    }

    @Test
    void neverBeyondTheBandNorWithoutOne() {
        assertEquals(0, DetailView.lookAhead(null, NOW, 900), 1e-9);
        assertEquals(120, DetailView.lookAhead(band(5, 5, 0, 2), NOW, 900), 1e-9, "a band of two minutes: two");
    }
}
