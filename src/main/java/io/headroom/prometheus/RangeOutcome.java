package io.headroom.prometheus;

import java.util.Objects;

/** The answer to a range query: one series as primitive arrays, or typed no data. */
public sealed interface RangeOutcome {

    /**
     * The points of one series as Prometheus returned them (it omits steps without data).
     *
     * @param times  epoch seconds, increasing
     * @param values the values; NaN where Prometheus said NaN or ±Inf
     */
    record Series(double[] times, double[] values) implements RangeOutcome {
        public Series {
            Objects.requireNonNull(times, "times");
            Objects.requireNonNull(values, "values");
            if (times.length != values.length) {
                throw new IllegalArgumentException("times and values differ in length");
            }
        }

        public int size() {
            return times.length;
        }
    }

    /** No series, or no answer, and why. */
    record NoData(NoDataReason reason, String message) implements RangeOutcome {
        public NoData {
            Objects.requireNonNull(reason, "reason");
            message = message == null ? "" : message;
        }
    }
}
