package io.headroom.forecast;

/**
 * The latest forecasts per class, as the console's background work made them from the class's history (issue 29).
 * Read by the detail (the band and the words), the supervisor (predictive proposals) and what-if. A class with no
 * forecast made yet answers null; one whose forecast was refused answers a {@link Forecast#refused} one that says
 * why.
 */
public interface ClassForecasts {

    /** The class's latest forecast of arrivals in jobs/s, or null when none has been made yet. */
    Forecast arrivals(String className);

    /** The class's latest forecast of the mean service time in seconds, or null when none has been made yet. */
    Forecast service(String className);

    /**
     * The class's latest joint forecast of the work in service, in jobs in service: each past minute's arrivals times
     * its own mean service time, forecast as one series, so its quantiles are the product's ({@link SlotsBand}); null
     * when none has been made (the slots are then approximated from the two forecasts apart).
     */
    default Forecast work(String className) {
        return null;
    }

    /** No forecasts at all (forecasts off, or before the first is made). */
    ClassForecasts NONE = new ClassForecasts() {
        @Override
        public Forecast arrivals(String className) {
            return null;
        }

        @Override
        public Forecast service(String className) {
            return null;
        }
    };
}
