package io.headroom.decision;

/** One reason a decision came out as it did, e.g. {@code CEILING:db-connections}. */
public record Reason(Code code, String detail) {

    /** Reason codes, in the spirit of the HPA's ScaleUpLimit / TooManyReplicas conditions. */
    public enum Code {
        /** Oldest age is above the objective; the age term asks for more replicas. */
        AGE_BREACH,
        /** The oldest age grows while nothing completes: poison message or dead dependency. */
        STALLED,
        /**
         * No in-flight series, and nothing has completed for max(3 × S, stuckAfterSeconds) while work waits and the
         * oldest age grows: a suspected stall. The age term asks at most one step; the backlog counts only the share
         * that completes.
         */
        STALL_SUSPECTED,
        /** Ready pods hold work and finish none: capacity is lower than the replica count (detail: the pods). */
        STUCK_PODS,
        /** A named ceiling capped the desired replicas (detail: the ceiling's name). */
        CEILING,
        /** A ceiling is below minReplicas; the ceiling wins to protect the downstream. */
        CEILING_BELOW_MIN,
        /** A dynamic ceiling's telemetry is missing; its conservative value is used. */
        CEILING_FALLBACK,
        /** The dependency signal breaches its threshold: no scale-up. */
        DEPENDENCY_SATURATED,
        /** The dependency signal is missing or stale: no scale-up until it is known. */
        DEPENDENCY_UNKNOWN,
        /** A required input is missing or stale: replicas held (detail: the signals). */
        TELEMETRY_MISSING,
        /**
         * An input came from an answer the source warned may be incomplete (detail: the signal): the
         * decision may scale up on it, never down.
         */
        PARTIAL_DATA,
        /**
         * Telemetry is missing, and the last complete decision wanted more replicas than it had: the decision
         * keeps stepping toward that target within the rate policy, never beyond it (detail: the target).
         */
        CONTINUING_SCALE_UP,
        /** Telemetry has been missing for failureThreshold ticks; the fallback floor applies. */
        FALLBACK,
        /** Clamped up to minReplicas. */
        MIN_REPLICAS,
        /** Raised to a scheduled floor: warm capacity bought for a time window (detail: the window). */
        SCHEDULED_FLOOR,
        /**
         * Raised to a forecast floor: capacity held ahead of a forecast rise, approved by the operator or applied
         * in auto mode (detail: until when). Never lowers a decision.
         */
        FORECAST_FLOOR,
        /**
         * The scale-down window was shortened because a forecast floor (propose once approved, or auto) brings the
         * capacity back before the forecast rise (detail: the floor's replicas and start); the scale-down itself is
         * still the reactive decision on current data. Only with a floor at least as high as the window would hold.
         */
        FORECAST_WINDOW_SHORTENED,
        /** Clamped down to maxReplicas. */
        MAX_REPLICAS,
        /** The replicas running are above maxReplicas: straight to it, no window or rate policy holds them (as the HPA). */
        ABOVE_MAX,
        /** The replicas running are below minReplicas: straight to it, no window or rate policy holds them (as the HPA). */
        BELOW_MIN,
        /** The scale-down stabilisation window holds a higher recommendation. */
        STABILISING_DOWN,
        /** The scale-up stabilisation window holds a lower recommendation. */
        STABILISING_UP,
        /** A scale-up rate policy capped the step. */
        RATE_LIMITED_UP,
        /** A scale-down rate policy capped the step. */
        RATE_LIMITED_DOWN,
        /** Scale-up is disabled by policy. */
        SCALE_UP_DISABLED,
        /** Scale-down is disabled by policy. */
        SCALE_DOWN_DISABLED,
        /** Idle, but the cooldown before scale-to-zero has not elapsed. */
        COOLDOWN,
        /** Idle for the whole cooldown: scale to zero. */
        SCALE_TO_ZERO,
        /** Work waits and nothing runs: scale from zero at once. */
        SCALE_FROM_ZERO
    }

    public static Reason of(Code code) {
        return new Reason(code, null);
    }

    public static Reason of(Code code, String detail) {
        return new Reason(code, detail);
    }

    /** A reason about one signal (missing, partial, …): the signal's name is its detail. */
    public static Reason of(Code code, SignalName signal) {
        return new Reason(code, signal.id());
    }

    /** {@code CODE} or {@code CODE:detail}, the form the CLI and journal print. */
    @Override
    public String toString() {
        return detail == null ? code.name() : code.name() + ":" + detail;
    }
}
