package io.headroom.cluster;

import java.time.Instant;

/**
 * Who cordoned a node for Headroom, when and why, kept on the node itself (annotations), so a console
 * that stops in the middle of a node drain leaves a trace: the next console (any console) finds the node
 * cordoned by Headroom with no drain of its own running, and offers to uncordon it or drain it again.
 * {@code kubectl uncordon} by hand leaves the annotations; a node that is not cordoned is not Headroom's,
 * whatever they say.
 *
 * @param by      the console's identity (user@host/tag)
 * @param drainId the node drain that cordoned it
 * @param expires when the drain that cordoned it is over (its deadline and a grace), by that console's clock:
 *                after it no drain of that console is still running there; null when the record does not say
 */
public record CordonMark(String by, Instant at, String why, String drainId, Instant expires) {
    /** Who cordoned it: a console's identity. */
    public static final String BY_ANNOTATION = "headroom.io/cordoned-by";
    /** When: an ISO-8601 instant by that console's clock. */
    public static final String AT_ANNOTATION = "headroom.io/cordoned-at";
    /** Why: the drain's reason (the operator's words), or "node drain". */
    public static final String WHY_ANNOTATION = "headroom.io/cordon-reason";
    /** The node drain's id. */
    public static final String DRAIN_ANNOTATION = "headroom.io/cordon-drain";
    /** Until when the drain that cordoned it may run: an ISO-8601 instant by that console's clock. */
    public static final String EXPIRES_ANNOTATION = "headroom.io/cordon-expires";

    /** A record that does not say when its drain is over (one an older console wrote). */
    public CordonMark(String by, Instant at, String why, String drainId) {
        this(by, at, why, drainId, null);
    }

    /** True once the drain that cordoned the node is over by {@code now}; never when the record does not say. */
    public boolean expiredAt(Instant now) {
        return expires != null && !now.isBefore(expires);
    }

    /** "cordoned by ana@desk/5f3a for drain d-1 at 2026-12-06T03:16:12Z: kernel upgrade" (to the second). */
    public String describe() {
        return describe(t -> t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
    }

    /** As {@link #describe()}, with the time written by {@code when} (a view's clock format). */
    public String describe(java.util.function.Function<Instant, String> when) {
        return "cordoned by " + (by == null ? "an unknown console" : by) + (drainId == null ? "" : " for " + drainId)
                + (at == null ? "" : " at " + when.apply(at)) + (why == null || why.isBlank() ? "" : ": " + why);
    }
}
