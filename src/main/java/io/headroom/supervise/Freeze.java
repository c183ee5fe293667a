package io.headroom.supervise;

import java.time.Instant;

/** No actuation until {@code until}; decisions are still computed and shown. */
public record Freeze(String reason, Instant until, String by, Instant since) {
    public boolean activeAt(Instant now) {
        return now.isBefore(until);
    }
}
