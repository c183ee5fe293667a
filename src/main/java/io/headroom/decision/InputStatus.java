package io.headroom.decision;

import java.time.Instant;

/** How one input looked to the decision: its value and sample time, or why it was not usable. */
public record InputStatus(String name, Status status, double value, Instant sampledAt, String reason) {

    /** OK: fresh; STALE: older than two polling intervals; MISSING: no data. */
    public enum Status { OK, STALE, MISSING }

    public boolean usable() {
        return status == Status.OK;
    }
}
