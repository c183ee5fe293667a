package io.headroom.supervise;

import io.headroom.decision.ForecastFloor;
import io.headroom.drain.Drain;

/**
 * One class's actuation state: its mode, overlays, pending proposal and drain (each may be null).
 *
 * @param lastAction the last thing supervision did for the class; null before the first
 * @param drain the running drain, or the last one once it ended; null when the class never drained
 * @param floor the forecast floor held for the class (approved, or applied by forecast mode auto), or null
 * @param floorBy who holds it, in words ("approved by alice", "auto"); null without a floor
 */
public record ClassSupervision(String className, Mode mode, Freeze freeze, ReplicaOverride override, Proposal proposal,
                               LastAction lastAction, Drain drain, ForecastFloor floor, String floorBy) {

    public ClassSupervision(String className, Mode mode, Freeze freeze, ReplicaOverride override, Proposal proposal,
                            LastAction lastAction, Drain drain) {
        this(className, mode, freeze, override, proposal, lastAction, drain, null, null);
    }

    /** True while a drain runs: the class's decisions are withheld until it ends. */
    public boolean draining() {
        return drain != null && drain.active();
    }

    ClassSupervision withFreeze(Freeze f) {
        return new ClassSupervision(className, mode, f, override, proposal, lastAction, drain, floor, floorBy);
    }
}
