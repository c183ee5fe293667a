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

    /** The classes with a history, sorted. */
    public List<String> classNames() {
        return byClass.keySet().stream().sorted().toList();
    }
}
