package io.headroom.prometheus;

import io.headroom.decision.Annotations;
import io.headroom.decision.Signal;
import java.time.Instant;
import java.util.Objects;

/** The answer to one instant query: one finite number with its sample time, or typed no data. */
public sealed interface QueryOutcome {

    /** The signal the decision core reads: the value, or missing with {@code "REASON: detail"}; with the answer's annotations. */
    Signal toSignal();

    /**
     * One finite value.
     *
     * @param sampledAt   the sample's timestamp as Prometheus reports it (the evaluation time of an instant query)
     * @param stats       query statistics when they were asked for, else null
     * @param annotations the answer's warnings and infos; with a warning the value is partial
     */
    record Value(double value, Instant sampledAt, QueryStats stats, Annotations annotations) implements QueryOutcome {
        public Value {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a value must be finite; NaN/Inf is NoData(NAN_OR_INF)");
            }
            Objects.requireNonNull(sampledAt, "sampledAt");
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public Value(double value, Instant sampledAt, QueryStats stats) {
            this(value, sampledAt, stats, Annotations.NONE);
        }

        /** True when Prometheus (or the store behind it) warned: the answer may be missing data. */
        public boolean partial() {
            return annotations.partial();
        }

        /** The same value sampled at another time (its series' newest sample), with more annotations. */
        Value at(Instant when, Annotations more) {
            return new Value(value, when, stats, annotations.plus(more));
        }

        @Override
        public Signal toSignal() {
            return Signal.of(value, sampledAt).annotated(annotations);
        }
    }

    /** No usable number, and why; with what the answer said besides, when there was one. */
    record NoData(NoDataReason reason, String message, Annotations annotations)
            implements QueryOutcome, VectorOutcome, GroupedOutcome {
        public NoData {
            Objects.requireNonNull(reason, "reason");
            message = message == null ? "" : message;
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public NoData(NoDataReason reason, String message) {
            this(reason, message, Annotations.NONE);
        }

        @Override
        public Signal toSignal() {
            return Signal.missing(message.isEmpty() ? reason.name() : reason.name() + ": " + message)
                    .annotated(annotations);
        }
    }

    /**
     * Prometheus's own statistics for a query ({@code stats=all}).
     *
     * @param execTotalSeconds      time Prometheus spent executing it, NaN when not reported
     * @param totalQueryableSamples samples the query touched, -1 when not reported
     * @param peakSamples           the most samples held at once, -1 when not reported
     */
    record QueryStats(double execTotalSeconds, long totalQueryableSamples, long peakSamples) {
    }
}
