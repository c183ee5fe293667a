package io.headroom.metrics;

import io.headroom.decision.SignalName;

/**
 * A signal's past for chart backfill: times in epoch seconds and values (NaN for gaps), or why
 * there is none. Arrays are not copied; the receiver treats them as read-only.
 */
public record SignalHistory(String className, SignalName signal, double[] times, double[] values, String noData) {

    public static SignalHistory none(String className, SignalName signal, String why) {
        return new SignalHistory(className, signal, new double[0], new double[0], why);
    }

    public int size() {
        return times.length;
    }
}
