package io.headroom.ui.overview;

import io.headroom.history.ClassHistory;
import io.headroom.ui.Format;
import java.util.Arrays;

/**
 * A class's oldest age over the last quarter of an hour, from the domain history: a sparkline
 * (the worst age in each of {@link #COLUMNS} equal slices, so a short spike is never averaged
 * away) and the worst moment, so an alert that fired and cleared between two looks (at 60×, a
 * tick every quarter second) is still seen.
 *
 * @param from         start of the window (epoch seconds of the class's history)
 * @param to           end of the window: the newest point
 * @param ages         the worst oldest age per slice, NaN where no point was known
 * @param objective    the class's age objective (NaN: none)
 * @param peakAge      the worst oldest age in the window (NaN: none known)
 * @param peakAt       when it was
 * @param breaches     how many times the age went over the objective in the window
 * @param breachingNow the newest known age is over the objective
 * @param clearedAt    when the last breach ended, NaN when none ended
 */
public record AgeTrend(double from, double to, double[] ages, double objective, double peakAge, double peakAt,
                       int breaches, boolean breachingNow, double clearedAt) {

    /** The window: the last 15 minutes of the class's own clock. */
    public static final double SECONDS = 15 * 60;
    /** Slices of the sparkline: 15 s each, one tick at the default interval. */
    public static final int COLUMNS = 60;
    /** No history yet. */
    public static final AgeTrend NONE = new AgeTrend(Double.NaN, Double.NaN, new double[0], Double.NaN,
            Double.NaN, Double.NaN, 0, false, Double.NaN);

    /** The worst age against the objective (1 = at it); NaN without an objective or data. */
    public double peakRatio() {
        return objective > 0 ? peakAge / objective : Double.NaN;
    }

    /** An alert fired in the window and has cleared since: what a glance at "now" would miss. */
    public boolean firedAndCleared() {
        return breaches > 0 && !breachingNow;
    }

    /**
     * The worst as the cell shows it: "2.5×" the objective (the age without one), "⚑ " first when it
     * fired and cleared. Made when asked for: the table asks for its visible rows' only.
     */
    public String peak() {
        return peak(objective, peakAge, breaches, breachingNow);
    }

    /** The summary in words, for the cell's tooltip; made when asked for (on hover). */
    public String summary() {
        return summary(objective, peakAge, peakAt, breaches, breachingNow, clearedAt);
    }

    private static String peak(double objective, double peakAge, int breaches, boolean breachingNow) {
        double ratio = objective > 0 ? peakAge / objective : Double.NaN;
        // From 10× on a tenth tells nothing at a glance (the tooltip has the ages): "13×", so the
        // flag and the figure fit beside the line in the narrowest column.
        return (breaches > 0 && !breachingNow ? "⚑ " : "") + (Double.isNaN(ratio)
                ? Format.duration(peakAge) : Format.fixed(ratio, ratio >= 9.95 ? 0 : 1) + "×");
    }

    private static String summary(double objective, double peakAge, double peakAt, int breaches, boolean breachingNow,
                                  double clearedAt) {
        if (Double.isNaN(peakAge)) {
            return "no oldest-age data in the last 15 minutes";
        }
        StringBuilder b = new StringBuilder("worst in the last 15 minutes: ").append(Format.duration(peakAge));
        if (objective > 0) {
            b.append(" (").append(Format.fixed(peakAge / objective, 1)).append("× the ").append(Format.duration(objective))
                    .append(" objective)");
        }
        b.append(" at ").append(Format.time(java.time.Instant.ofEpochMilli(Math.round(peakAt * 1000))));
        if (breaches > 0) {
            b.append("\nover the objective ").append(breaches == 1 ? "once" : breaches + " times");
            b.append(breachingNow ? ", and still over it" : ", cleared at "
                    + Format.time(java.time.Instant.ofEpochMilli(Math.round(clearedAt * 1000))));
        }
        return b.toString();
    }

    /** The last {@link #SECONDS} of a class's oldest age; {@link #NONE} without a history. */
    public static AgeTrend of(ClassHistory h, double objective) {
        return of(h, objective, SECONDS, COLUMNS);
    }

    /** The last {@code seconds} of a class's oldest age in {@code columns} slices. */
    public static AgeTrend of(ClassHistory h, double objective, double seconds, int columns) {
        if (h == null) {
            return NONE;
        }
        double to = h.lastTime();
        if (Double.isNaN(to)) {
            return NONE;
        }
        double from = to - seconds;
        Reducer r = new Reducer(from, seconds, columns, objective);
        h.scan(ClassHistory.Series.OLDEST_AGE, from, to, r);
        return new AgeTrend(from, to, r.ages, objective, r.peakAge, r.peakAt, r.breaches, r.over, r.clearedAt);
    }

    /** One pass over the points: slice maxima, the peak, and breach episodes. */
    private static final class Reducer implements ClassHistory.PointVisitor {
        final double from;
        final double slice;
        final double objective;
        final double[] ages;
        double peakAge = Double.NaN;
        double peakAt = Double.NaN;
        int breaches;
        boolean over;
        double clearedAt = Double.NaN;

        Reducer(double from, double seconds, int columns, double objective) {
            this.from = from;
            this.slice = seconds / columns;
            this.objective = objective;
            ages = new double[columns];
            Arrays.fill(ages, Double.NaN);
        }

        @Override
        public void point(double time, double age) {
            if (Double.isNaN(age)) {
                return; // not known then: neither a breach nor a recovery
            }
            int c = (int) Math.min(ages.length - 1, Math.max(0, (time - from) / slice));
            if (!(ages[c] >= age)) {
                ages[c] = age;
            }
            if (!(peakAge >= age)) {
                peakAge = age;
                peakAt = time;
            }
            if (objective > 0) {
                boolean now = age > objective;
                if (now && !over) {
                    breaches++;
                } else if (!now && over) {
                    clearedAt = time;
                }
                over = now;
            }
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AgeTrend t && Double.compare(from, t.from) == 0 && Double.compare(to, t.to) == 0
                && Arrays.equals(ages, t.ages) && Double.compare(objective, t.objective) == 0
                && breaches == t.breaches && breachingNow == t.breachingNow;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(to) * 31 + Arrays.hashCode(ages);
    }

    @Override
    public String toString() {
        return "AgeTrend[peak " + peakAge + " at " + peakAt + ", breaches " + breaches + ", now "
                + (breachingNow ? "over" : "under") + "]";
    }
}
