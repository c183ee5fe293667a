package io.headroom.decision;

import java.time.Instant;

/**
 * The concurrency governor's state (DESIGN §3 step 6), carried from tick to tick.
 *
 * @param phase                    what it is doing
 * @param limit                    the replica limit it imposes, or -1 when none
 * @param lastHealthyReplicas      ready replicas at the last tick the dependency was healthy, -1 when never seen
 * @param breachTicks              consecutive ticks the dependency has breached
 * @param lastThroughputPerReplica completions per ready replica on the previous tick, NaN when unknown
 * @param probedFrom               the limit before the last probe while that probe is unconfirmed, else -1
 * @param nextProbeAt              the earliest time of the next probe, null when none is due
 * @param probeSeconds             the current wait between probes (doubles after a probe that breached)
 */
public record GovernorState(Phase phase, int limit, int lastHealthyReplicas, int breachTicks,
                            double lastThroughputPerReplica, int probedFrom, Instant nextProbeAt,
                            double probeSeconds) {

    /** IDLE: no limit; HOLDING: breached, no scale-up; BACKING_OFF: stepping down; PROBING: recovered, adding back. */
    public enum Phase { IDLE, HOLDING, BACKING_OFF, PROBING }

    /** No limit, nothing known. */
    public static final GovernorState IDLE = new GovernorState(Phase.IDLE, -1, -1, 0, Double.NaN, -1, null, 0);

    /** True while the governor imposes a limit. */
    public boolean limiting() {
        return limit >= 0;
    }
}
