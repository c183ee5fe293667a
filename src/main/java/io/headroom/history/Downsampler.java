package io.headroom.history;

import java.util.Arrays;

/**
 * M4 downsampling: per pixel column, keeps the first, min, max and last sample of a time window,
 * so drawing costs O(pixels) however many samples the window holds.
 *
 * <p>M4 is exact at pixel resolution for a polyline: the first and last samples of each column
 * carry the lines to the neighbouring columns and min/max carry the column's vertical extent.
 * Gaps survive as NaN points: a column's first or last sample is emitted even when its value is
 * NaN, which keeps every gap that crosses a column boundary. A gap lying wholly inside one column
 * is narrower than a pixel and is bridged.
 *
 * <p>One sample either side of the window is included (folded into the edge columns) so lines
 * run to the plot edges instead of stopping at the first visible sample. The output arrays are
 * reused between runs; one instance per series avoids any allocation per frame. No JavaFX here,
 * so this is testable without the toolkit.
 */
public final class Downsampler {

    private double[] outTimes = new double[0];
    private double[] outValues = new double[0];
    private int size;
    private double min;
    private double max;

    /**
     * Downsamples the samples of {@code src} in {@code [t0, t1]} to {@code columns} columns.
     *
     * @return the number of output points, at most {@code 4 * columns}
     */
    public int run(SeriesBuffer src, double t0, double t1, int columns) {
        if (src.isEmpty()) {
            return run(src.times, src.values, 0, 0, 0, 0, t0, t1, columns);
        }
        return run(src.times, src.values, src.physical(0), src.size(), Math.max(0, src.lowerBound(t0) - 1),
                Math.min(src.size(), src.upperBound(t1) + 1), t0, t1, columns);
    }

    /**
     * The same over any ring of (time, value) columns: {@code head} is the physical slot of the
     * oldest of {@code count} samples, and {@code from..to} the logical range to walk (one sample
     * either side of the window included). Lets {@link ClassHistory} share its time column.
     */
    int run(double[] times, double[] values, int head, int count, int from, int to, double t0, double t1,
            int columns) {
        size = 0;
        min = Double.NaN;
        max = Double.NaN;
        if (columns <= 0 || !(t1 > t0) || count == 0) {
            return 0;
        }
        ensureCapacity(4 * columns);
        int cap = times.length;
        double scale = columns / (t1 - t0);
        int lastColumn = columns - 1;

        int column = Integer.MIN_VALUE;
        int first = -1;
        int last = -1;
        int minIdx = -1;
        int maxIdx = -1;
        double minV = 0;
        double maxV = 0;
        double visibleMin = Double.POSITIVE_INFINITY;
        double visibleMax = Double.NEGATIVE_INFINITY;

        int p = head + from >= cap ? head + from - cap : head + from;
        for (int i = from; i < to; i++) {
            double t = times[p];
            double v = values[p];
            // Clamp: the samples just outside the window belong to the edge columns.
            int c = (int) ((t - t0) * scale);
            if (c < 0) {
                c = 0;
            } else if (c > lastColumn) {
                c = lastColumn;
            }
            if (c != column) {
                if (first >= 0) {
                    flush(times, values, head, first, minIdx, maxIdx, last);
                }
                column = c;
                first = i;
                minIdx = -1;
                maxIdx = -1;
            }
            last = i;
            if (v == v) { // not NaN
                if (minIdx < 0 || v < minV) {
                    minV = v;
                    minIdx = i;
                }
                if (maxIdx < 0 || v > maxV) {
                    maxV = v;
                    maxIdx = i;
                }
                if (t >= t0 && t <= t1) {
                    if (v < visibleMin) {
                        visibleMin = v;
                    }
                    if (v > visibleMax) {
                        visibleMax = v;
                    }
                }
            }
            if (++p == cap) {
                p = 0;
            }
        }
        if (first >= 0) {
            flush(times, values, head, first, minIdx, maxIdx, last);
        }
        if (visibleMin <= visibleMax) {
            min = visibleMin;
            max = visibleMax;
        }
        return size;
    }

    /** Number of points produced by the last {@link #run}. */
    public int size() {
        return size;
    }

    /** Time of output point {@code i}, in increasing order. */
    public double time(int i) {
        return outTimes[i];
    }

    /** Value of output point {@code i}; NaN marks a gap (lift the pen). */
    public double value(int i) {
        return outValues[i];
    }

    /** Smallest non-NaN value inside the window at the last run, or NaN if there was none. */
    public double min() {
        return min;
    }

    /** Largest non-NaN value inside the window at the last run, or NaN if there was none. */
    public double max() {
        return max;
    }

    private void flush(double[] times, double[] values, int head, int first, int minIdx, int maxIdx, int last) {
        // In time order: first <= min, max <= last, so only min and max need ordering between
        // themselves; equal indices are emitted once.
        emit(times, values, head, first);
        if (minIdx >= 0) {
            int a = Math.min(minIdx, maxIdx);
            int b = Math.max(minIdx, maxIdx);
            if (a != first) {
                emit(times, values, head, a);
            }
            if (b != a && b != first) {
                emit(times, values, head, b);
            }
            if (last != b && last != first) {
                emit(times, values, head, last);
            }
        } else if (last != first) {
            emit(times, values, head, last);
        }
    }

    private void emit(double[] times, double[] values, int head, int idx) {
        int p = head + idx >= times.length ? head + idx - times.length : head + idx;
        double v = values[p];
        // One NaN point per run of gap is enough; keeping the first keeps the gap's start time,
        // which is where a step line must stop.
        if (v != v && size > 0 && outValues[size - 1] != outValues[size - 1]) {
            return;
        }
        outTimes[size] = times[p];
        outValues[size] = v;
        size++;
    }

    private void ensureCapacity(int n) {
        if (outTimes.length < n) {
            outTimes = Arrays.copyOf(outTimes, n);
            outValues = Arrays.copyOf(outValues, n);
        }
    }
}
