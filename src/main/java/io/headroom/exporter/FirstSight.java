package io.headroom.exporter;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * An oldest age where the queue system stores no enqueue time: the time the exporter first saw the
 * job now at the head of each queue. A lower bound of the true age (the job may have waited before
 * the exporter's first look, or while the head moved between two reads), exact to one scrape interval
 * for jobs enqueued while the exporter runs.
 */
final class FirstSight {
    private record Seen(String head, Instant at) {
    }

    private final Map<String, Seen> heads = new HashMap<>();

    /**
     * The oldest age at {@code now}: from {@code enqueued}, the head's own enqueue time, where the system stores
     * one, else from first sight (kept either way, for a head that carries no time).
     */
    double age(String queue, String head, Instant enqueued, Instant now) {
        double sight = age(queue, head, now);
        return enqueued != null ? Math.max(0, Duration.between(enqueued, now).toNanos() / 1e9) : sight;
    }

    /** The age of {@code head} at {@code now}; an empty queue ({@code head} null) forgets its head. */
    double age(String queue, String head, Instant now) {
        if (head == null) {
            heads.remove(queue);
            return 0;
        }
        Seen seen = heads.get(queue);
        if (seen == null || !seen.head().equals(head)) {
            seen = new Seen(head, now);
            heads.put(queue, seen);
        }
        return Math.max(0, Duration.between(seen.at(), now).toNanos() / 1e9);
    }
}
