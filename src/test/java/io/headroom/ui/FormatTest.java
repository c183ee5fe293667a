package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The screen's numbers: written without {@code String.format}, and the same text as it would write. */
class FormatTest {

    /** The rule as it was written with {@code String.format}: the reference. */
    private static String byFormatter(double v) {
        if (Double.isNaN(v)) {
            return Format.NO_DATA;
        }
        double a = Math.abs(v);
        if (a >= 10_000) {
            return String.format(Locale.ROOT, "%.0fk", v / 1000);
        }
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.1fk", v / 1000);
        }
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String durationByFormatter(double seconds) {
        long s = Math.round(seconds);
        if (s < 100) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
    }

    @Test
    void numbersReadAsTheFormatterWritesThem() {
        double[] edges = {0, -0.0, 0.005, 0.015, 0.125, 0.135, 0.145, 0.155, 0.994, 0.995, 0.996, 1.005, 2.675, 9.995,
            9.994, 9.996, 10.05, 10.15, 10.25, 10.35, 99.95, 99.94, 99.96, 100.5, 101.5, 999.5, 999.4, 1000, 1049.99,
            1050, 1150, 1250, 9949.99, 9950, 9999.9, 10_000, 10_499, 10_500, 11_500, 999_999.5, 1e9, 1e15, 1e300,
            -0.004, -0.005, -0.015, -0.4, -0.5, -1.5, -2.5, -12.25, -1050, -10_500, Double.MIN_VALUE, 4.9e-324,
            0.1 + 0.2, 1.0 / 3, 2.0 / 3, Double.MAX_VALUE, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double v : edges) {
            assertEquals(byFormatter(v), Format.number(v), "v=" + v);
        }
        SplittableRandom r = new SplittableRandom(13);
        for (int i = 0; i < 200_000; i++) {
            double magnitude = Math.pow(10, r.nextInt(-4, 8));
            double v = (r.nextBoolean() ? 1 : -1) * r.nextDouble() * magnitude;
            if (r.nextInt(4) == 0) {
                v = Math.round(v * 1000) / 1000.0; // halves and other short decimals, where rounding is decided
            }
            assertEquals(byFormatter(v), Format.number(v), "v=" + v);
        }
        assertEquals(Format.NO_DATA, Format.number(Double.NaN));
    }

    @Test
    void durationsReadAsTheFormatterWritesThem() {
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            double s = r.nextDouble() * Math.pow(10, r.nextInt(0, 7)) * (r.nextInt(20) == 0 ? -1 : 1);
            assertEquals(durationByFormatter(s), Format.duration(s), "s=" + s);
        }
        assertEquals("45 s", Format.duration(45));
        assertEquals("4m 05s", Format.duration(245));
        assertEquals("2h 05m", Format.duration(7500));
        assertEquals("∞", Format.duration(Double.POSITIVE_INFINITY));
        assertEquals(Format.NO_DATA, Format.duration(Double.NaN));
    }
}
