package io.headroom.ui;

/** How numbers read on screen: short, aligned, and an honest dash for "no data". */
public final class Format {
    public static final String NO_DATA = "—";

    private Format() {
    }

    /**
     * 0, 7, 12.5, 0.42, 1.2k, 35k; NaN as a dash. The same text as {@code String.format("%.1f")} and
     * its kin (FormatTest holds them equal) at a fraction of the cost: the overview formats a few
     * hundred numbers a frame.
     */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return NO_DATA;
        }
        double a = Math.abs(v);
        if (a >= 10_000) {
            return fixed(v / 1000, 0) + "k";
        }
        if (a >= 1000) {
            return fixed(v / 1000, 1) + "k";
        }
        if (a >= 100 || v == Math.rint(v)) {
            return fixed(v, 0);
        }
        if (a >= 10) {
            return fixed(v, 1);
        }
        return fixed(v, 2);
    }

    /**
     * {@code v} with {@code decimals} digits after the point, as {@code %.Nf} writes it: the
     * shortest decimal that reads back as {@code v}, rounded half up.
     */
    public static String fixed(double v, int decimals) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "Infinity" : "-Infinity";
        }
        String s = new java.math.BigDecimal(Double.toString(v)).setScale(decimals, java.math.RoundingMode.HALF_UP)
                .toPlainString();
        if ((v < 0 || Double.compare(v, -0.0) == 0) && s.charAt(0) != '-') {
            return "-" + s; // rounded to zero, the sign stays (as %.Nf keeps it)
        }
        return s;
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
            return s / 60 + "m " + twoDigits(s % 60) + "s";
        }
        return s / 3600 + "h " + twoDigits((s % 3600) / 60) + "m";
    }

    private static String twoDigits(long n) {
        return n < 10 && n >= 0 ? "0" + n : Long.toString(n);
    }

    private static final java.time.format.DateTimeFormatter CLOCK_TIME =
            java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss", java.util.Locale.ROOT)
                    .withZone(java.time.ZoneId.systemDefault());

    /** A moment as the operator's wall-clock time of day, {@code 14:03:27}. */
    public static String time(java.time.Instant at) {
        return CLOCK_TIME.format(at);
    }
}
