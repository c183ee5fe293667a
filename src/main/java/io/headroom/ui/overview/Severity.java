package io.headroom.ui.overview;

import java.util.List;

/**
 * How much a class needs the operator now, worst first: the overview's default order. The order
 * of the constants is the order of the rows; ties keep the order classes were first seen in (the
 * workloads file's), never a live number, so rows move only when a class changes tier, not every
 * tick as its age creeps.
 *
 * <p>Frozen, pinned, draining and closed admission are standing choices someone made: they rank
 * below trouble the system found and a proposal waiting for an answer, above a quiet class.
 */
public enum Severity {
    /** The oldest waiting job is older than the class's age objective. */
    AGE_OBJECTIVE("violating its age objective"),
    /** Oldest age grows and nothing completes. */
    STALLED("stalled"),
    /** Ready pods hold work and finish nothing: less capacity than the replica count says. */
    STUCK("stuck pods"),
    /** A required input has no (or only stale) data, or the class could not be decided. */
    NO_DATA("no data"),
    /** A ceiling or a saturated dependency holds capacity back. */
    HELD("held by a ceiling or dependency"),
    /** A proposal waits for the operator's answer. */
    PROPOSAL("a proposal waits"),
    /** Frozen, pinned, draining or admission closed. */
    STANDING("frozen, pinned, draining or admission closed"),
    /** Nothing to look at. */
    OK("ok");

    private final String words;

    Severity(String words) {
        this.words = words;
    }

    /** The tier in words, for the alerts tooltip. */
    public String words() {
        return words;
    }

    /** The worst tier a row's alerts, proposal and standing states put it in. */
    public static Severity of(List<ClassRow.Alert> alerts, boolean proposalWaiting, List<ClassRow.StateChip> states) {
        Severity worst = OK;
        for (ClassRow.Alert a : alerts) {
            Severity s = switch (a) {
                case AGE_BREACH -> AGE_OBJECTIVE;
                case STALLED -> STALLED;
                case STUCK -> STUCK;
                case TELEMETRY_MISSING, TELEMETRY_STALE, PROBLEM -> NO_DATA;
                case CEILING, DEPENDENCY_SATURATED, PARTIAL_DATA -> HELD;
            };
            if (s.compareTo(worst) < 0) {
                worst = s;
            }
        }
        if (proposalWaiting && PROPOSAL.compareTo(worst) < 0) {
            worst = PROPOSAL;
        }
        boolean standing = states.stream().anyMatch(c -> c.state() != ClassRow.State.AUTO);
        if (standing && STANDING.compareTo(worst) < 0) {
            worst = STANDING;
        }
        return worst;
    }
}
