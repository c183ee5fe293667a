package io.headroom.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * A pause Headroom wrote (design.md §4, hand back): annotations on the workload and on its KEDA ScaledObject,
 * beside KEDA's own {@code paused-replicas} and in the same write, so any console, kubectl or k9s sees who
 * holds the workload, why and until when. A scale of a KEDA-managed workload pauses KEDA with this
 * console as the owner for {@link #WRITTEN_FOR}; a pause kept at exit carries the end the operator chose.
 * The next console that starts lists it, whoever left it, and offers to hand it back (by default once
 * {@link #until} has passed).
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
    /**
     * How long a pause written by a scale lasts past that write (each scale writes it again): long
     * enough for a live console's hold, short enough that a pause left by a console that died is
     * handed back within a shift.
     */
    public static final java.time.Duration WRITTEN_FOR = java.time.Duration.ofHours(4);

    public HeadroomPause {
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(until, "until");
        reason = reason == null ? "" : reason;
    }

    /** "paused by ana@desk/5f3a until 2026-…Z (frozen: incident 812)". */
    public String describe() {
        return "paused by " + owner + " until " + until + (reason.isBlank() ? "" : " (" + reason + ")");
    }

    /** True once the pause should have ended. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(until);
    }
}
