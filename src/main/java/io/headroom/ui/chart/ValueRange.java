package io.headroom.ui.chart;

import java.util.List;

/**
 * The value axis range a chart picks for its data: from zero (ages, queues and replicas are read
 * against zero), up to the data plus 8 % headroom, rounded out to nice ticks, and always wide
 * enough to hold every reference line, so an objective is on screen even when the data are far
 * below it or far above it (issue 11). Pure: testable without the toolkit.
 */
public final class ValueRange {

    private ValueRange() {
    }

    /**
     * @param dataMin    smallest value drawn, NaN or +∞ when there is none
     * @param dataMax    largest value drawn
     * @param references values that must be inside the range (reference lines), may be empty
     * @param maxTicks   most value ticks that fit
     * @return {min, max}, min &lt; max, every finite reference strictly inside
     */
    public static double[] of(double dataMin, double dataMax, List<Double> references, int maxTicks) {
        double lo = dataMin;
        double hi = dataMax;
        for (double r : references) {
            if (Double.isFinite(r)) {
                lo = Math.min(lo, r);
                hi = Math.max(hi, r);
            }
        }
        if (!(lo <= hi)) { // no data at all
            lo = 0;
            hi = 1;
        }
        if (lo >= 0) {
            lo = 0;
        } else if (hi <= 0) {
            hi = 0;
        }
        if (hi == lo) {
            hi = lo + 1;
        }
        double headroom = (hi - lo) * 0.08;
        if (hi > 0 || lo < 0 && hi != 0) {
            hi += headroom;
        }
        if (lo < 0) {
            lo -= headroom;
        }
        double step = TimeAxis.niceStep(hi - lo, maxTicks);
        return new double[] {Math.floor(lo / step) * step, Math.ceil(hi / step) * step};
    }
}
