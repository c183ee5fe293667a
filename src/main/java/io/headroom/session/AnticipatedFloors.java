package io.headroom.session;

import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.forecast.Anticipation;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.FloorPlanner;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The supervisor's predictive proposals from the console's forecasts (issue 29): a class's latest forecasts
 * ({@link ClassForecasts}) planned by {@link Anticipation} against what it runs now. The mean service time is the
 * one measured this tick (the policy's prior without one); start-up is the measured one (the policy's without).
 */
public final class AnticipatedFloors implements FloorPlanner {
    private static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    private final ClassForecasts forecasts;
    private final Anticipation.Settings settings;

    public AnticipatedFloors(ClassForecasts forecasts, Anticipation.Settings settings) {
        this.forecasts = java.util.Objects.requireNonNull(forecasts, "forecasts");
        this.settings = java.util.Objects.requireNonNull(settings, "settings");
    }

    public AnticipatedFloors(ClassForecasts forecasts) {
        this(forecasts, Anticipation.Settings.DEFAULTS);
    }

    @Override
    public Planned plan(WorkloadClass cls, Observation obs, Instant now) {
        Forecast arrivals = forecasts.arrivals(cls.name());
        if (arrivals == null || !arrivals.available()) {
            return null;
        }
        Policy p = cls.policy();
        Signal s = obs.signals().get(Signals.MEAN_SERVICE);
        double service = s != null && s.present() && s.value() > 0 ? s.value()
                : p.expectedServiceSeconds() != null ? p.expectedServiceSeconds() : Double.NaN;
        double startup = Double.isNaN(obs.startupSeconds()) ? p.startupSeconds() : obs.startupSeconds();
        Anticipation.Plan plan = Anticipation.plan(arrivals, forecasts.service(cls.name()), service, p,
                obs.currentReplicas(), startup, now, settings);
        if (plan.floor() == null || plan.rise() == null) {
            return null;
        }
        Instant riseAt = Instant.ofEpochMilli(Math.round(plan.rise().at() * 1000));
        if (!riseAt.isAfter(now)) {
            return null; // the rise is under way: the reactive decision meets it; a proposal comes ahead or not at all
        }
        String words = "hold " + plan.floor().replicas() + " replicas from " + HHMM.format(plan.floor().from())
                + " for the forecast rise at " + HHMM.format(riseAt) + ", until " + HHMM.format(plan.floor().until())
                + ": " + arrivals.reason() + "; " + settings.quantileWord() + " "
                + number(plan.rise().p80()) + " " + arrivals.unit() + (Double.isNaN(arrivals.error()) ? ""
                : "; backtest error " + Math.round(arrivals.error() * 100) + " %");
        return new Planned(plan.floor(), riseAt, words);
    }

    private static String number(double v) {
        return Math.abs(v) >= 10 ? String.valueOf(Math.round(v))
                : String.format(java.util.Locale.ROOT, "%.1f", v).replaceAll("\\.0$", "");
    }
}
