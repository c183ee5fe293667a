package io.headroom.history;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

/**
 * One class's load over the last day, in domain units (jobs/s, jobs, seconds, replicas), as
 * primitive rings: one time column shared by every {@link Series}. NaN means "not known then",
 * never 0. Filled from the control loop's ticks ({@link HistoryRecorder}) and from a metrics
 * source's past ({@link Backfill}); read by what-if and, downsampled, by charts.
 *
 * <p>Memory is bounded: {@link #bytesFor(int)} = 8 bytes × (1 + 11 series) per point, so a
 * day at a 15 s tick (5,761 points) is about 553 KB per class and a day at 5 s about 1.7 MB. The
 * rings grow to their capacity as points arrive (doubling, never wrapping before they are full), so a
 * fleet's thousands of classes cost little until they have a past ({@link History#forClasses}).
 *
 * <p>Thread-safe: the loop's thread appends, a backfill thread inserts the past, and readers take
 * copies ({@link #window}) or downsample under the same lock.
 */
public final class ClassHistory {

    /** The series kept per point, each in the domain's unit. */
    public enum Series {
        /** Jobs arriving per second. */
        ARRIVAL_RATE(Signals.ARRIVAL_RATE),
        /** Jobs finished per second. */
        COMPLETION_RATE(Signals.COMPLETION_RATE),
        /** Jobs waiting. */
        QUEUE_LENGTH(Signals.QUEUE_LENGTH),
        /** Seconds the oldest waiting job has waited. */
        OLDEST_AGE(Signals.OLDEST_AGE),
        /** Mean seconds of work per job. */
        MEAN_SERVICE(Signals.MEAN_SERVICE),
        /** Seconds of work waiting. */
        QUEUED_SERVICE(Signals.QUEUED_SERVICE),
        /** Jobs being worked on. */
        IN_FLIGHT(Signals.IN_FLIGHT),
        /** Replicas asked of the workload (spec), the actual count. */
        REPLICAS(Signals.REPLICAS),
        /** Replicas ready to work. */
        READY_REPLICAS(null),
        /** Replicas the decision wanted (after ceilings and behaviour). */
        DESIRED_REPLICAS(null),
        /** Slots the decision estimated the load needs. */
        ESTIMATED_SLOTS(null);

        private final SignalName signal;

        Series(SignalName signal) {
            this.signal = signal;
        }

        /** The metrics signal this series is read from in a backfill; null for what only a tick knows. */
        public SignalName signal() {
            return signal;
        }

        /** The series fed by a signal name (see {@code decision.Signals}), or null. */
        public static Series ofSignal(SignalName signal) {
            for (Series s : values()) {
                if (s.signal != null && s.signal.equals(signal)) {
                    return s;
                }
            }
            return null;
        }
    }

    /** Number of series per point. */
    public static final int SERIES = Series.values().length;
    /** How far back a class's history reaches. */
    public static final Duration SPAN = Duration.ofDays(1);

    /** Points a new history makes room for before it grows. */
    static final int INITIAL_POINTS = 64;

    private final String className;
    private final int capacity;
    // Grown by doubling up to capacity; the ring wraps only once they are full (head stays 0 until then).
    private double[] times;
    private double[][] columns; // [series][slot]
    private int head; // physical slot of the oldest point
    private int size;
    /** How many of the oldest points came from a backfill (the past), not from live ticks. */
    private int past;

    /** An empty history holding at most {@code capacity} points. */
    public ClassHistory(String className, int capacity) {
        if (capacity < 2) {
            throw new IllegalArgumentException("capacity must be at least 2: " + capacity);
        }
        this.className = className;
        this.capacity = capacity;
        int first = Math.min(capacity, INITIAL_POINTS);
        times = new double[first];
        columns = new double[SERIES][first];
    }

    /** Points for {@link #SPAN} at one point per {@code tick}, both ends counted. */
    public static int capacityFor(Duration tick) {
        if (tick.isNegative() || tick.isZero()) {
            throw new IllegalArgumentException("the tick must be positive: " + tick);
        }
        long points = (SPAN.toMillis() + tick.toMillis() - 1) / tick.toMillis() + 1;
        return (int) Math.min(Integer.MAX_VALUE / 2, Math.max(2, points));
    }

    /** Bytes the arrays of a history of {@code capacity} points take. */
    public static long bytesFor(int capacity) {
        return 8L * capacity * (1 + SERIES);
    }

    public String className() {
        return className;
    }

    /** The most points this history holds. */
    public int capacity() {
        return capacity;
    }

    /** Points the rings have room for now (they grow to {@link #capacity()}). */
    synchronized int allocated() {
        return times.length;
    }

    /** Grows the rings to hold at least {@code points} (at most the capacity); only while they have not wrapped. */
    private void ensureRoom(int points) {
        if (points <= times.length || times.length == capacity) {
            return;
        }
        int n = (int) Math.min(capacity, Math.max((long) points, 2L * times.length));
        times = Arrays.copyOf(times, n);
        for (int s = 0; s < SERIES; s++) {
            columns[s] = Arrays.copyOf(columns[s], n);
        }
    }

    public synchronized int size() {
        return size;
    }

    /** Time (epoch seconds) of the oldest point, NaN when empty. */
    public synchronized double firstTime() {
        return size == 0 ? Double.NaN : times[head];
    }

    /** Time (epoch seconds) of the newest point, NaN when empty. */
    public synchronized double lastTime() {
        return size == 0 ? Double.NaN : times[physical(size - 1)];
    }

    /** Time of the {@code i}-th oldest point. */
    public synchronized double time(int i) {
        return times[physical(check(i))];
    }

    /** A series' value at the {@code i}-th oldest point; NaN when it was not known. */
    public synchronized double value(Series s, int i) {
        return columns[s.ordinal()][physical(check(i))];
    }

    /**
     * Appends a point, overwriting the oldest when full.
     *
     * @param row one value per {@link Series}, in ordinal order (NaN where unknown)
     * @return false, and nothing stored, for a NaN time or one older than the newest point
     */
    public synchronized boolean append(double time, double[] row) {
        if (row.length != SERIES) {
            throw new IllegalArgumentException("a point has " + SERIES + " values, got " + row.length);
        }
        if (Double.isNaN(time) || (size > 0 && time < times[physical(size - 1)])) {
            return false;
        }
        int slot;
        ensureRoom(size + 1);
        if (size < times.length) {
            slot = physical(size);
            size++;
        } else {
            slot = head;
            head = head + 1 == times.length ? 0 : head + 1;
            past = Math.max(0, past - 1);
        }
        times[slot] = time;
        for (int s = 0; s < SERIES; s++) {
            columns[s][slot] = row[s];
        }
        return true;
    }

    /**
     * Puts the past under the live points: only points strictly before the oldest point already
     * here are taken, so nothing recorded live is ever overwritten. Series not given are NaN.
     * When the ring cannot hold both, the oldest of the past is what is dropped.
     *
     * @param pastTimes increasing epoch seconds
     * @param past      series → values at {@code pastTimes} (NaN where unknown)
     * @return how many points were inserted
     */
    public synchronized int backfill(double[] pastTimes, Map<Series, double[]> past) {
        for (double[] v : past.values()) {
            if (v.length != pastTimes.length) {
                throw new IllegalArgumentException("every series must have one value per time");
            }
        }
        double firstLive = size == 0 ? Double.POSITIVE_INFINITY : times[head];
        int n = 0;
        while (n < pastTimes.length && pastTimes[n] < firstLive) {
            n++;
        }
        if (n == 0) {
            return 0;
        }
        int keepLive = Math.min(size, capacity);
        int keepPast = Math.min(n, capacity - keepLive);
        // Rebuild the ring: [tail of the past][live], oldest first at slot 0.
        double[] liveTimes = new double[keepLive];
        double[][] liveValues = new double[SERIES][keepLive];
        for (int i = 0; i < keepLive; i++) {
            int p = physical(i);
            liveTimes[i] = times[p];
            for (int s = 0; s < SERIES; s++) {
                liveValues[s][i] = columns[s][p];
            }
        }
        head = 0;
        size = 0;
        ensureRoom(keepLive + keepPast);
        double[] row = new double[SERIES];
        double last = Double.NEGATIVE_INFINITY;
        int inserted = 0;
        for (int i = n - keepPast; i < n; i++) {
            if (!(pastTimes[i] > last)) {
                continue; // not increasing (or NaN): skipped, as append would
            }
            last = pastTimes[i];
            Arrays.fill(row, Double.NaN);
            for (Map.Entry<Series, double[]> e : past.entrySet()) {
                row[e.getKey().ordinal()] = e.getValue()[i];
            }
            put(pastTimes[i], row);
            inserted++;
        }
        for (int i = 0; i < keepLive; i++) {
            for (int s = 0; s < SERIES; s++) {
                row[s] = liveValues[s][i];
            }
            put(liveTimes[i], row);
        }
        this.past += inserted;
        return inserted;
    }

    /**
     * Puts one series' past into the history, a series at a time, so a backfill of many classes never
     * holds every series of every class at once: where a time of {@code grid} is already one of the
     * backfilled points its value is set; the grid's times before the oldest point are added under it (as
     * {@link #backfill}, the other series NaN). A series with no value at all adds nothing, so a class
     * Prometheus knows nothing of costs no room. Live points are never written.
     *
     * @param grid   increasing epoch seconds, the same grid for every series of one backfill
     * @param values the series' values at {@code grid} (NaN where unknown)
     * @return how many points were added
     */
    public synchronized int backfillSeries(double[] grid, Series series, double[] values) {
        if (values.length != grid.length) {
            throw new IllegalArgumentException("one value per time");
        }
        boolean known = false;
        for (int i = 0; i < values.length && !known; i++) {
            known = !Double.isNaN(values[i]);
        }
        if (!known) {
            return 0;
        }
        double oldest = size == 0 ? Double.POSITIVE_INFINITY : times[head];
        int older = 0;
        while (older < grid.length && grid[older] < oldest) {
            older++;
        }
        if (past > 0) {
            double[] column = columns[series.ordinal()];
            double pastEnd = times[physical(past - 1)];
            for (int i = older; i < grid.length && grid[i] <= pastEnd; i++) {
                int at = lowerBound(grid[i]);
                if (at < past && times[physical(at)] == grid[i]) {
                    column[physical(at)] = values[i];
                }
            }
        }
        if (older == 0) {
            return 0;
        }
        return backfill(Arrays.copyOf(grid, older), Map.of(series, Arrays.copyOf(values, older)));
    }

    /** The points of the last {@code seconds} up to the newest one, copied. */
    public synchronized Window last(double seconds) {
        if (size == 0) {
            return window(0, -1);
        }
        double to = times[physical(size - 1)];
        return window(to - seconds, to);
    }

    /** The points with {@code from <= time <= to}, copied: safe to hand to another thread. */
    public synchronized Window window(double from, double to) {
        int start = lowerBound(from);
        int end = Math.max(start, upperBound(to));
        int m = end - start;
        double[] t = new double[m];
        EnumMap<Series, double[]> values = new EnumMap<>(Series.class);
        for (Series s : Series.values()) {
            values.put(s, new double[m]);
        }
        for (int i = 0; i < m; i++) {
            int p = physical(start + i);
            t[i] = times[p];
            for (Series s : Series.values()) {
                values.get(s)[i] = columns[s.ordinal()][p];
            }
        }
        return new Window(className, t, values);
    }

    /** Receives one point of a series (see {@link #scan}). */
    @FunctionalInterface
    public interface PointVisitor {
        void point(double time, double value);
    }

    /**
     * Visits one series' points with {@code from <= time <= to}, oldest first, under the lock and
     * without copying: for readers that reduce many classes' recent past each tick (the overview's
     * sparklines). The visitor must be quick and must not call back into this history.
     *
     * @return the number of points visited
     */
    public synchronized int scan(Series s, double from, double to, PointVisitor visitor) {
        int start = lowerBound(from);
        int end = upperBound(to);
        double[] column = columns[s.ordinal()];
        for (int i = start; i < end; i++) {
            int p = physical(i);
            visitor.point(times[p], column[p]);
        }
        return Math.max(0, end - start);
    }

    /**
     * M4-downsamples one series over {@code [t0, t1]} to {@code pixelColumns} columns into
     * {@code into} (read its points with {@link Downsampler#time}/{@link Downsampler#value}).
     *
     * @return the number of points produced
     */
    public synchronized int downsample(Series s, double t0, double t1, int pixelColumns, Downsampler into) {
        if (size == 0) {
            return into.run(times, columns[s.ordinal()], 0, 0, 0, 0, t0, t1, pixelColumns);
        }
        return into.run(times, columns[s.ordinal()], head, size, Math.max(0, lowerBound(t0) - 1),
                Math.min(size, upperBound(t1) + 1), t0, t1, pixelColumns);
    }

    /**
     * A copy of some points of a class's history.
     *
     * @param times  epoch seconds, increasing
     * @param values every series, each as long as {@code times}
     */
    public record Window(String className, double[] times, Map<Series, double[]> values) {
        public int size() {
            return times.length;
        }

        /** One series' values (not copied again: treat as read-only). */
        public double[] values(Series s) {
            return values.get(s);
        }

        /** Seconds from the first point to the last; 0 with fewer than two. */
        public double seconds() {
            return times.length < 2 ? 0 : times[times.length - 1] - times[0];
        }
    }

    private void put(double time, double[] row) {
        int slot = physical(size);
        size++;
        times[slot] = time;
        for (int s = 0; s < SERIES; s++) {
            columns[s][slot] = row[s];
        }
    }

    private int lowerBound(double t) {
        return RingTimes.lowerBound(times, head, size, t);
    }

    private int upperBound(double t) {
        return RingTimes.upperBound(times, head, size, t);
    }

    private int physical(int i) {
        int p = head + i;
        return p >= times.length ? p - times.length : p;
    }

    private int check(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + ", size " + size);
        }
        return i;
    }
}
