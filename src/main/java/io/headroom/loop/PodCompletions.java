package io.headroom.loop;

import io.headroom.metrics.PodProgress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per pod of one class, the completion counter's readings over the last {@link #WINDOW}, so the pod panel
 * can say how many jobs each pod finished lately. A counter that goes down (the worker restarted) starts
 * again from that reading; a pod the source no longer reports is forgotten. Not thread-safe: the loop's
 * thread owns it.
 */
final class PodCompletions {
    /** How far back "lately" goes. */
    static final Duration WINDOW = Duration.ofMinutes(5);

    private record Reading(Instant at, double completed) {
    }

    private final Map<String, Deque<Reading>> readings = new HashMap<>();

    /** One tick's per-pod progress → each reported pod's work (completions NaN until it was read twice). */
    Map<String, PodWork> update(Map<String, PodProgress> progress, Instant now) {
        Map<String, PodWork> out = new LinkedHashMap<>();
        readings.keySet().retainAll(progress.keySet());
        Instant from = now.minus(WINDOW);
        for (Map.Entry<String, PodProgress> e : progress.entrySet()) {
            PodProgress p = e.getValue();
            Deque<Reading> q = readings.computeIfAbsent(e.getKey(), k -> new ArrayDeque<>());
            if (!Double.isFinite(p.completed())) {
                q.clear();
                out.put(e.getKey(), new PodWork(p.inFlight(), Double.NaN, 0));
                continue;
            }
            if (!q.isEmpty() && p.completed() < q.peekLast().completed()) {
                q.clear(); // the counter was reset: count from here
            }
            if (q.isEmpty() || now.isAfter(q.peekLast().at())) {
                q.addLast(new Reading(now, p.completed()));
            }
            // Keep one reading at or before the window's start, so the window is covered whole.
            while (q.size() > 1 && !second(q).at().isAfter(from)) {
                q.removeFirst();
            }
            Reading first = q.peekFirst();
            long over = Duration.between(first.at(), now).toSeconds();
            out.put(e.getKey(), q.size() < 2 ? new PodWork(p.inFlight(), Double.NaN, 0)
                    : new PodWork(p.inFlight(), p.completed() - first.completed(), over));
        }
        return out;
    }

    private static Reading second(Deque<Reading> q) {
        java.util.Iterator<Reading> it = q.iterator();
        it.next();
        return it.next();
    }
}
