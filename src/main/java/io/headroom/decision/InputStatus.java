package io.headroom.decision;

import java.time.Instant;

/** How one input looked to the decision: its value and sample time, or why it was not usable. */
public record InputStatus(String name, Status status, double value, Instant sampledAt, String reason) {

    /**
     * OK: fresh; STALE: older than two polling intervals; MISSING: no data (or bad data);
     * NOT_COLLECTED: the class does not collect this signal (not an alarm).
     */
    public enum Status { OK, STALE, MISSING, NOT_COLLECTED }

    /** The status as an operator reads it: "stale", "missing", "not collected". */
    public String label() {
        return status.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    public boolean usable() {
        return status == Status.OK;
    }
}
