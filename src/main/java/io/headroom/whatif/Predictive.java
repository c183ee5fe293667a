package io.headroom.whatif;

import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.ForecastFloor;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.decision.ForecastMode;
import io.headroom.forecast.Anticipation;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.Forecaster;
import io.headroom.forecast.LoadForecasts;
import io.headroom.forecast.LoadGrid;
import java.time.Instant;
import java.util.Arrays;

/**
 * The "with predictive" run of a what-if (issue 29): the live policy deciding as it does, with the floors auto mode
 * would have held ahead of each forecast rise. At every tick the run plans as the console does in auto mode, from
 * the latest forecasts of arrivals, service time and their joint, the work ({@link LoadForecasts}: each point's
 * arrivals × its own service time, averaged to the slot, as the console's minutes are); those forecasts are made again
 * every {@code refreshSeconds} (on a slot boundary) from the history <em>before</em> that moment only: a forecast
 * made at {@code r} is handed a grid whose last cell ends at or before {@code r}, so nothing the replay has not yet
 * reached can leak into it.
 *
 * <p>The history may reach further back than the replayed window (the days before it are what the first forecasts
 * learn from); the run itself replays only the window.
 *
 * @param history        the class's load up to the window's end, reaching as far back as is kept
 * @param settings       the forecast's settings (the console's)
 * @param refreshSeconds how often the forecasts are made again, a multiple of the slot
 * @param anticipation   how the floor is planned from the forecasts (the console's)
 */
public record Predictive(LoadHistory history, ForecastSettings settings, double refreshSeconds,
                         Anticipation.Settings anticipation) {

    /** How far before the replayed window the forecasts may look: a week, the history the console keeps. */
    public static final double PAST_SECONDS = 7 * 86_400;
    /**
     * The forecasts are made again every 15 minutes of the replay (three slots): a forecast reaches 6 hours ahead, so
     * a rise is foreseen as early either way, and a week's 672 forecasts cost a third of 2,016.
     */
    public static final double REFRESH_SECONDS = 900;

    public Predictive {
        java.util.Objects.requireNonNull(history, "history");
        java.util.Objects.requireNonNull(settings, "settings");
        java.util.Objects.requireNonNull(anticipation, "anticipation");
        if (!(refreshSeconds >= settings.slotSeconds()) || refreshSeconds % settings.slotSeconds() != 0) {
            throw new IllegalArgumentException("forecasts are made again on slot boundaries: " + refreshSeconds
                    + " s is not a multiple of the " + settings.slotSeconds() + " s slot");
        }
    }

    /** The console's forecast and anticipation settings, days told in UTC. */
    public static Predictive of(LoadHistory history) {
        return of(history, java.time.ZoneOffset.UTC);
    }

    /** The console's forecast and anticipation settings, days and weekdays told in {@code zone}. */
    public static Predictive of(LoadHistory history, java.time.ZoneId zone) {
        return new Predictive(history, ForecastSettings.DEFAULTS.withZone(zone), REFRESH_SECONDS,
                Anticipation.Settings.DEFAULTS);
    }

    /** What the predictive run did, for the words under the table. */
    public record Summary(int forecastsMade, int forecastsGiven, int floorsPlanned, double heldSeconds,
                          double firstFloorAt, String lastRefusal) {

        /** "floors held 3 h 10 min over 5 rises, from forecasts made every 5 min from the history before each step". */
        public String words() {
            if (forecastsGiven == 0) {
                return "no forecast in the window" + (lastRefusal == null || lastRefusal.isEmpty() ? ""
                        : " (" + lastRefusal + ")") + ": the predictive run is the live one";
            }
            if (floorsPlanned == 0) {
                return forecastsGiven + " of " + forecastsMade + " forecasts given, none foresaw a rise above the"
                        + " need: no floor held";
            }
            return "forecast floors held " + duration(heldSeconds) + " in all (" + floorsPlanned + " planned), from "
                    + forecastsGiven + " of " + forecastsMade + " forecasts, each made only from the history before"
                    + " its step";
        }

        private static String duration(double s) {
            long m = Math.round(s / 60);
            return m >= 120 ? m / 60 + " h " + m % 60 + " min" : m + " min";
        }
    }

    /** A fresh run's decider: {@code inner} with the floors held; one per run (it keeps the run's forecasts). */
    FloorDecider decider(Decider inner) {
        return new FloorDecider(inner, this);
    }

    /** One series of the history on the forecast's grid: cells of a slot, aligned on multiples of it. */
    static LoadGrid grid(double[] times, double[] values, double step) {
        if (times.length == 0) {
            return new LoadGrid(0, step, new double[0]);
        }
        double first = Math.floor(times[0] / step) * step;
        int n = (int) Math.floor((times[times.length - 1] - first) / step) + 1;
        double[] sum = new double[n];
        int[] count = new int[n];
        for (int i = 0; i < times.length; i++) {
            int c = (int) ((times[i] - first) / step);
            double v = values[i];
            if (c >= 0 && c < n && Double.isFinite(v)) {
                sum[c] += v;
                count[c]++;
            }
        }
        for (int c = 0; c < n; c++) {
            sum[c] = count[c] == 0 ? Double.NaN : sum[c] / count[c];
        }
        return new LoadGrid(first, step, sum);
    }

    /** The cells of {@code g} that end at or before {@code r}: all that was known at {@code r}. */
    static LoadGrid before(LoadGrid g, double r) {
        return new LoadGrid(g.start(), g.step(), Arrays.copyOf(g.values(), cellsBefore(g, r)));
    }

    /** How many cells of {@code g} end at or before {@code r}. */
    static int cellsBefore(LoadGrid g, double r) {
        return (int) Math.max(0, Math.min(g.size(), Math.floor((r - g.start()) / g.step() + 1e-9)));
    }

    /**
     * The live decision with the floors auto mode holds: not thread-safe, one per run. The floor planned last is held
     * until it lapses or a newer plan replaces it (as an applied proposal is held by the console).
     */
    static final class FloorDecider implements Decider {
        private final Decider inner;
        private final Predictive spec;
        private final Forecaster forecaster;
        private final LoadGrid arrivalGrid;
        private final LoadGrid serviceHistory;
        private final LoadGrid workHistory;
        /** The last service time known before the last refresh: S while the replay has measured none (no peeking). */
        private double knownService = Double.NaN;

        private double madeAt = Double.NaN;
        private LoadForecasts forecasts;
        private ForecastFloor held;
        private double lastTick = Double.NaN;
        private Policy lastPolicy;
        /** The run's policy in auto mode (the floor shortens the scale-down window only for a class that acts). */
        private Policy auto;

        private int made;
        private int given;
        private int planned;
        private double heldSeconds;
        private double firstFloorAt = Double.NaN;
        private String lastRefusal;
        /** The newest history time any forecast of this run was made from (for the no-peeking check). */
        private double newestSeen = Double.NEGATIVE_INFINITY;

        FloorDecider(Decider inner, Predictive spec) {
            this.inner = inner;
            this.spec = spec;
            this.forecaster = new Forecaster(spec.settings());
            LoadHistory h = spec.history();
            this.arrivalGrid = grid(h.times(), h.arrivalRate(), spec.settings().slotSeconds());
            this.serviceHistory = grid(h.times(), h.meanServiceSeconds(), spec.settings().slotSeconds());
            // The work as the console forecasts it: each point's arrivals × its own service time, then the slot's mean
            // (the product of the slot's means would miss how the two vary together within it).
            double[] work = new double[h.times().length];
            for (int i = 0; i < work.length; i++) {
                work[i] = LoadGrid.product(h.arrivalRate()[i], h.meanServiceSeconds()[i]);
            }
            this.workHistory = grid(h.times(), work, spec.settings().slotSeconds());
        }

        @Override
        public Decision decide(String className, Policy policy, Observation obs, ClassMemory memory, Instant now) {
            double t = now.getEpochSecond() + now.getNano() / 1e9;
            refresh(t);
            // As auto mode: the plan the console makes at this tick from its latest forecasts, held once made.
            if (policy != lastPolicy) {
                lastPolicy = policy;
                auto = policy.forecastMode() == ForecastMode.AUTO ? policy
                        : policy.toBuilder().forecastMode(ForecastMode.AUTO).build();
            }
            if (forecasts != null && forecasts.arrivals().available()) {
                double startup = Double.isFinite(obs.startupSeconds()) ? obs.startupSeconds() : policy.startupSeconds();
                ForecastFloor f = forecasts.plan(measuredService(obs), auto, obs.currentReplicas(), startup, now,
                        spec.anticipation()).floor();
                // As the console's ForecastFloors holds them: never a floor at or below what runs, and a floor held for
                // a rise is kept while a newer plan for the same rise asks no more. (Taking every plan of as many
                // replicas moved the floor's start later as its own ramp raised what runs: 4 → 8 → 16 → 32 → 4 …)
                boolean sameRise = held != null && held.overlaps(f);
                if (f != null && f.replicas() > obs.currentReplicas()
                        && (!sameRise || f.replicas() > held.replicas())) {
                    if (!sameRise) {
                        planned++; // a rise newly foreseen; a plan for one already held only raises it
                    }
                    held = f;
                    if (Double.isNaN(firstFloorAt)) {
                        firstFloorAt = f.from().getEpochSecond();
                    }
                }
            }
            if (held != null && held.lapsedAt(now)) {
                held = null;
            }
            if (held != null && held.activeAt(now) && !Double.isNaN(lastTick)) {
                heldSeconds += t - lastTick;
            }
            lastTick = t;
            return inner.decide(className, auto, held == null ? obs : obs.withForecastFloor(held), memory, now);
        }

        private double measuredService(Observation obs) {
            Signal s = obs.signal(Signals.MEAN_SERVICE);
            return s.present() && s.value() > 0 ? s.value() : knownService;
        }

        /** The forecasts as the console would have them at {@code t}: made at the last refresh, from before it. */
        private void refresh(double t) {
            double r = Math.floor(t / spec.refreshSeconds()) * spec.refreshSeconds();
            if (r == madeAt) {
                return;
            }
            madeAt = r;
            LoadGrid a = before(arrivalGrid, r);
            if (a.size() > 0) {
                newestSeen = Math.max(newestSeen, a.time(a.size() - 1) + a.step());
            }
            // The service time's and the work's forecasts from the same history, only when there is one of arrivals.
            forecasts = LoadForecasts.forPlan(forecaster, a, before(serviceHistory, r), before(workHistory, r), r);
            made++;
            int cells = cellsBefore(serviceHistory, r);
            for (int i = cells - 1; i >= 0; i--) {
                double v = serviceHistory.values()[i];
                if (v > 0) { // NaN where unknown
                    knownService = v;
                    break;
                }
            }
            if (forecasts.arrivals().available()) {
                given++;
            } else {
                lastRefusal = forecasts.arrivals().reason();
            }
        }

        Summary summary() {
            return new Summary(made, given, planned, heldSeconds, firstFloorAt, lastRefusal);
        }

        /** The end of the newest grid cell any forecast of this run was made from. */
        double newestSeen() {
            return newestSeen;
        }
    }
}
