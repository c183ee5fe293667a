package io.headroom.decision;

import java.time.Instant;

/**
 * How one input looked to the decision: its value and sample time, or why it was not usable, and what
 * the source said about the answer it came in ({@link Annotations}: its warnings and infos).
 */
public record InputStatus(SignalName name, Status status, double value, Instant sampledAt, String reason,
                          Annotations annotations) {

    /**
     * OK: fresh; STALE: older than two polling intervals; MISSING: no data (or bad data);
     * NOT_COLLECTED: the class does not collect this signal (not an alarm); PARTIAL: fresh, from an
     * answer the source warned may be incomplete: the decision may scale up on it, never down.
     */
    public enum Status { OK, STALE, MISSING, NOT_COLLECTED, PARTIAL }

    public InputStatus {
        annotations = annotations == null ? Annotations.NONE : annotations;
    }

    /** An input with nothing said about its answer. */
    public InputStatus(SignalName name, Status status, double value, Instant sampledAt, String reason) {
        this(name, status, value, sampledAt, reason, Annotations.NONE);
    }

    /** The status as an operator reads it: "stale", "missing", "not collected", "partial". */
    public String label() {
        return status.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    /** True when the value is fresh and complete: anything may be decided on it. */
    public boolean usable() {
        return status == Status.OK;
    }
}
