package io.headroom.forecast;

import io.headroom.decision.Policy;
import java.time.Instant;

/**
 * A class's forecasts made at one moment from its history (issue 29): arrivals, the mean service time and their
 * joint, the work (each cell's arrivals × its own service time, forecast as one series: jobs in service), whose
 * quantile {@link Anticipation#plan} holds. The console's {@code ForecastRunner}, the simulator's anticipation and
 * the what-if's predictive run all make them here, so the simulator and the what-if plan what the console would.
 *
 * @param arrivals the arrivals forecast (jobs/s)
 * @param service  the mean service time's (s); null when not made (see {@link #forPlan})
 * @param work     the joint forecast of the work (jobs in service); null when not made
 */
public record LoadForecasts(Forecast arrivals, Forecast service, Forecast work) {

    /** The unit of the arrivals forecast. */
    public static final String ARRIVALS_UNIT = "jobs/s";
    /** The unit of the service time's forecast. */
    public static final String SERVICE_UNIT = "s";
    /** The unit of the joint forecast of arrivals × service time. */
    public static final String WORK_UNIT = "jobs in service";

    public LoadForecasts {
        java.util.Objects.requireNonNull(arrivals, "arrivals");
    }

    /**
     * All three at {@code now}, each made whether or not another is refused (the console shows each): the work's grid
     * is the product of the two, cell by cell ({@link LoadGrid#product}).
     */
    public static LoadForecasts of(Forecaster forecaster, LoadGrid arrivals, LoadGrid service, double now) {
        return new LoadForecasts(forecaster.forecast(arrivals, now, ARRIVALS_UNIT),
                forecaster.forecast(service, now, SERVICE_UNIT),
                forecaster.forecast(LoadGrid.product(arrivals, service), now, WORK_UNIT));
    }

    /**
     * For a plan only: the arrivals forecast at {@code now}, and the service time's and the work's only when there is
     * one of arrivals (null otherwise: without arrivals there is no floor to plan, and the two would cost as much
     * again as the arrivals').
     *
     * @param work the work's grid: {@code LoadGrid.product(arrivals, service)}, or the product taken on finer cells
     *             than these and averaged to them (as the console's minutes are, in its forecaster's slots)
     */
    public static LoadForecasts forPlan(Forecaster forecaster, LoadGrid arrivals, LoadGrid service, LoadGrid work,
            double now) {
        Forecast a = forecaster.forecast(arrivals, now, ARRIVALS_UNIT);
        if (!a.available()) {
            return new LoadForecasts(a, null, null);
        }
        return new LoadForecasts(a, forecaster.forecast(service, now, SERVICE_UNIT),
                forecaster.forecast(work, now, WORK_UNIT));
    }

    /** All three refused, for the same reason. */
    public static LoadForecasts refused(ForecastSettings settings, String why) {
        return new LoadForecasts(Forecast.refused(ARRIVALS_UNIT, settings.slotSeconds(), why, settings.zone()),
                Forecast.refused(SERVICE_UNIT, settings.slotSeconds(), why, settings.zone()),
                Forecast.refused(WORK_UNIT, settings.slotSeconds(), why, settings.zone()));
    }

    /** {@link Anticipation#plan} from these: the slots the quantile of the work where it is forecast. */
    public Anticipation.Plan plan(double meanServiceSeconds, Policy policy, int currentReplicas, double startupSeconds,
            Instant now, Anticipation.Settings settings) {
        return Anticipation.plan(arrivals, service, work, meanServiceSeconds, policy, currentReplicas, startupSeconds,
                now, settings);
    }
}
