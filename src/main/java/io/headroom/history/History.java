package io.headroom.history;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every class's {@link ClassHistory}, keyed by class name, each sized for {@link ClassHistory#SPAN}
 * at the session's tick. The one place load history lives below the UI: the loop's ticks and the
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
