package io.headroom.decision;

import java.time.Instant;
import java.util.Objects;

/**
 * Capacity held ahead of a forecast rise (issue 29, design.md §3): approved by the operator (mode {@code propose})
 * or applied by the console (mode {@code auto}), it raises the decision to at least {@code replicas} from
 * {@code from} until {@code until}. The reactive decision may exceed it; it never lowers anything (no scale-in on a
 * forecast), min/max and every ceiling still bind, and the rate policies still pace the steps.
 *
 * @param replicas the forecast's slots in replicas (p80 by default)
 * @param from     when to start holding: the rise's time less start-up, one poll and a buffer
 * @param until    when the floor lapses: the end of the forecast rise (after it the reactive decision alone rules)
 * @param why      the forecast behind it in words, for the explanation and the journal
 */
public record ForecastFloor(int replicas, Instant from, Instant until, String why) {

    public ForecastFloor {
        if (replicas < 0) {
            throw new IllegalArgumentException("a forecast floor's replicas cannot be negative, got " + replicas);
        }
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(until, "until");
        if (!until.isAfter(from)) {
            throw new IllegalArgumentException("a forecast floor must end after it starts: " + from + " → " + until);
        }
        why = why == null ? "" : why;
    }

    /** Whether it holds at {@code t}: from its start, until (not at) its end. */
    public boolean activeAt(Instant t) {
        return !t.isBefore(from) && t.isBefore(until);
    }

    /** Whether it is for the same rise as {@code other}: their windows meet (null: none to meet). */
    public boolean overlaps(ForecastFloor other) {
        return other != null && from.isBefore(other.until) && other.from.isBefore(until);
    }

    /** Whether it has lapsed at {@code t}. */
    public boolean lapsedAt(Instant t) {
        return !t.isBefore(until);
    }
}
