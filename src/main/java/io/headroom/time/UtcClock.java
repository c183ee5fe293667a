package io.headroom.time;

import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock of Headroom's own (manual, running): always UTC, and refusing another zone rather than
 * pretending to move to it; times are put in the operator's zone where they are shown, not here.
 */
abstract class UtcClock extends Clock {
    private final String kind;

    /** @param kind what clock it is, for the refusal: "manual", "running" */
    UtcClock(String kind) {
        this.kind = kind;
    }

    @Override
    public final ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public final Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a " + kind + " clock is UTC");
    }
}
