package io.headroom.decision;

/**
 * Numbers and counts in the words the decision's explanation uses: what each stage writes into its
 * terms and story. A leaf of {@code decision}: the stages and the engine use it, it uses neither.
 */
public final class Figures {

    private Figures() {
    }

    /** "s" unless {@code n} is one. */
    static String plural(int n) {
        return n == 1 ? "" : "s";
    }

    /** Numbers as an operator reads them: 0.5, 8, 11.4, 0.0123; no trailing zeros. */
    public static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "?";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "-∞";
        }
        double a = Math.abs(v);
        if (a >= 100 || v == Math.rint(v)) {
            return fixed(v, 0);
        }
        if (a >= 10) {
            return fixed(v, 1);
        }
        if (a >= 0.1) {
            return fixed(v, 2);
        }
        if (a < 1e-6) {
            return String.format(java.util.Locale.ROOT, "%.3g", v);
        }
        // Three significant figures below 0.1.
        return fixed(v, 2 - (int) Math.floor(Math.log10(a)));
    }

    /** {@code v} rounded to {@code decimals} places, trailing zeros dropped; no Formatter, no regex (hot path). */
    static String fixed(double v, int decimals) {
        long scale = 1;
        for (int i = 0; i < decimals; i++) {
            scale *= 10;
        }
        long r = Math.round(Math.abs(v) * scale);
        long whole = r / scale;
        long frac = r % scale;
        StringBuilder b = new StringBuilder(12);
        if (v < 0 && r != 0) {
            b.append('-');
        }
        b.append(whole);
        if (frac != 0) {
            String f = Long.toString(frac);
            b.append('.');
            for (int i = f.length(); i < decimals; i++) {
                b.append('0');
            }
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            b.append(f, 0, end);
        }
        return b.toString();
    }

    /** A number about to be rounded up, with enough digits that "11 → 12" never appears. */
    static String fmtBeforeCeil(double v) {
        String s = fmt(v);
        for (int digits = 2; digits <= 6 && SlotEstimate.ceil(Double.parseDouble(s)) != SlotEstimate.ceil(v); digits++) {
            s = String.format(java.util.Locale.ROOT, "%." + digits + "f", v);
        }
        return s;
    }

    /** Seconds as "45 s", "2.5 min", "3.1 h"; "never" when not finite. */
    static String fmtDuration(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "never";
        }
        if (seconds < 120) {
            return fmt(seconds) + " s";
        }
        if (seconds < 7200) {
            return fmt(Math.round(seconds / 6) / 10.0) + " min";
        }
        return fmt(Math.round(seconds / 360) / 10.0) + " h";
    }
}
