package io.headroom.decision;

import java.time.Instant;
import java.util.Objects;

/**
 * One sampled input: a finite value with the time it was sampled, or "no data" with the reason.
 * A non-finite value is never a number here: {@link #of} turns NaN/Inf into no data.
 */
public record Signal(double value, Instant sampledAt, String missingReason) {

    public Signal {
        if (missingReason == null) {
            Objects.requireNonNull(sampledAt, "sampledAt");
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a present signal needs a finite value, got " + value);
            }
        }
    }

    /** A signal the class does not collect at all: missing, and known to be so on purpose. */
    public static final Signal NOT_COLLECTED = new Signal(Double.NaN, null, "not collected");

    /** True for {@link #NOT_COLLECTED}: the class has no query for this signal. */
    public boolean notCollected() {
        return this == NOT_COLLECTED;
    }

    /** A sample; NaN or infinite values become no data, never 0. */
    public static Signal of(double value, Instant sampledAt) {
        if (Double.isNaN(value)) {
            return missing("value is NaN");
        }
        if (Double.isInfinite(value)) {
            return missing("value is " + (value > 0 ? "+Inf" : "-Inf"));
        }
        return new Signal(value, sampledAt, null);
    }

    /** No data, with the reason (e.g. "empty result", "HTTP 503", "outage"). */
    public static Signal missing(String reason) {
        return new Signal(Double.NaN, null, Objects.requireNonNull(reason, "reason"));
    }

    public boolean present() {
        return missingReason == null;
    }
}
