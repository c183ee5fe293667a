package io.headroom.ui.detail;

import io.headroom.decision.SignalName;
import static io.headroom.ui.Readings.input;
import static io.headroom.ui.Readings.signal;

import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import io.headroom.history.SeriesBuffer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One class's chart history as primitive ring buffers, in chart units: ages in seconds, capacity
 * in slots (replicas × slots per replica) so estimate, capacity, desired and ceilings share an axis.
 */
public final class ClassSeries {
    /** 24 h at a 5 s tick: the default when the session's tick is not known. */
    static final int CAPACITY = 17_280;

    private final int capacity;
    final SeriesBuffer oldestAge;
    final SeriesBuffer queueLength;
    final SeriesBuffer estimatedSlots;
    final SeriesBuffer capacitySlots;
    final SeriesBuffer readySlots;
    final SeriesBuffer desiredSlots;
    final Map<String, SeriesBuffer> ceilingSlots = new LinkedHashMap<>();
    /** The concurrency governor's limit × k while it imposes one, NaN (a gap) while it does not. */
    final SeriesBuffer governorSlots;
    final SeriesBuffer arrivalRate;
    final SeriesBuffer serviceSeconds;
    private int points;

    /** A day at a 5 s tick. */
    public ClassSeries() {
        this(CAPACITY);
    }

    /** Series of {@code capacity} points each: a day at the session's tick ({@code History#capacity()}). */
    public ClassSeries(int capacity) {
        this.capacity = capacity;
        oldestAge = new SeriesBuffer(capacity);
        queueLength = new SeriesBuffer(capacity);
        estimatedSlots = new SeriesBuffer(capacity);
        capacitySlots = new SeriesBuffer(capacity);
        readySlots = new SeriesBuffer(capacity);
        desiredSlots = new SeriesBuffer(capacity);
        governorSlots = new SeriesBuffer(capacity);
        arrivalRate = new SeriesBuffer(capacity);
        serviceSeconds = new SeriesBuffer(capacity);
    }

    /** Points each series holds at most. */
    public int capacity() {
        return capacity;
    }

    /** Time of the oldest point of any series, NaN when there is none. */
    public double firstTime() {
        double first = Double.NaN;
        for (SeriesBuffer b : all()) {
            double t = b.firstTime();
            if (t == t && !(first <= t)) {
                first = t;
            }
        }
        return first;
    }

    /**
     * Puts a window of the domain history under the live points, converted to chart units
     * (replicas × {@code slotsPerReplica} on the capacity chart). Points at or after a series'
     * first live point are left out, so nothing live is overwritten.
     *
     * @return how many points went into the oldest-age series (the age chart's)
     */
    public int seed(io.headroom.history.ClassHistory.Window w, int slotsPerReplica) {
        int n = prepend(oldestAge, w.times(), w.values(io.headroom.history.ClassHistory.Series.OLDEST_AGE), 1);
        prepend(queueLength, w.times(), w.values(io.headroom.history.ClassHistory.Series.QUEUE_LENGTH), 1);
        prepend(estimatedSlots, w.times(), w.values(io.headroom.history.ClassHistory.Series.ESTIMATED_SLOTS), 1);
        prepend(capacitySlots, w.times(), w.values(io.headroom.history.ClassHistory.Series.REPLICAS),
                slotsPerReplica);
        prepend(readySlots, w.times(), w.values(io.headroom.history.ClassHistory.Series.READY_REPLICAS),
                slotsPerReplica);
        prepend(desiredSlots, w.times(), w.values(io.headroom.history.ClassHistory.Series.DESIRED_REPLICAS),
                slotsPerReplica);
        prepend(arrivalRate, w.times(), w.values(io.headroom.history.ClassHistory.Series.ARRIVAL_RATE), 1);
        prepend(serviceSeconds, w.times(), w.values(io.headroom.history.ClassHistory.Series.MEAN_SERVICE), 1);
        return n;
    }

    /**
     * The past (points before the buffer's first point) under the live points, times {@code scale};
     * returns how many were put. When the ring cannot hold them all, the newest past points stay.
     */
    private static int prepend(SeriesBuffer b, double[] times, double[] values, double scale) {
        double firstLive = b.isEmpty() ? Double.POSITIVE_INFINITY : b.firstTime();
        int past = 0;
        for (double t : times) {
            if (t < firstLive) {
                past++;
            }
        }
        if (past == 0) {
            return 0;
        }
        int live = b.size();
        double[] lt = new double[live];
        double[] lv = new double[live];
        for (int i = 0; i < live; i++) {
            lt[i] = b.time(i);
            lv[i] = b.value(i);
        }
        b.clear();
        int keep = Math.max(0, Math.min(past, b.capacity() - live)); // the ring keeps the newest
        int skip = past - keep;
        for (int i = 0; i < times.length; i++) {
            if (times[i] < firstLive && skip-- <= 0) {
                b.append(times[i], values[i] * scale);
            }
        }
        for (int i = 0; i < live; i++) {
            b.append(lt[i], lv[i]);
        }
        return keep;
    }

    /** Appends one tick; returns true when a new ceiling series appeared (the chart needs rebuilding). */
    boolean append(ClassSnapshot s) {
        double t = s.at().getEpochSecond() + s.at().getNano() / 1e9;
        Decision d = s.decision();
        points++;
        if (d == null) {
            // Undecided (the cluster cannot be read): a gap in capacity, but the metrics' figures still chart.
            Map<SeriesBuffer, SignalName> read = Map.of(oldestAge, Signals.OLDEST_AGE, queueLength, Signals.QUEUE_LENGTH,
                    arrivalRate, Signals.ARRIVAL_RATE, serviceSeconds, Signals.MEAN_SERVICE);
            for (SeriesBuffer b : all()) {
                SignalName signal = read.get(b);
                b.append(t, signal == null ? Double.NaN : signal(s, signal));
            }
            return false;
        }
        int k = s.cls().policy().slotsPerReplica();
        oldestAge.append(t, input(d, Signals.OLDEST_AGE));
        queueLength.append(t, input(d, Signals.QUEUE_LENGTH));
        estimatedSlots.append(t, d.estimatedSlots() == null ? Double.NaN : d.estimatedSlots());
        // Replicas from a cluster view that stopped updating are the last known, not the current: a gap
        // from the last point read (the chart marks it as an outage), never a line carried on as if read.
        boolean read = s.workloadCurrent();
        capacitySlots.append(t, read ? (double) d.currentReplicas() * k : Double.NaN);
        readySlots.append(t, read ? (double) d.readyReplicas() * k : Double.NaN);
        desiredSlots.append(t, read ? (double) d.desiredReplicas() * k : Double.NaN);
        boolean added = false;
        for (CeilingResult c : d.ceilings()) {
            SeriesBuffer b = ceilingSlots.get(c.name());
            if (b == null) {
                b = new SeriesBuffer(capacity);
                ceilingSlots.put(c.name(), b);
                added = true;
            }
            b.append(t, (double) c.limit() * k);
        }
        governorSlots.append(t, d.governorLimit() == null ? Double.NaN : (double) d.governorLimit() * k);
        arrivalRate.append(t, input(d, Signals.ARRIVAL_RATE));
        serviceSeconds.append(t, input(d, Signals.MEAN_SERVICE));
        return added;
    }

    /**
     * Puts history from before the first live point under a signal's series (chart backfill):
     * history at or after the first live point is dropped, so live data is never overwritten.
     * Returns false for a signal this chart does not draw.
     */
    public boolean backfill(SignalName signal, double[] times, double[] values) {
        SeriesBuffer b = signal.equals(Signals.OLDEST_AGE) ? oldestAge
                : signal.equals(Signals.QUEUE_LENGTH) ? queueLength
                : signal.equals(Signals.ARRIVAL_RATE) ? arrivalRate
                : signal.equals(Signals.MEAN_SERVICE) ? serviceSeconds
                : null;
        if (b == null) {
            return false;
        }
        prepend(b, times, values, 1);
        return true;
    }

    /** Number of ticks appended so far (not capped by the ring). */
    public int points() {
        return points;
    }

    private Iterable<SeriesBuffer> all() {
        java.util.List<SeriesBuffer> list = new java.util.ArrayList<>(java.util.List.of(oldestAge, queueLength,
                estimatedSlots, capacitySlots, readySlots, desiredSlots, governorSlots, arrivalRate, serviceSeconds));
        list.addAll(ceilingSlots.values());
        return list;
    }

}
