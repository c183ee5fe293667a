package io.headroom.history;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Averages one class's live ticks into a point per minute for the week tier ({@link History#rollUp}): each series'
 * mean over the ticks that knew it (NaN when none did, never 0), stamped at the minute's start, the same grid the
 * week's backfill uses. Not thread-safe: the loop's thread only.
 */
final class WeekRollup {
    private final double step;
    private final double[] sum = new double[ClassHistory.SERIES];
    private final int[] count = new int[ClassHistory.SERIES];
    private final double[] out = new double[ClassHistory.SERIES];
    private double bucket = Double.NaN;
    private boolean any;

    WeekRollup(double stepSeconds) {
        this.step = stepSeconds;
    }

    /** Adds a tick; when it opens a new minute, the previous minute's point goes to {@code week}. */
    void add(double time, double[] row, Supplier<ClassHistory> week) {
        if (Double.isNaN(time)) {
            return;
        }
        double b = Math.floor(time / step) * step;
        if (any && b > bucket) {
            flush(week.get());
        } else if (any && b < bucket) {
            return; // a late tick: the minute it belongs to is gone
        }
        bucket = b;
        any = true;
        for (int s = 0; s < row.length; s++) {
            if (!Double.isNaN(row[s])) {
                sum[s] += row[s];
                count[s]++;
            }
        }
    }

    private void flush(ClassHistory week) {
        for (int s = 0; s < out.length; s++) {
            out[s] = count[s] == 0 ? Double.NaN : sum[s] / count[s];
        }
        week.append(bucket, out);
        Arrays.fill(sum, 0);
        Arrays.fill(count, 0);
        any = false;
    }
}
