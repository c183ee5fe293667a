package io.headroom.decision;

import java.util.Objects;

/**
 * The actuated admission of one class on one tick (design.md §2b), as data: OPEN, THROTTLE at {@code rate}
 * jobs/s, or CLOSED, with its reason in words. Never unknown: missing telemetry is answered by the class's
 * {@link AdmissionPolicy.OnMissing} choice.
 *
 * @param rate          jobs/s producers may submit: NaN when OPEN (no limit), 0 when CLOSED
 * @param degradeTo     the class new work goes to instead (CLOSED under {@code degrade:<class>}), else null
 * @param waitsFor      the replicas the class waits for (desired, when more than are ready), else 0
 * @param readyInSeconds the time until they are ready (the start-up), NaN when none is awaited
 */
public record AdmissionVerdict(State state, double rate, String reason, String degradeTo, int waitsFor,
                               double readyInSeconds) {

    /** OPEN: accept; THROTTLE: accept at most {@code rate} jobs/s; CLOSED: accept nothing. */
    public enum State { OPEN, THROTTLE, CLOSED }

    /** A throttle that differs from another by less than this share is the same (no churn on noise). */
    static final double SAME_RATE = 0.10;

    public AdmissionVerdict {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(reason, "reason");
        if (state == State.OPEN) {
            rate = Double.NaN;
        } else if (state == State.CLOSED) {
            rate = 0;
        } else if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("a throttle needs a positive rate, got " + rate);
        }
    }

    public static AdmissionVerdict open(String reason) {
        return new AdmissionVerdict(State.OPEN, Double.NaN, reason, null, 0, Double.NaN);
    }

    /**
     * True when this lets in less than {@code before} does: OPEN → THROTTLE → CLOSED, or a throttle
     * {@value #SAME_RATE} lower or more. A tightening is a proposal in supervised mode; a loosening applies.
     */
    public boolean tighterThan(AdmissionVerdict before) {
        if (before == null) {
            return state != State.OPEN;
        }
        if (state != before.state) {
            return state.ordinal() > before.state.ordinal();
        }
        return state == State.THROTTLE && rate < before.rate * (1 - SAME_RATE);
    }

    /** True when it says the same to producers as {@code other} (state, a rate within the noise, the same degrade). */
    public boolean sameAs(AdmissionVerdict other) {
        return other != null && state == other.state && Objects.equals(degradeTo, other.degradeTo)
                && (state != State.THROTTLE || Math.abs(rate - other.rate) <= other.rate * SAME_RATE);
    }

    /** "OPEN", "THROTTLE 2.5/s", "CLOSED" (→ degrade class): the chip's words. */
    public String label() {
        return switch (state) {
            case OPEN -> "OPEN";
            case THROTTLE -> "THROTTLE " + Figures.fmt(rate) + "/s";
            case CLOSED -> degradeTo != null ? "CLOSED → " + degradeTo : "CLOSED";
        };
    }
}
