package io.headroom.ui.chart;

import java.util.Objects;

/**
 * A forecast drawn on a {@link TimeChart} (issue 29): per slot of {@code slotSeconds} from {@code times[i]}, the
 * median as a dashed step line and p50–p80 and p80–p95 as two shades of one colour, under the chart's series so the
 * live lines stay on top; plus a "now" mark where the forecast begins. Values in the chart's left-axis unit.
 *
 * @param name        the legend's words, e.g. "forecast arrivals: p50, p80–p95"
 * @param slotSeconds width of a slot
 * @param times       start of each slot, epoch seconds, increasing
 * @param p50         median per slot
 * @param p80         80th percentile per slot
 * @param p95         95th percentile per slot
 * @param madeAt      when the forecast was made (the "now" mark), epoch seconds
 */
public record ForecastBand(String name, double slotSeconds, double[] times, double[] p50, double[] p80, double[] p95,
        double madeAt) {

    public ForecastBand {
        Objects.requireNonNull(name, "name");
        if (times.length != p50.length || times.length != p80.length || times.length != p95.length) {
            throw new IllegalArgumentException("one value of each quantile per slot");
        }
        if (!(slotSeconds > 0)) {
            throw new IllegalArgumentException("a slot has a width: " + slotSeconds);
        }
    }

    /** Slots in the band. */
    public int size() {
        return times.length;
    }

    /** The highest p95 (or p50 where p95 is unknown) of the slots that overlap {@code [from, to]}; NaN for none. */
    public double maxIn(double from, double to) {
        double max = Double.NaN;
        for (int i = 0; i < times.length; i++) {
            if (times[i] + slotSeconds >= from && times[i] <= to) {
                double v = Double.isNaN(p95[i]) ? p50[i] : p95[i];
                if (!Double.isNaN(v) && !(v <= max)) {
                    max = v;
                }
            }
        }
        return max;
    }

    /** The lowest p50 of the slots that overlap {@code [from, to]}; NaN for none. */
    public double minIn(double from, double to) {
        double min = Double.NaN;
        for (int i = 0; i < times.length; i++) {
            if (times[i] + slotSeconds >= from && times[i] <= to && !Double.isNaN(p50[i]) && !(p50[i] >= min)) {
                min = p50[i];
            }
        }
        return min;
    }
}
