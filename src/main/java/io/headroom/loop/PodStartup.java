package io.headroom.loop;

import io.headroom.cluster.PodState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Measured pod start-up (creation → ready) of a workload's pods, for the decision's D_eff (design.md §3 step 1). */
final class PodStartup {

    /** At most this many of the newest pods count: start-up changes with images and nodes. */
    static final int NEWEST = 10;

    private PodStartup() {
    }

    /** When the oldest pod still starting (not ready, not terminating) was created, or null when none is. */
    static java.time.Instant startingSince(List<PodState> pods) {
        java.time.Instant oldest = null;
        for (PodState p : pods) {
            if (!p.ready() && !p.terminating() && p.createdAt() != null
                    && (oldest == null || p.createdAt().isBefore(oldest))) {
                oldest = p.createdAt();
            }
        }
        return oldest;
    }

    /** The median start-up of the newest pods that show both times, or NaN when none does. */
    static double measure(List<PodState> pods) {
        List<PodState> started = new ArrayList<>();
        for (PodState p : pods) {
            if (p.createdAt() != null && p.readyAt() != null && !p.readyAt().isBefore(p.createdAt())) {
                started.add(p);
            }
        }
        if (started.isEmpty()) {
            return Double.NaN;
        }
        started.sort((a, b) -> b.createdAt().compareTo(a.createdAt()));
        List<Double> secs = new ArrayList<>();
        for (PodState p : started.subList(0, Math.min(NEWEST, started.size()))) {
            secs.add(Duration.between(p.createdAt(), p.readyAt()).toNanos() / 1e9);
        }
        Collections.sort(secs);
        int n = secs.size();
        return n % 2 == 1 ? secs.get(n / 2) : (secs.get(n / 2 - 1) + secs.get(n / 2)) / 2;
    }
}
