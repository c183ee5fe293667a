package io.headroom.ui.chart;

import io.headroom.history.SeriesBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a series has no data inside a window, so the chart can shade and label it (issue 11: a
 * gap in the age chart must never read as "the queue was fine"). Missing data is a run of NaN
 * samples, or a stretch longer than {@code maxSpacing} with no sample at all (the loop did not
 * tick, the console was closed). A gap that reaches the window's end with nothing after it is a
 * <em>current</em> outage, marked at the right edge. The time before the series' first sample is
 * not a gap: there was simply no history yet. Pure: no JavaFX, testable without the toolkit.
 */
public final class Gaps {

    /**
     * One stretch without data.
     *
     * @param from    the last known sample's time (or the window start when the gap began before it)
     * @param to      the next known sample's time, or the window's end for a current outage
     * @param current true when nothing known came after it: the outage is still going on
     */
    public record Gap(double from, double to, boolean current) {
        public double seconds() {
            return to - from;
        }
    }

    private Gaps() {
    }

    /**
     * The gaps of {@code b} that overlap {@code [t0, t1]}, oldest first, clipped to the window.
     *
     * @param maxSpacing the longest spacing between two samples that is still continuous data
     *                   (about two ticks); a longer stretch without a sample is a gap
     */
    public static List<Gap> find(SeriesBuffer b, double t0, double t1, double maxSpacing) {
        List<Gap> out = new ArrayList<>();
        if (b.isEmpty() || !(t1 > t0)) {
            return out;
        }
        // Start one sample before the window so a gap that began before it is seen whole.
        int i = Math.max(0, b.lowerBound(t0) - 1);
        int end = Math.min(b.size(), b.upperBound(t1) + 1);
        double lastKnown = Double.NaN; // time of the newest known (non-NaN) sample so far
        double gapStart = Double.NaN; // start of the NaN run we are in, NaN when in none
        if (b.value(i) != b.value(i)) {
            int j = i;
            while (j >= 0 && b.value(j) != b.value(j)) {
                j--;
            }
            // A run of unknown ticks is missing data from the last known sample (or its own first tick).
            lastKnown = j >= 0 ? b.time(j) : Double.NaN;
            gapStart = j >= 0 ? b.time(j) : b.time(0);
        }
        double lastScanned = Double.NaN;
        for (; i < end; i++) {
            double t = b.time(i);
            double v = b.value(i);
            lastScanned = t;
            if (v != v) {
                if (gapStart != gapStart) {
                    gapStart = lastKnown == lastKnown ? lastKnown : t;
                }
                continue;
            }
            if (gapStart == gapStart) {
                add(out, gapStart, t, false, t0, t1);
                gapStart = Double.NaN;
            } else if (lastKnown == lastKnown && t - lastKnown > maxSpacing) {
                add(out, lastKnown, t, false, t0, t1);
            }
            lastKnown = t;
        }
        if (gapStart == gapStart) {
            add(out, gapStart, t1, allNaNAfter(b, lastScanned), t0, t1);
        } else if (lastKnown == lastKnown && t1 - lastKnown > maxSpacing) {
            // The scan reached past t1 when a sample was there: nothing at all came after lastKnown.
            add(out, lastKnown, t1, true, t0, t1);
        }
        return out;
    }

    private static boolean allNaNAfter(SeriesBuffer b, double t) {
        for (int i = b.upperBound(t); i < b.size(); i++) {
            double v = b.value(i);
            if (v == v) {
                return false;
            }
        }
        return true;
    }

    private static void add(List<Gap> out, double from, double to, boolean current, double t0, double t1) {
        double a = Math.max(from, t0);
        double z = Math.min(to, t1);
        if (z > a) {
            out.add(new Gap(a, z, current));
        }
    }
}
