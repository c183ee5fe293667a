package io.headroom.prometheus;

import io.headroom.decision.SignalName;
import java.time.Duration;
import java.util.Objects;

/**
 * A signal's history on a regular grid, ready for a chart's primitive buffers: one point per step
 * from the (step-aligned) start to the end, NaN wherever Prometheus had no data.
 *
 * @param times  epoch seconds, one per step, increasing
 * @param values NaN for gaps (never 0)
 * @param noData why there is no history at all (then both arrays are empty), null when there is
 */
public record History(String className, SignalName signal, Duration step, double[] times, double[] values,
                      QueryOutcome.NoData noData) {

    public History {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(times, "times");
        Objects.requireNonNull(values, "values");
        if (times.length != values.length) {
            throw new IllegalArgumentException("times and values differ in length");
        }
    }

    public boolean present() {
        return noData == null;
    }

    public int size() {
        return times.length;
    }
}
