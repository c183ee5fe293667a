package io.headroom.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * A pause a console kept when it exited (DESIGN §4, hand back): written as annotations on the workload
 * (and on its KEDA ScaledObject, beside KEDA's own {@code paused-replicas}), so any console, kubectl
 * or k9s sees who holds the workload, why and until when. Once {@link #until} has passed, the next
 * console that starts offers to hand it back.
 *
 * @param owner    who kept it (the operator), never a credential
 * @param until    when the pause should end
 * @param reason   what held the class (frozen, pinned, auto) and why; may be empty
 * @param replicas the replicas the workload is held at (KEDA's {@code paused-replicas}), or null when not known
 */
public record HeadroomPause(String owner, Instant until, String reason, Integer replicas) {
    /** Who kept the pause. */
    public static final String OWNER = "headroom.io/paused-by";
    /** Until when, ISO-8601 UTC. */
    public static final String UNTIL = "headroom.io/paused-until";
    /** What held the class and why. */
    public static final String REASON = "headroom.io/pause-reason";

    public HeadroomPause {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(until, "until");
        reason = reason == null ? "" : reason;
    }

    /** True once the pause should have ended. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(until);
    }
}
