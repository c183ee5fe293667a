package io.headroom.prometheus;

import io.headroom.decision.Signal;
import java.time.Instant;
import java.util.Objects;

/** The answer to one instant query: one finite number with its sample time, or typed no data. */
public sealed interface QueryOutcome {

    /** The signal the decision core reads: the value, or missing with {@code "REASON: detail"}. */
    Signal toSignal();

    /**
     * One finite value.
     *
     * @param sampledAt the sample's timestamp as Prometheus reports it (the evaluation time of an instant query)
     * @param stats     query statistics when they were asked for, else null
     */
    record Value(double value, Instant sampledAt, QueryStats stats) implements QueryOutcome {
        public Value {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("a value must be finite; NaN/Inf is NoData(NAN_OR_INF)");
            }
            Objects.requireNonNull(sampledAt, "sampledAt");
        }

        @Override
        public Signal toSignal() {
            return Signal.of(value, sampledAt);
        }
    }

    /** No usable number, and why. */
    record NoData(NoDataReason reason, String message) implements QueryOutcome, VectorOutcome, GroupedOutcome {
        public NoData {
            Objects.requireNonNull(reason, "reason");
            message = message == null ? "" : message;
        }

        @Override
        public Signal toSignal() {
            return Signal.missing(message.isEmpty() ? reason.name() : reason.name() + ": " + message);
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
