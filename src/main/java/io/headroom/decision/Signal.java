package io.headroom.decision;

import java.time.Instant;
import java.util.Objects;

/**
 * One sampled input: a finite value with the time it was sampled, or "no data" with the reason.
 * A non-finite value is never a number here: {@link #of} turns NaN/Inf into no data. What the source
 * said about the answer rides along ({@link Annotations}): a value from an answer the source warned
 * about is {@link #partial()}, which the decision may scale up on but never down.
 */
public record Signal(double value, Instant sampledAt, String missingReason, Annotations annotations) {

    public Signal {
        annotations = annotations == null ? Annotations.NONE : annotations;
        if (missingReason == null) {
            Objects.requireNonNull(sampledAt, "sampledAt");
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a present signal needs a finite value, got " + value);
            }
        }
    }

    /** A signal with nothing said about its answer. */
    public Signal(double value, Instant sampledAt, String missingReason) {
        this(value, sampledAt, missingReason, Annotations.NONE);
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

    /** A value from an answer the source warned may be incomplete. */
    public boolean partial() {
        return present() && annotations.partial();
    }

    /** The same reading with what the source said about its answer; {@link #NOT_COLLECTED} stays itself. */
    public Signal annotated(Annotations a) {
        if (notCollected() || a == null || a.equals(annotations)) {
            return this;
        }
        return new Signal(value, sampledAt, missingReason, a);
    }
}
