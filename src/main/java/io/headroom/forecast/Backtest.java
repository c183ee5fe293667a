package io.headroom.forecast;

/** How far a forecast missed what happened: the mean absolute percentage error on slots with enough load. */
public final class Backtest {

    private Backtest() {
    }

    /**
     * Mean of {@code |actual − forecast| / actual} over the slots where both are known and the actual is at least
     * {@code floor} (a light slot's percentage says nothing: 0.1 against 0.2 jobs/s is a 100 % miss of nobody).
     *
     * @return the error as a fraction, NaN when no slot qualifies
     */
    public static double mape(double[] actual, double[] forecast, double floor) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < actual.length; i++) {
            double a = actual[i];
            double f = forecast[i];
            if (Double.isNaN(a) || Double.isNaN(f) || a < floor || a <= 0) {
                continue;
            }
            sum += Math.abs(a - f) / a;
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** Slots {@link #mape} would judge. */
    public static int judged(double[] actual, double[] forecast, double floor) {
        int n = 0;
        for (int i = 0; i < actual.length; i++) {
            if (!Double.isNaN(actual[i]) && !Double.isNaN(forecast[i]) && actual[i] >= floor && actual[i] > 0) {
                n++;
            }
        }
        return n;
    }
}
