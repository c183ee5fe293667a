package io.headroom.decision;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the decision for one class remembers between ticks: past recommendations (stabilisation
 * windows), observed replica changes (rate policies), telemetry failures, idleness (cooldown) and
 * age growth (stall detection). Immutable: each decision returns the next memory.
 *
 * @param lastReplicas replicas seen on the previous tick, null before the first
 * @param lastOldestAge oldest age seen on the previous tick, NaN when unknown
 * @param stallSince since when the age has grown with no completions, null when not
 * @param lastMeanService the last known mean service time, NaN when never known
 * @param failureTicks consecutive ticks with a required input missing or stale
 * @param lastActiveAt the last time work was waiting or in flight, null before the first tick
 */
public record ClassMemory(Integer lastReplicas, double lastOldestAge, Instant stallSince, double lastMeanService,
                          int failureTicks, Instant lastActiveAt, List<Stamped> recommendations,
                          List<Stamped> scaleEvents) {

    /** A value at a time: a past recommendation or an observed replica change (delta). */
    public record Stamped(Instant at, int value) {
    }

    public ClassMemory {
        recommendations = List.copyOf(recommendations);
        scaleEvents = List.copyOf(scaleEvents);
    }

    /** The memory of a class never decided before. */
    public static ClassMemory initial() {
        return new ClassMemory(null, Double.NaN, null, Double.NaN, 0, null, List.of(), List.of());
    }

    static List<Stamped> keepSince(List<Stamped> list, Instant now, Duration horizon) {
        Instant cutoff = now.minus(horizon);
        List<Stamped> kept = new ArrayList<>(list.size() + 1);
        for (Stamped s : list) {
            if (s.at().isAfter(cutoff)) {
                kept.add(s);
            }
        }
        return kept;
    }
}
