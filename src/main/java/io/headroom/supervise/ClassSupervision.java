package io.headroom.supervise;

/** One class's actuation state: its mode, overlays and pending proposal (each may be null). */
public record ClassSupervision(String className, Mode mode, Freeze freeze, ReplicaOverride override, Proposal proposal,
                               String lastAction) {
}
