package io.headroom.forecast;

/**
 * The forecast's slots per arrivals slot (Little's law: arrivals × service time / target utilization), at p50, p80
 * and p95: what the capacity chart draws and what {@link Anticipation} holds. Pure.
 *
 * <p>Where the joint forecast of the work ({@link ClassForecasts#work}: each past day's arrivals × its own service
 * time, per 5-minute slot, levelled) reaches a slot, its quantiles are the slots' quantiles: p80 slots is the p80 of
 * the product, so a day of many short jobs and a day of few long ones count as the same work, and days where both are
 * high count as the high day they were. Elsewhere (no work forecast, or refused) the arrivals' quantile times the
 * service forecast's median (or the mean service time given): the approximation the joint replaces.
 *
 * @param start       epoch seconds of the first slot (the arrivals forecast's)
 * @param slotSeconds width of a slot
 * @param joint       per slot: true where the quantiles are the product's own, false where approximated
 */
public record SlotsBand(double start, double slotSeconds, double[] p50, double[] p80, double[] p95, boolean[] joint) {

    /**
     * The band over the arrivals forecast's slots.
     *
     * @param arrivals           an available arrivals forecast
     * @param service            the service-time forecast, or null
     * @param work               the joint forecast of arrivals × service time (jobs in service), or null
     * @param meanServiceSeconds S where neither the work nor the service forecast reaches a slot (NaN: none)
     * @param utilization        the policy's target utilization
     */
    public static SlotsBand of(Forecast arrivals, Forecast service, Forecast work, double meanServiceSeconds,
            double utilization) {
        int n = arrivals.slots();
        double[] p50 = new double[n];
        double[] p80 = new double[n];
        double[] p95 = new double[n];
        boolean[] joint = new boolean[n];
        boolean useWork = work != null && work.available();
        boolean useService = service != null && service.available();
        for (int i = 0; i < n; i++) {
            double t = arrivals.time(i);
            int w = useWork ? work.slotAt(t) : -1;
            if (w >= 0 && !Double.isNaN(work.p50()[w])) {
                p50[i] = work.p50()[w] / utilization;
                p80[i] = work.p80()[w] / utilization;
                p95[i] = work.p95()[w] / utilization;
                joint[i] = true;
                continue;
            }
            int j = useService ? service.slotAt(t) : -1;
            double s = j >= 0 && service.p50()[j] > 0 ? service.p50()[j] : meanServiceSeconds;
            p50[i] = arrivals.p50()[i] * s / utilization;
            p80[i] = arrivals.p80()[i] * s / utilization;
            p95[i] = arrivals.p95()[i] * s / utilization;
        }
        return new SlotsBand(arrivals.start(), arrivals.slotSeconds(), p50, p80, p95, joint);
    }

    public int slots() {
        return p50.length;
    }

    /** The slots at quantile 0.5, 0.8 or 0.95 of slot {@code i}. */
    public double at(double quantile, int i) {
        return quantile == 0.5 ? p50[i] : quantile == 0.95 ? p95[i] : p80[i];
    }

    /** Whether any slot's quantiles are the joint's own. */
    public boolean anyJoint() {
        for (boolean j : joint) {
            if (j) {
                return true;
            }
        }
        return false;
    }
}
