package io.headroom.forecast;

import io.headroom.history.ClassHistory;
import java.util.Arrays;

/**
 * One series on a regular grid: {@code values[i]} is the mean at {@code [start + i·step, start + (i+1)·step)},
 * NaN where nothing was known (never 0).
 */
public record LoadGrid(double start, double step, double[] values) {

    public LoadGrid {
        if (!(step > 0) || Double.isNaN(start)) {
            throw new IllegalArgumentException("a grid needs a start and a positive step");
        }
    }

    public int size() {
        return values.length;
    }

    /** Start of the {@code i}-th cell. */
    public double time(int i) {
        return start + i * step;
    }

    /**
     * One series of a class's history over {@code [from, to)}, averaged into cells of {@code step} seconds aligned on
     * multiples of {@code step}, read without copying the other series.
     */
    public static LoadGrid of(ClassHistory history, ClassHistory.Series series, double from, double to, double step) {
        double first = Math.floor(from / step) * step;
        int n = (int) Math.max(0, Math.ceil((to - first) / step));
        double[] sum = new double[n];
        int[] count = new int[n];
        history.scan(series, first, to, (t, v) -> {
            int i = (int) ((t - first) / step);
            if (i >= 0 && i < n && !Double.isNaN(v)) {
                sum[i] += v;
                count[i]++;
            }
        });
        double[] mean = new double[n];
        for (int i = 0; i < n; i++) {
            mean[i] = count[i] == 0 ? Double.NaN : sum[i] / count[i];
        }
        return new LoadGrid(first, step, mean);
    }

    /**
     * The product of two series cell by cell (arrivals × service time: the jobs in service, each minute's own pair),
     * on {@code a}'s cells; NaN where either is unknown, except 0 where {@code a} is known to be 0 (no arrivals is no
     * work, whatever the service time it did not measure). The grids must share their step.
     */
    public static LoadGrid product(LoadGrid a, LoadGrid b) {
        if (a.step != b.step) {
            throw new IllegalArgumentException("grids of " + a.step + " s and " + b.step + " s cannot be multiplied");
        }
        double[] v = new double[a.size()];
        for (int i = 0; i < v.length; i++) {
            double x = a.values[i];
            long j = Math.round((a.time(i) - b.start) / b.step);
            double y = j >= 0 && j < b.size() ? b.values[(int) j] : Double.NaN;
            v[i] = product(x, y);
        }
        return new LoadGrid(a.start, a.step, v);
    }

    /** One cell's work as {@link #product(LoadGrid, LoadGrid)} takes it: arrivals × service time, 0 without arrivals. */
    public static double product(double arrivals, double serviceSeconds) {
        return arrivals == 0 ? 0 : arrivals * serviceSeconds;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LoadGrid g && g.start == start && g.step == step && Arrays.equals(g.values, values);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(start) * 31 + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "LoadGrid[start=" + start + ", step=" + step + ", " + values.length + " values]";
    }
}
