package io.headroom.history;

/**
 * A fixed-capacity ring of (time, value) samples that overwrites its oldest sample when full.
 *
 * <p>Times are epoch seconds and must not decrease, so a time window maps to an index range by
 * binary search. A NaN value means "no data at this time" and is kept as such: the chart draws
 * it as a gap, never as 0. Not thread-safe: confine a buffer to one thread (the chart's buffers
 * live on the FX thread; {@code ChartSeries.post} is the way in from other threads).
 */
public final class SeriesBuffer {

    // Primitive arrays, not objects: a chart holds tens of thousands of samples per series and
    // walks them every frame.
    final double[] times;
    final double[] values;
    private int head; // physical index of the oldest sample
    private int size;

    /** Creates an empty buffer that holds at most {@code capacity} samples. */
    public SeriesBuffer(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        times = new double[capacity];
        values = new double[capacity];
    }

    public int capacity() {
        return times.length;
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /**
     * Appends a sample, overwriting the oldest one when full.
     *
     * @return false, and nothing stored, if {@code time} is NaN or older than the last sample:
     *     late samples would break the ordering the window search relies on, and a live feed
     *     should not crash the UI over one of them
     */
    public boolean append(double time, double value) {
        if (Double.isNaN(time) || (size > 0 && time < lastTime())) {
            return false;
        }
        int cap = times.length;
        int slot;
        if (size < cap) {
            slot = physical(size);
            size++;
        } else {
            slot = head;
            head = head + 1 == cap ? 0 : head + 1;
        }
        times[slot] = time;
        values[slot] = value;
        return true;
    }

    /**
     * Appends every sample of this buffer to {@code dest}, oldest first (a batch moving into a
     * chart's buffer without a per-sample index lookup).
     *
     * @return whether {@code dest} took any sample
     */
    public boolean appendTo(SeriesBuffer dest) {
        boolean any = false;
        int p = head;
        for (int i = 0; i < size; i++) {
            any |= dest.append(times[p], values[p]);
            if (++p == times.length) {
                p = 0;
            }
        }
        return any;
    }

    /** Drops every sample; the capacity stays. */
    public void clear() {
        head = 0;
        size = 0;
    }

    /** Time of the {@code i}-th oldest sample (0 = oldest). */
    public double time(int i) {
        return times[physical(checkIndex(i))];
    }

    /** Value of the {@code i}-th oldest sample (0 = oldest); NaN means no data. */
    public double value(int i) {
        return values[physical(checkIndex(i))];
    }

    /** Time of the newest sample, or NaN when empty. */
    public double lastTime() {
        return size == 0 ? Double.NaN : times[physical(size - 1)];
    }

    /** Time of the oldest sample, or NaN when empty. */
    public double firstTime() {
        return size == 0 ? Double.NaN : times[head];
    }

    /** Index of the first sample with time &gt;= {@code t}; {@link #size()} if there is none. */
    public int lowerBound(double t) {
        return RingTimes.lowerBound(times, head, size, t);
    }

    /** Index of the first sample with time &gt; {@code t}; {@link #size()} if there is none. */
    public int upperBound(double t) {
        return RingTimes.upperBound(times, head, size, t);
    }

    /**
     * The samples with {@code from <= time <= to}. Hot paths use {@link #lowerBound} and
     * {@link #upperBound} directly; this is the readable form.
     */
    public IndexRange indexRange(double from, double to) {
        int start = lowerBound(from);
        return new IndexRange(start, Math.max(start, upperBound(to)));
    }

    /** A half-open range of sample indices, {@code start <= i < end}. */
    public record IndexRange(int start, int end) {
        public int length() {
            return end - start;
        }

        public boolean isEmpty() {
            return start == end;
        }
    }

    /** Index of the newest sample with time &lt;= {@code t}, or -1 if every sample is later. */
    public int indexAtOrBefore(double t) {
        return upperBound(t) - 1;
    }

    /** Maps a logical index to a slot in the arrays; package-private so hot loops can walk slots. */
    int physical(int i) {
        int p = head + i;
        return p >= times.length ? p - times.length : p;
    }

    private int checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        return i;
    }
}
