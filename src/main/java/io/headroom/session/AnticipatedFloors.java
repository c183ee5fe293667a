package io.headroom.session;

import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.forecast.Anticipation;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastWords;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.FloorPlanner;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The supervisor's predictive proposals from the console's forecasts (issue 29): a class's latest forecasts
 * ({@link ClassForecasts}) planned by {@link Anticipation} against what it runs now. The mean service time is the
 * one measured this tick (the policy's prior without one); start-up is the measured one (the policy's without).
 */
public final class AnticipatedFloors implements FloorPlanner {
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
        Anticipation.Plan plan = Anticipation.plan(arrivals, forecasts.service(cls.name()), forecasts.work(cls.name()),
                service, p,
                obs.currentReplicas(), startup, now, settings);
        if (plan.floor() == null || plan.rise() == null) {
            return null;
        }
        Instant riseAt = Instant.ofEpochMilli(Math.round(plan.rise().at() * 1000));
        if (!riseAt.isAfter(now)) {
            return null; // the rise is under way: the reactive decision meets it; a proposal comes ahead or not at all
        }
        // Times in the forecast's own zone, as its words give them (not this machine's).
        ZoneId zone = arrivals.zone();
        String words = "hold " + plan.floor().replicas() + " replicas from " + clock(plan.floor().from(), zone)
                + " for the forecast rise at " + clock(riseAt, zone) + ", until " + clock(plan.floor().until(), zone)
                + ": " + arrivals.reason() + "; " + settings.quantileWord() + " "
                + ForecastWords.number(plan.rise().p80()) + " " + arrivals.unit() + (Double.isNaN(arrivals.error()) ? ""
                : "; backtest error " + Math.round(arrivals.error() * 100) + " %");
        return new Planned(plan.floor(), riseAt, words);
    }

    private static String clock(Instant t, ZoneId zone) {
        return ForecastWords.clock(t.getEpochSecond(), zone);
    }
}
