package io.headroom.decision;

import java.time.Instant;

/**
 * The concurrency governor's state (design.md §3 step 6), carried from tick to tick.
 *
 * @param phase                    what it is doing
 * @param limit                    the replica limit it imposes, or -1 when none
 * @param lastHealthyReplicas      ready replicas at the last tick the dependency was healthy, -1 when never seen
 * @param breachTicks              consecutive ticks the dependency has breached
 * @param lastThroughputPerReplica completions per ready replica on the previous tick, NaN when unknown
 * @param probedFrom               the limit before the probe being judged, else -1
 * @param fromThroughput           completions/s settled at {@code probedFrom}, NaN when unknown
 * @param judgeAt                  when the probe being judged has had time to show, null when none
 * @param nextProbeAt              the earliest time of the next probe, null when one may start now
 * @param backoffSeconds           the wait before the next probe (doubles after one that did not pay)
 * @param baseline                 the lowest dependency value seen: what it reads uncongested, NaN when never seen
 */
public record GovernorState(Phase phase, int limit, int lastHealthyReplicas, int breachTicks,
                            double lastThroughputPerReplica, int probedFrom, double fromThroughput, Instant judgeAt,
                            Instant nextProbeAt, double backoffSeconds, double baseline) {

    /** IDLE: no limit; HOLDING: breached, no scale-up; BACKING_OFF: stepping down; PROBING: trying one replica more or less. */
    public enum Phase { IDLE, HOLDING, BACKING_OFF, PROBING }

    /** No limit, nothing known. */
    public static final GovernorState IDLE = new GovernorState(Phase.IDLE, -1, -1, 0, Double.NaN, -1, Double.NaN,
            null, null, 0, Double.NaN);

    /** True while the governor imposes a limit. */
    public boolean limiting() {
        return limit >= 0;
    }
}
