package io.headroom.ui;

import java.util.Locale;

/** How numbers read on screen: short, aligned, and an honest dash for "no data". */
public final class Format {
    public static final String NO_DATA = "—";

    private Format() {
    }

    /** 0, 7, 12.5, 0.42, 1.2k, 35k; NaN as a dash. */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return NO_DATA;
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

    /** Seconds as 45 s, 4m 12s, 2h 05m. */
    public static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return NO_DATA;
        }
        if (Double.isInfinite(seconds)) {
            return "∞";
        }
        long s = Math.round(seconds);
        if (s < 100) {
            return s + " s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
    }

    private static final java.time.format.DateTimeFormatter CLOCK_TIME =
            java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss", java.util.Locale.ROOT)
                    .withZone(java.time.ZoneId.systemDefault());

    /** A moment as the operator's wall-clock time of day, {@code 14:03:27}. */
    public static String time(java.time.Instant at) {
        return CLOCK_TIME.format(at);
    }
}
