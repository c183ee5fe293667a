package io.headroom.session;

import io.headroom.decision.ForecastMode;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.Forecaster;
import io.headroom.forecast.LoadForecasts;
import io.headroom.forecast.LoadGrid;
import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.loop.WorkloadClass;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The console's forecasts (issue 29): every class's arrivals and mean service time forecast from its week tier
 * ({@link History#weekOf}) with {@link Forecaster}, again once {@link #EVERY} of the session's time has passed
 * since its last one (and for every class after the week's backfill, {@link #refreshAll}). Classes whose policy
 * says {@code forecast: off} are skipped: they answer a refused forecast that says so. Runs on the executor it is
 * given (never the FX or the loop's thread); readers on any thread see the latest made.
 */
public final class ForecastRunner implements ClassForecasts {

    /** How often a class is forecast again, in the session's time: the profile's slots are 5 minutes. */
    public static final Duration EVERY = Duration.ofMinutes(5);

    /** A class's latest forecasts and when (session time, epoch seconds) they were made. */
    record Made(Forecast arrivals, Forecast service, Forecast work, double at) {
    }

    private final History history;
    private final Supplier<List<WorkloadClass>> classes;
    private final Clock clock;
    private final ForecastSettings settings;
    private final Duration every;
    private final Map<String, Made> made = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    // One forecaster per runner, used on one thread at a time (runs are serialised by this lock).
    private final Forecaster forecaster;
    private final Object running = new Object();

    public ForecastRunner(History history, Supplier<List<WorkloadClass>> classes, Clock clock,
                          ForecastSettings settings, Duration every) {
        this.history = history;
        this.classes = classes;
        this.clock = clock;
        this.settings = settings;
        this.every = every;
        this.forecaster = new Forecaster(settings);
    }

    @Override
    public Forecast arrivals(String className) {
        Made m = made.get(className);
        return m == null ? null : m.arrivals();
    }

    @Override
    public Forecast service(String className) {
        Made m = made.get(className);
        return m == null ? null : m.service();
    }

    @Override
    public Forecast work(String className) {
        Made m = made.get(className);
        return m == null ? null : m.work();
    }

    /** Bumped whenever any forecast was made, so a reader knows to look again. */
    public long version() {
        return version.get();
    }

    /** The settings the forecasts are made with. */
    public ForecastSettings settings() {
        return settings;
    }

    /**
     * Checks every {@code check} of wall time on {@code executor} and forecasts the classes that are due
     * ({@link #runDue}). Cancel the returned future (or shut the executor down) to stop.
     */
    public ScheduledFuture<?> schedule(ScheduledExecutorService executor, Duration check) {
        return executor.scheduleWithFixedDelay(this::runDue, 0, check.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Forecasts every class again on {@code executor} (after the week's backfill), whatever its last one. */
    public java.util.concurrent.CompletableFuture<Integer> refreshAll(Executor executor) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> run(true), executor);
    }

    /** Forecasts the classes with none yet or whose last is {@link #EVERY} old; returns how many. Blocking. */
    public int runDue() {
        return run(false);
    }

    private int run(boolean all) {
        synchronized (running) {
            double now = clock.millis() / 1000.0;
            int n = 0;
            for (WorkloadClass c : classes.get()) {
                Made last = made.get(c.name());
                if (!all && last != null && now - last.at() < every.toSeconds()) {
                    continue;
                }
                made.put(c.name(), forecast(c, now));
                n++;
                if (Thread.currentThread().isInterrupted()) {
                    break;
                }
            }
            if (n > 0) {
                version.incrementAndGet();
            }
            return n;
        }
    }

    private Made forecast(WorkloadClass c, double now) {
        if (c.policy().forecastMode() == ForecastMode.OFF) {
            return made(LoadForecasts.refused(settings,
                    "no forecast: forecasts are off for this class (forecast: off)"), now);
        }
        ClassHistory week = history.findWeek(c.name());
        if (week == null || week.size() == 0) {
            return made(LoadForecasts.refused(settings, "no history yet; a forecast needs "
                    + Math.round(settings.minHistorySeconds() / 3600) + " h"), now);
        }
        double from = now - History.WEEK.toSeconds();
        double step = History.WEEK_STEP.toSeconds();
        LoadGrid arrivalGrid = LoadGrid.of(week, ClassHistory.Series.ARRIVAL_RATE, from, now, step);
        LoadGrid serviceGrid = LoadGrid.of(week, ClassHistory.Series.MEAN_SERVICE, from, now, step);
        // With the joint: each minute's arrivals × its own service time, forecast as one series (the slots' quantiles).
        return made(LoadForecasts.of(forecaster, arrivalGrid, serviceGrid, now), now);
    }

    private static Made made(LoadForecasts f, double at) {
        return new Made(f.arrivals(), f.service(), f.work(), at);
    }
}
