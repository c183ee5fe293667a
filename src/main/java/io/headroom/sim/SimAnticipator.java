package io.headroom.sim;

import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.ForecastFloor;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.forecast.Anticipation;
import io.headroom.forecast.Forecast;
import io.headroom.forecast.ForecastSettings;
import io.headroom.forecast.Forecaster;
import io.headroom.forecast.LoadForecasts;
import io.headroom.forecast.LoadGrid;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxWorld;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;

/**
 * Headroom's decision with anticipation, in the simulator (issue 29): for each class whose policy says
 * {@code forecast: propose} or {@code auto}, it keeps the class's own arrivals and mean service time per tick as the
 * run goes (arrivals from the class's arrivals counter, as {@code increase(...)} over the tick would give them; the
 * mean service time as the metrics show it; nothing during a metrics outage), after {@link ScenarioAnticipation}'s
 * days of generated history, forecasts both and their joint (each tick's arrivals × its service time) every
 * {@code everySeconds} with the console's {@link Forecaster}, as the console does ({@link LoadForecasts}), and holds
 * {@link Anticipation#plan}'s floor in the observation. A proposal counts as approved at once (its words say
 * so). Other classes, and every other rule, decide as they would without it.
 */
final class SimAnticipator implements Decider {

    private final Decider inner;
    private final SandboxWorld world;
    private final ScenarioAnticipation settings;
    private final Map<String, ClassState> classes = new LinkedHashMap<>();

    private SimAnticipator(Scenario scenario, Decider inner, SandboxWorld world) {
        this.inner = inner;
        this.world = world;
        this.settings = scenario.anticipation();
        long n = 0;
        for (ScenarioClass c : scenario.classes()) {
            if (c.policy().forecastMode().acts()) {
                classes.put(c.name(), new ClassState(scenario, c, scenario.seed() * 31 + n++));
            }
        }
    }

    /** {@code decider} with anticipation when it is Headroom's and some class acts on its forecast; else itself. */
    static Decider wrap(Scenario scenario, Decider decider, SandboxWorld world) {
        boolean headroom = decider == Decider.HEADROOM || decider == Decider.HEADROOM_NUMBERS;
        boolean acts = scenario.classes().stream().anyMatch(c -> c.policy().forecastMode().acts());
        return headroom && acts ? new SimAnticipator(scenario, decider, world) : decider;
    }

    @Override
    public Decision decide(String className, Policy policy, Observation obs, ClassMemory memory, Instant now) {
        ClassState c = classes.get(className);
        if (c == null || !policy.forecastMode().acts()) {
            return inner.decide(className, policy, obs, memory, now);
        }
        c.record(now);
        double t = seconds(now);
        if (Double.isNaN(c.lastForecastAt) || t - c.lastForecastAt >= settings.everySeconds() - 1e-9) {
            c.forecast(t, policy);
        }
        // The floor is planned against what the current data needs (the last decision's estimate), not a count
        // the scale-down window still holds: the next rise is then seen while the window holds the last one.
        int reference = Math.min(obs.currentReplicas(), c.lastNeed < 0 ? obs.currentReplicas() : c.lastNeed);
        double startup = Double.isFinite(obs.startupSeconds()) ? obs.startupSeconds() : policy.startupSeconds();
        Anticipation.Plan plan = c.made.plan(c.lastService, policy, reference, startup, now, settings.settings());
        if (plan.floor() != null) {
            ForecastFloor f = plan.floor();
            String who = policy.forecastMode() == ForecastMode.PROPOSE
                    ? "proposal approved at once (simulator): " : "auto: ";
            c.floor = new ForecastFloor(f.replicas(), f.from(), f.until(), who + f.why());
        } else if (c.floor != null && c.floor.lapsedAt(now)) {
            c.floor = null;
        }
        c.lastWords = plan.words();
        Decision d = inner.decide(className, policy, obs.withForecastFloor(c.floor), memory, now);
        c.lastNeed = d.slotReplicas() != null ? d.slotReplicas() : -1;
        return d;
    }

    /** The floor held for a class now (null when none), for tests and the CLI. */
    ForecastFloor floor(String className) {
        ClassState c = classes.get(className);
        return c == null ? null : c.floor;
    }

    /** The latest arrivals forecast of a class (null before the first). */
    Forecast arrivals(String className) {
        ClassState c = classes.get(className);
        return c == null || c.made == null ? null : c.made.arrivals();
    }

    /**
     * A class's history as its next forecast reads it (null for a class without anticipation): arrivals (jobs/s) and
     * mean service time (s), a tick a cell, the generated days and what the run has measured since.
     */
    LoadGrid[] history(String className) {
        ClassState c = classes.get(className);
        return c == null ? null : new LoadGrid[] {c.grid(c.arrivalsPerSecond), c.grid(c.serviceSeconds)};
    }

    private static double seconds(Instant t) {
        return t.getEpochSecond() + t.getNano() / 1e9;
    }

    /** One class's history, forecasts and floor. */
    private final class ClassState {
        final String name;
        final double tick;
        final double historyStart;
        final double[] arrivalsPerSecond;
        final double[] serviceSeconds;
        int filled;
        double lastAt = Double.NaN;
        long lastArrived;
        double lastService = Double.NaN;
        double lastForecastAt = Double.NaN;
        /** The latest forecasts: arrivals, and the service time and the work (the joint) when arrivals are given. */
        LoadForecasts made;
        ForecastFloor floor;
        int lastNeed = -1;
        String lastWords = "";
        Forecaster forecaster;

        ClassState(Scenario s, ScenarioClass c, long seed) {
            name = c.name();
            tick = s.tickSeconds();
            double start = seconds(s.start());
            int pre = (int) Math.round(settings.historyDays() * 86_400 / tick);
            historyStart = start - pre * tick;
            int n = pre + (int) Math.ceil(s.durationSeconds() / tick) + 2;
            arrivalsPerSecond = new double[n];
            serviceSeconds = new double[n];
            Arrays.fill(arrivalsPerSecond, Double.NaN);
            Arrays.fill(serviceSeconds, Double.NaN);
            generate(s, c.sandbox(), pre, seed);
            filled = pre;
        }

        /** Days before t=0 from the class's own programme, with Poisson noise. */
        private void generate(Scenario s, SandboxClassSpec spec, int pre, long seed) {
            Random random = new Random(seed);
            double period = spec.repeatSeconds() != null ? spec.repeatSeconds() : s.durationSeconds();
            SandboxClassSpec.ServiceTime st = spec.service();
            double mean = st.distribution() == SandboxClassSpec.Distribution.UNIFORM
                    ? (st.minSeconds() + st.maxSeconds()) / 2 : st.meanSeconds();
            double cv = st.cv() == null ? SandboxClassSpec.ServiceTime.DEFAULT_CV : st.cv();
            for (int i = 0; i < pre; i++) {
                double rel = (i - pre) * tick + tick / 2;
                double phase = rel - Math.floor(rel / period) * period;
                double rate = spec.rateAt(phase);
                arrivalsPerSecond[i] = poisson(random, rate * tick) / tick;
                double completions = Math.max(1, rate * 60);
                serviceSeconds[i] = rate <= 0 ? Double.NaN
                        : mean * spec.costAt(phase) * Math.max(0.1, 1 + cv * random.nextGaussian() / Math.sqrt(completions));
            }
        }

        /** The interval since the last tick, from the world's counters (nothing known during a metrics outage). */
        void record(Instant now) {
            SandboxWorld.Measurements m = world.measure(name).orElseThrow();
            double t = seconds(now);
            if (!Double.isNaN(lastAt) && t > lastAt) {
                int from = index(lastAt);
                int to = index(t);
                double rate = m.metricsOutage() ? Double.NaN : (m.jobsArrived() - lastArrived) / (t - lastAt);
                double s = m.metricsOutage() ? Double.NaN : m.meanServiceSeconds();
                for (int i = Math.max(0, from); i < to && i < arrivalsPerSecond.length; i++) {
                    arrivalsPerSecond[i] = rate;
                    serviceSeconds[i] = s;
                }
                filled = Math.max(filled, Math.min(to, arrivalsPerSecond.length));
            }
            if (!m.metricsOutage() && Double.isFinite(m.meanServiceSeconds())) {
                lastService = m.meanServiceSeconds();
            }
            lastAt = t;
            lastArrived = m.jobsArrived();
        }

        void forecast(double t, Policy policy) {
            if (forecaster == null) {
                ForecastSettings d = ForecastSettings.DEFAULTS;
                ForecastSettings fs = new ForecastSettings(settings.slotSeconds(), d.horizonSeconds(), d.maxError(),
                        d.minHistorySeconds(), d.weeklyDays(), d.perWeekdayDays(), d.maxDays(), settings.neighbourSlots(),
                        d.levelSeconds(), d.maxLevel(), d.backtestSeconds(), d.backtestLeadSeconds(), d.minLoad(),
                        policy.timeZone() == null ? java.time.ZoneOffset.UTC : policy.timeZone());
                forecaster = new Forecaster(fs);
            }
            LoadGrid a = grid(arrivalsPerSecond);
            LoadGrid s = grid(serviceSeconds);
            made = LoadForecasts.forPlan(forecaster, a, s, LoadGrid.product(a, s), t);
            lastForecastAt = t;
        }

        /** One series as far as it is filled. */
        LoadGrid grid(double[] series) {
            return new LoadGrid(historyStart, tick, Arrays.copyOf(series, filled));
        }

        private int index(double t) {
            return (int) Math.round((t - historyStart) / tick);
        }
    }

    private static int poisson(Random r, double mean) {
        if (mean <= 0) {
            return 0;
        }
        if (mean > 50) {
            return (int) Math.max(0, Math.round(mean + Math.sqrt(mean) * r.nextGaussian()));
        }
        double l = Math.exp(-mean);
        int k = 0;
        double p = 1;
        do {
            k++;
            p *= r.nextDouble();
        } while (p > l);
        return k - 1;
    }
}
