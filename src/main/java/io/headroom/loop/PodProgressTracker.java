package io.headroom.loop;

import io.headroom.cluster.PodState;
import io.headroom.metrics.PodProgress;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remembers, per pod of one class, when its completion counter last moved, so the decision can tell a
 * worker that is alive but not making progress. A pod counts only while it is ready, not terminating,
 * not marked for a drain (a draining pod finishing its last job is another story) and holds work; a pod
 * first seen in that state is dated from that tick (nothing older is known). Not thread-safe: the loop's
 * thread owns it.
 */
final class PodProgressTracker {
    private record Track(double completed, Instant since) {
    }

    private final Map<String, Track> tracks = new HashMap<>();

    /** Every pod is seen afresh on the next tick (its clock starts then). */
    void forget() {
        tracks.clear();
    }

    /**
     * One tick: the pods holding work whose counter has not moved, each with the time it last moved
     * (or was first seen holding work).
     */
    Map<String, Instant> update(List<PodState> pods, Map<String, PodProgress> progress, Instant now) {
        Map<String, Instant> out = new LinkedHashMap<>();
        Map<String, Track> next = new HashMap<>();
        for (PodState pod : pods) {
            PodProgress p = progress.get(pod.name());
            if (p == null || !Double.isFinite(p.completed()) || !Double.isFinite(p.inFlight())
                    || !pod.ready() || pod.terminating() || pod.draining() || p.inFlight() < 1) {
                continue; // not holding work, or nothing known: no clock runs
            }
            Track t = tracks.get(pod.name());
            if (t == null || t.completed() != p.completed()) {
                t = new Track(p.completed(), now);
            }
            next.put(pod.name(), t);
            out.put(pod.name(), t.since());
        }
        tracks.clear();
        tracks.putAll(next);
        return out;
    }
}
