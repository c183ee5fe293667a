package io.headroom.prometheus;

import io.headroom.decision.Annotations;
import java.util.Objects;

/** The answer to a range query: one series as primitive arrays, or typed no data. */
public sealed interface RangeOutcome {

    /**
     * The points of one series as Prometheus returned them (it omits steps without data).
     *
     * @param times  epoch seconds, increasing
     * @param values      the values; NaN where Prometheus said NaN or ±Inf
     * @param annotations the answer's warnings and infos; with a warning the series may have gaps it does not show
     */
    record Series(double[] times, double[] values, Annotations annotations) implements RangeOutcome {
        public Series {
            Objects.requireNonNull(times, "times");
            Objects.requireNonNull(values, "values");
            if (times.length != values.length) {
                throw new IllegalArgumentException("times and values differ in length");
            }
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public Series(double[] times, double[] values) {
            this(times, values, Annotations.NONE);
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
