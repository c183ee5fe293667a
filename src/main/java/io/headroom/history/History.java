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
    /** The week tier: every class's last {@link #WEEK} at {@link #WEEK_STEP}, for the forecast (issue 29). */
    private final int weekCapacity;
    private final Map<String, ClassHistory> weekByClass = new ConcurrentHashMap<>();
    /** The loop's thread only: the minute each class's live ticks are being averaged into. */
    private final Map<String, WeekRollup> rollups = new ConcurrentHashMap<>();

    /** How far back the week tier reaches. */
    public static final Duration WEEK = Duration.ofDays(7);
    /** The week tier's resolution: older days downsampled to a point a minute (the recent day keeps the tick). */
    public static final Duration WEEK_STEP = Duration.ofSeconds(60);
    /** Points in a full week tier, both ends counted: 10,081 (0.92 MB a class, every series). */
    public static final int WEEK_POINTS = (int) (WEEK.toSeconds() / WEEK_STEP.toSeconds()) + 1;

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

    /**
     * {@link #forClasses} for the day, and a week at {@link #WEEK_STEP} for each class within {@code weekBudgetBytes}
     * (a shorter past for every class of a fleet that would not fit: 1,000 classes in 512 MB keep 5,592 minutes,
     * 3.9 days).
     */
    public static History forClasses(Duration tick, int classes, long budgetBytes, long weekBudgetBytes) {
        History day = forClasses(tick, classes, budgetBytes);
        long points = weekBudgetBytes / Math.max(1, classes) / ClassHistory.bytesFor(1);
        return new History(tick, day.capacity, (int) Math.max(2, Math.min(WEEK_POINTS, points)));
    }

    /** Histories of a given capacity (tests, benchmarks). */
    public History(Duration tick, int capacity) {
        this(tick, capacity, WEEK_POINTS);
    }

    /** Histories of given capacities for the day and the week tier (tests, benchmarks). */
    public History(Duration tick, int capacity, int weekCapacity) {
        this.tick = tick;
        this.capacity = capacity;
        this.weekCapacity = weekCapacity;
    }

    /** Points per class in the week tier. */
    public int weekCapacity() {
        return weekCapacity;
    }

    /** How far back a full week tier reaches: {@link #WEEK}, or less for a fleet over its budget. */
    public Duration weekSpan() {
        Duration held = WEEK_STEP.multipliedBy(weekCapacity - 1L);
        return held.compareTo(WEEK) < 0 ? held : WEEK;
    }

    /** The class's week tier (a point a minute), created empty on first use. */
    public ClassHistory weekOf(String className) {
        return weekByClass.computeIfAbsent(className, n -> new ClassHistory(n, weekCapacity));
    }

    /** The class's week tier, or null when nothing was recorded or backfilled for it. */
    public ClassHistory findWeek(String className) {
        return weekByClass.get(className);
    }

    /**
     * One live tick into the week tier: averaged per series over its minute, the minute's point appended once the
     * next minute's first tick arrives (so the week tier trails the day by at most a minute). The loop's thread only.
     */
    public void rollUp(String className, double time, double[] row) {
        rollups.computeIfAbsent(className, n -> new WeekRollup(WEEK_STEP.toSeconds()))
                .add(time, row, () -> weekOf(className));
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
            ClassHistory oldWeek = before.findWeek(name);
            if (oldWeek != null && oldWeek.size() > 0 && !weekByClass.containsKey(name)) {
                weekByClass.computeIfAbsent(name, n -> oldWeek.capacity() == weekCapacity ? oldWeek
                        : copy(oldWeek, weekCapacity));
            }
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
