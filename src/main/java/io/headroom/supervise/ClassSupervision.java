package io.headroom.supervise;

import io.headroom.drain.Drain;

/**
 * One class's actuation state: its mode, overlays, pending proposal and drain (each may be null).
 *
 * @param drain the running drain, or the last one once it ended; null when the class never drained
 */
public record ClassSupervision(String className, Mode mode, Freeze freeze, ReplicaOverride override, Proposal proposal,
                               String lastAction, Drain drain) {

    /** True while a drain runs: the class's decisions are withheld until it ends. */
    public boolean draining() {
        return drain != null && drain.active();
    }
}
