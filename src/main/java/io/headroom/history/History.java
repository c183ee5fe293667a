package io.headroom.history;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every class's {@link ClassHistory}, keyed by class name, each sized for {@link ClassHistory#SPAN}
 * at the session's tick, or less where a fleet's classes would not fit a memory budget
 * ({@link #forClasses}). The one place load history lives below the UI: the loop's ticks and the
 * metrics backfill write it; what-if, the CLI and charts read it. Thread-safe.
 */
public final class History {
    private final Duration tick;
    private final int capacity;
    private final Map<String, ClassHistory> byClass = new ConcurrentHashMap<>();

    /** Histories holding a day at one point per {@code tick}. */
    public History(Duration tick) {
        this(tick, ClassHistory.capacityFor(tick));
    }

    /**
     * Histories for {@code classes} classes within {@code budgetBytes}: a day at one point per
     * {@code tick} when it fits (5,761 points, 553 KB a class at 15 s), else the same share for every
     * class, so a fleet keeps a shorter past ({@link #span()}) rather than running out of memory. At
     * 5,000 classes and a 15 s tick a 1 GiB budget keeps 2,236 points, 9.3 hours.
     */
    public static History forClasses(Duration tick, int classes, long budgetBytes) {
        int day = ClassHistory.capacityFor(tick);
        long perClass = budgetBytes / Math.max(1, classes);
        long points = perClass / ClassHistory.bytesFor(1);
        return new History(tick, (int) Math.max(2, Math.min(day, points)));
    }

    /** Histories of a given capacity (tests, benchmarks). */
    public History(Duration tick, int capacity) {
        this.tick = tick;
        this.capacity = capacity;
    }

    /** The spacing of points, and of a backfill's grid. */
    public Duration tick() {
        return tick;
    }

    /** Points per class. */
    public int capacity() {
        return capacity;
    }

    /** How far back a full history reaches: {@link ClassHistory#SPAN}, or less for a fleet over its budget. */
    public Duration span() {
        Duration held = tick.multipliedBy(capacity - 1L);
        return held.compareTo(ClassHistory.SPAN) < 0 ? held : ClassHistory.SPAN;
    }

    /** The class's history, created empty on first use. */
    public ClassHistory of(String className) {
        return byClass.computeIfAbsent(className, n -> new ClassHistory(n, capacity));
    }

    /** The class's history, or null when nothing was recorded for it. */
    public ClassHistory find(String className) {
        return byClass.get(className);
    }

    /**
     * Keeps what {@code before} recorded for the classes named (those that still exist once a workloads file
     * is read again), so the charts do not start empty while the new session's backfill runs: the same
     * history where the capacity is the same, else its newest points copied. Only at the same tick (the
     * points' spacing); a class already recorded here keeps its own. Returns the classes taken over.
     */
    public List<String> adopt(History before, java.util.Collection<String> classNames) {
        if (before == null || !before.tick.equals(tick)) {
            return List.of();
        }
        List<String> taken = new java.util.ArrayList<>();
        for (String name : classNames) {
            ClassHistory old = before.find(name);
            if (old == null || old.size() == 0 || byClass.containsKey(name)) {
                continue;
            }
            byClass.computeIfAbsent(name, n -> old.capacity() == capacity ? old : copy(old, capacity));
            taken.add(name);
        }
        return taken;
    }

    private static ClassHistory copy(ClassHistory old, int capacity) {
        ClassHistory h = new ClassHistory(old.className(), capacity);
        ClassHistory.Window w = old.window(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        double[] row = new double[ClassHistory.SERIES];
        for (int i = Math.max(0, w.times().length - capacity); i < w.times().length; i++) {
            for (ClassHistory.Series s : ClassHistory.Series.values()) {
                row[s.ordinal()] = w.values().get(s)[i];
            }
            h.append(w.times()[i], row);
        }
        return h;
    }

    /** The classes with a history, sorted. */
    public List<String> classNames() {
        return byClass.keySet().stream().sorted().toList();
    }
}
