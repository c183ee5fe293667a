package io.headroom.cluster;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Replicas Headroom raised for a while (a replacement's extra replica: design.md §5), recorded on the workload
 * in the same write as the replicas, so a console that stops before lowering them leaves it said: who,
 * from what to what, why and until when. Lowering them again removes the record in that write too.
 *
 * @param owner  the console's identity; null in a record to write (the gateway writes its own)
 * @param until  when whoever raised them meant to be done (the drain's deadline and grace)
 * @param from   the replicas before
 * @param to     the replicas raised to
 * @param reason why, in words: "a replacement for orders-x, which makes no progress (drain orders-3-1a2b)"
 */
public record ReplicaBump(String owner, Instant until, int from, int to, String reason) {
    /** Who raised them: a console's identity. */
    public static final String OWNER = "headroom.io/bumped-by";
    /** Until when, ISO-8601 UTC. */
    public static final String UNTIL = "headroom.io/bumped-until";
    /** The replicas before. */
    public static final String FROM = "headroom.io/bumped-from";
    /** The replicas raised to. */
    public static final String TO = "headroom.io/bumped-to";
    /** Why. */
    public static final String REASON = "headroom.io/bump-reason";
    /** Every annotation of the record. */
    public static final List<String> ANNOTATIONS = List.of(OWNER, UNTIL, FROM, TO, REASON);

    public ReplicaBump {
        Objects.requireNonNull(until, "until");
        reason = reason == null ? "" : reason;
    }

    /** True once whoever raised them meant to be done. */
    public boolean expiredAt(Instant now) {
        return !now.isBefore(until);
    }
}
