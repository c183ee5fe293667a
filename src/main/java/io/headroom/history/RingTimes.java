package io.headroom.history;

/**
 * Binary searches over a ring of ascending times ({@code times}, its oldest at {@code head},
 * {@code size} of them), as {@link SeriesBuffer} and {@link ClassHistory} keep them: indexes are
 * logical, 0 the oldest. One copy, so both rings answer "from t" and "up to t" alike.
 */
final class RingTimes {

    private RingTimes() {
    }

    /** The logical index of the first time &gt;= {@code t}; {@code size} if there is none. */
    static int lowerBound(double[] times, int head, int size, double t) {
        return search(times, head, size, t, false);
    }

    /** The logical index of the first time &gt; {@code t}; {@code size} if there is none. */
    static int upperBound(double[] times, int head, int size, double t) {
        return search(times, head, size, t, true);
    }

    private static int search(double[] times, int head, int size, double t, boolean pastEqual) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int p = head + mid;
            double v = times[p >= times.length ? p - times.length : p];
            if (v < t || (pastEqual && v == t)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
