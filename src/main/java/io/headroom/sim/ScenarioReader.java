package io.headroom.sim;

import io.headroom.config.ConfigErrors;
import io.headroom.config.ConfigException;
import io.headroom.config.ConfigNode;
import io.headroom.config.ConfigTree;
import io.headroom.config.Fields;
import io.headroom.config.PolicyReader;
import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxClassSpec.Dependency;
import io.headroom.sandbox.SandboxClassSpec.Distribution;
import io.headroom.sandbox.SandboxClassSpec.Poison;
import io.headroom.sandbox.SandboxClassSpec.CostSegment;
import io.headroom.sandbox.SandboxClassSpec.RateSegment;
import io.headroom.sandbox.SandboxClassSpec.ServiceTime;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads a scenario file (YAML for .yaml/.yml, JSON for .json) with full validation; every
 * problem is reported together, each as {@code FILE:LINE: path: message}.
 */
public final class ScenarioReader {

    /** Control interval when the file gives none. */
    public static final double DEFAULT_TICK_SECONDS = 15;

    /*
     * Sane ranges. A scenario is run as fast as the machine can, so a run has budgets too: control
     * ticks of all classes together (a decision each) and jobs (arrivals and initial backlog, each
     * some events). At the budgets a run takes seconds, not hours; beyond them it is refused when read.
     */
    /** The most control ticks of all classes together in one run. */
    public static final int MAX_CLASS_TICKS = 100_000;
    /** The most jobs (expected arrivals and initial backlog) in one run. */
    public static final long MAX_JOBS = 5_000_000;
    /** The longest run: 30 days. */
    public static final double MAX_DURATION_SECONDS = 30 * 86_400;
    /** The shortest and longest control tick. */
    public static final double MIN_TICK_SECONDS = 1;
    public static final double MAX_TICK_SECONDS = 3600;
    /** The most classes in one scenario. */
    public static final int MAX_CLASSES = 100;
    /** The highest arrival rate, jobs per second. */
    public static final double MAX_RATE = 10_000;
    /** The most replicas of a simulated class (each job start looks at every pod). */
    public static final int MAX_REPLICAS = 1000;
    /** The most concurrent jobs of a simulated pod. */
    public static final int MAX_CONCURRENCY = 1000;
    /** The largest initial backlog. */
    public static final int MAX_BACKLOG = 1_000_000;
    /** The shortest and longest mean service time. */
    public static final double MIN_SERVICE_SECONDS = 0.001;
    public static final double MAX_SERVICE_SECONDS = 86_400;
    /** The longest pod start-up. */
    public static final double MAX_STARTUP_SECONDS = 3600;
    /** The most segments or outages of a class. */
    public static final int MAX_WINDOWS = 1000;

    private ScenarioReader() {
    }

    /**
     * The jobs a class brings into a run of {@code durationSeconds}: its initial backlog and the
     * integral of its arrival rate (the programme is piecewise linear, so each piece's integral is its
     * length times its rate at the middle; a repeated programme counts whole periods and the rest).
     */
    static double expectedJobs(SandboxClassSpec spec, double durationSeconds) {
        Double repeat = spec.repeatSeconds();
        double arrivals;
        if (repeat == null || repeat >= durationSeconds) {
            arrivals = arrivalsUpTo(spec, durationSeconds);
        } else {
            double periods = Math.floor(durationSeconds / repeat);
            arrivals = periods * arrivalsUpTo(spec, repeat) + arrivalsUpTo(spec, durationSeconds - periods * repeat);
        }
        return arrivals + spec.initialBacklog();
    }

    /** The integral of the rate over [0, end], end within one period of the programme. */
    private static double arrivalsUpTo(SandboxClassSpec spec, double end) {
        java.util.TreeSet<Double> cuts = new java.util.TreeSet<>(List.of(0.0, end));
        for (RateSegment s : spec.segments()) {
            for (double b : new double[] {s.fromSeconds(), s.toSeconds()}) {
                if (b > 0 && b < end) {
                    cuts.add(b);
                }
            }
        }
        double total = 0;
        Double previous = null;
        for (double cut : cuts) {
            if (previous != null && cut > previous) {
                total += (cut - previous) * spec.rateAt((previous + cut) / 2);
            }
            previous = cut;
        }
        return total;
    }

    public static Scenario read(Path path) throws ConfigException {
        return read(ConfigTree.parse(path));
    }

    /** Reads scenario text; {@code file} names it in messages. */
    public static Scenario read(String file, String text, ConfigTree.Format format) throws ConfigException {
        return read(ConfigTree.parse(file, text, format));
    }

    static Scenario read(ConfigNode root) throws ConfigException {
        ConfigErrors errors = new ConfigErrors();
        Fields f = Fields.of(root, errors);
        String name = f.requiredString("name");
        if (name != null && name.isBlank()) {
            f.error("name", "must not be blank");
        }
        Double duration = f.requiredNumber("durationSeconds");
        if (duration != null && !(duration > 0)) {
            f.error("durationSeconds", "must be > 0, got " + duration);
            duration = null;
        } else if (!f.within("durationSeconds", duration, 0, MAX_DURATION_SECONDS)) {
            duration = null;
        }
        double tick = f.number("tickSeconds", DEFAULT_TICK_SECONDS);
        if (!(tick > 0)) {
            f.error("tickSeconds", "must be > 0, got " + tick);
            tick = DEFAULT_TICK_SECONDS;
        } else if (!f.within("tickSeconds", tick, MIN_TICK_SECONDS, MAX_TICK_SECONDS)) {
            tick = DEFAULT_TICK_SECONDS;
            duration = null; // no budget to check against a tick that is refused anyway
        } else if (duration != null && tick > duration) {
            f.error("tickSeconds", "must be <= durationSeconds (" + num(duration) + "), got " + num(tick));
        }
        Long seedValue = f.longInteger("seed");
        long seed = seedValue == null ? 1L : seedValue;
        Instant start = Scenario.DEFAULT_START;
        String startText = f.string("start");
        if (startText != null) {
            try {
                start = Instant.parse(startText);
            } catch (DateTimeParseException e) {
                f.error("start", "must be an ISO-8601 instant like 2026-01-01T00:00:00Z, got \"" + startText + "\"");
            }
        }
        List<ScenarioClass> classes = new ArrayList<>();
        double limit = duration == null ? Double.POSITIVE_INFINITY : duration;
        double tickForClasses = tick;
        classes.addAll(f.namedList("classes", "class", MAX_CLASSES, c -> readClass(c, limit, tickForClasses),
                ScenarioClass::name));
        if (duration != null && !classes.isEmpty() && tick <= duration) {
            budgets(f, duration, tick, classes);
        }
        ScenarioPlacement placement = ScenarioPlacementReader.read(f, classes, limit);
        ScenarioAnticipation anticipation = anticipation(f.object("anticipation"));
        f.finish();
        errors.throwIfAny();
        double d = duration;
        double t = tick;
        Instant s = start;
        Scenario scenario = f.build(() -> new Scenario(name, d, t, seed, s, classes, placement, anticipation));
        errors.throwIfAny();
        return scenario;
    }

    /**
     * The {@code anticipation:} block (issue 29): {@code historyDays} (0–28), {@code slotSeconds} (divides a day, at
     * least 60), {@code neighbourSlots} (0–12), {@code everySeconds}, {@code quantile} (0.5, 0.8 or 0.95), {@code bufferSeconds},
     * {@code horizonSeconds}, {@code margin}; absent, {@link ScenarioAnticipation#DEFAULTS}.
     */
    private static ScenarioAnticipation anticipation(Fields a) {
        if (a == null) {
            return ScenarioAnticipation.DEFAULTS;
        }
        ScenarioAnticipation d = ScenarioAnticipation.DEFAULTS;
        io.headroom.forecast.Anticipation.Settings ds = d.settings();
        double days = a.number("historyDays", d.historyDays());
        double slot = a.number("slotSeconds", d.slotSeconds());
        double every = a.number("everySeconds", d.everySeconds());
        int neighbours = a.integer("neighbourSlots", d.neighbourSlots());
        double quantile = a.number("quantile", ds.quantile());
        double buffer = a.number("bufferSeconds", ds.bufferSeconds());
        double horizon = a.number("horizonSeconds", ds.horizonSeconds());
        double margin = a.number("margin", ds.margin());
        boolean ok = a.within("historyDays", days, 0, 28) & a.within("everySeconds", every, 1, 86_400)
                & a.within("bufferSeconds", buffer, 0, 3600) & a.within("horizonSeconds", horizon, 60, 86_400)
                & a.within("margin", margin, 0, 10) & a.within("neighbourSlots", neighbours, 0, 12);
        if (!(slot >= 60) || 86_400 % slot != 0) {
            a.error("slotSeconds", "must be at least 60 and divide a day (86400), got " + num(slot));
            ok = false;
        }
        if (quantile != 0.5 && quantile != 0.8 && quantile != 0.95) {
            a.error("quantile", "must be 0.5, 0.8 or 0.95, got " + num(quantile));
            ok = false;
        }
        a.finish();
        if (!ok) {
            return d;
        }
        return new ScenarioAnticipation(days, slot, neighbours, every,
                new io.headroom.forecast.Anticipation.Settings(quantile, buffer, horizon, margin));
    }

    /** The run's budgets of class-ticks and of jobs (each class's jobs are checked where it is read). */
    private static void budgets(Fields f, double duration, double tick, List<ScenarioClass> classes) {
        long ticks = (long) Math.floor(duration / tick + 1e-9);
        long classTicks = ticks * classes.size();
        if (classTicks > MAX_CLASS_TICKS) {
            f.error("tickSeconds", num(duration) + " s at " + num(tick) + " s ticks for " + classes.size()
                    + (classes.size() == 1 ? " class" : " classes") + " is " + classTicks + " class-ticks; a run may"
                    + " have at most " + MAX_CLASS_TICKS + " (longer ticks, a shorter run or fewer classes)");
        }
        double jobs = 0;
        for (ScenarioClass c : classes) {
            jobs += expectedJobs(c.sandbox(), duration);
        }
        if (jobs > MAX_JOBS) {
            f.error("classes", "the classes together bring about " + Math.round(jobs) + " jobs into the run; a run may"
                    + " have at most " + MAX_JOBS + " (lower rates or a shorter run)");
        }
    }

    /** One class; null when it had problems (they are recorded). */
    static ScenarioClass readClass(Fields c, double duration, double tick) {
        int before = c.errors().count();
        String name = c.requiredString("name");
        if (name != null && name.isBlank()) {
            c.error("name", "must not be blank");
        }

        SandboxClassSpec.Builder b = SandboxClassSpec.builder(name == null ? "?" : name);
        Fields arrival = c.object("arrival");
        Double repeat = null;
        if (arrival != null) {
            double baseRate = arrival.number("baseRate", 0);
            if (!(baseRate >= 0)) {
                arrival.error("baseRate", "must be >= 0, got " + num(baseRate));
            } else {
                arrival.within("baseRate", baseRate, 0, MAX_RATE);
            }
            b.baseRate(baseRate);
            repeat = arrival.number("repeatSeconds");
            if (repeat != null && !(repeat > 0)) {
                arrival.error("repeatSeconds", "must be > 0, got " + num(repeat));
                repeat = null;
            } else if (!arrival.within("repeatSeconds", repeat, 1, MAX_DURATION_SECONDS)) {
                repeat = null;
            }
            b.repeatSeconds(repeat);
            String within = withinWhat(duration, repeat);
            double limit = limit(duration, repeat);
            List<RateSegment> segments = new ArrayList<>();
            for (ConfigNode n : arrival.list("segments", MAX_WINDOWS)) {
                Fields s = Fields.of(n, c.errors());
                Double from = s.requiredNumber("from");
                Double to = s.requiredNumber("to");
                Double rate = s.requiredNumber("rate");
                Double rampTo = s.number("rampTo");
                s.finish();
                if (rate != null && rate >= 0 && !s.within("rate", rate, 0, MAX_RATE)
                        || rampTo != null && rampTo >= 0 && !s.within("rampTo", rampTo, 0, MAX_RATE)) {
                    continue;
                }
                if (from == null || to == null || rate == null) {
                    continue;
                }
                RateSegment seg = s.build(() -> new RateSegment(from, to, rate, rampTo));
                if (seg != null && seg.toSeconds() > limit) {
                    s.error("to", "must be within " + within + ", got " + num(to));
                } else if (seg != null) {
                    segments.add(seg);
                }
            }
            b.segments(segments);
            arrival.finish();
        }

        Fields service = c.object("service");
        if (service == null) {
            if (!c.has("service")) {
                c.missing("service");
            }
        } else {
            ServiceTime st = service(service);
            if (st != null) {
                b.service(st);
            }
        }

        Integer concurrency = c.integer("concurrency");
        if (concurrency != null && c.within("concurrency", concurrency, -Double.MAX_VALUE, MAX_CONCURRENCY)) {
            b.concurrency(concurrency);
        }
        Double startup = c.number("startupSeconds");
        if (startup != null && c.within("startupSeconds", startup, -Double.MAX_VALUE, MAX_STARTUP_SECONDS)) {
            b.startupSeconds(startup);
        }
        Integer initialReplicas = c.integer("initialReplicas");
        if (initialReplicas != null && c.within("initialReplicas", initialReplicas, -Double.MAX_VALUE, MAX_REPLICAS)) {
            b.initialReplicas(initialReplicas);
        }
        Integer backlog = c.integer("initialBacklog");
        if (backlog != null && c.within("initialBacklog", backlog, -Double.MAX_VALUE, MAX_BACKLOG)) {
            b.initialBacklog(backlog);
        }

        Fields dep = c.object("dependency");
        if (dep != null) {
            Integer limitCalls = dep.requiredInteger("limit");
            Double slope = dep.requiredNumber("slope");
            Double base = dep.requiredNumber("baseLatencyMs");
            dep.finish();
            boolean sane = dep.within("limit", limitCalls, -Double.MAX_VALUE, 1_000_000)
                    & dep.within("slope", slope, -Double.MAX_VALUE, 1000)
                    & dep.within("baseLatencyMs", base, -Double.MAX_VALUE, 60_000);
            if (sane && limitCalls != null && slope != null && base != null) {
                b.dependency(dep.build(() -> new Dependency(limitCalls, slope, base)));
            }
        }

        Fields poison = c.object("poison");
        if (poison != null) {
            Double at = poison.requiredNumber("atSeconds");
            Double clear = poison.number("clearAtSeconds");
            poison.finish();
            if (at != null) {
                Poison p = poison.build(() -> new Poison(at, clear));
                if (p != null && at >= limit(duration, repeat)) {
                    poison.error("atSeconds", "must be within " + withinWhat(duration, repeat) + ", got " + num(at));
                }
                b.poison(p);
            }
        }

        List<Window> outages = new ArrayList<>();
        for (ConfigNode n : c.list("outages", MAX_WINDOWS)) {
            Fields o = Fields.of(n, c.errors());
            Double from = o.requiredNumber("from");
            Double to = o.requiredNumber("to");
            o.finish();
            if (from == null || to == null) {
                continue;
            }
            Window w = o.build(() -> new Window(from, to));
            if (w != null && to > limit(duration, repeat)) {
                o.error("to", "must be within " + withinWhat(duration, repeat) + ", got " + num(to));
            } else if (w != null) {
                outages.add(w);
            }
        }
        b.outages(outages);
        List<CostSegment> costs = new ArrayList<>();
        for (ConfigNode n : c.list("costSegments")) {
            Fields o = Fields.of(n, c.errors());
            Double from = o.requiredNumber("from");
            Double to = o.requiredNumber("to");
            Double factor = o.requiredNumber("factor");
            o.finish();
            if (from == null || to == null || factor == null) {
                continue;
            }
            CostSegment cs = o.build(() -> new CostSegment(from, to, factor));
            if (cs != null && to > limit(duration, repeat)) {
                o.error("to", "must be within " + withinWhat(duration, repeat) + ", got " + num(to));
            } else if (cs != null) {
                costs.add(cs);
            }
        }
        b.costSegments(costs);
        Double memory = c.number("podMemoryMb");
        if (c.within("podMemoryMb", memory, -Double.MAX_VALUE, 1024 * 1024)) {
            b.podMemoryMb(memory);
        }

        // The class's slots per pod is the policy's k unless the file says otherwise (a what-if may).
        Policy base = Policy.builder().pollIntervalSeconds(tick)
                .slotsPerReplica(concurrency == null || concurrency < 1 ? 1 : concurrency).build();
        Policy policy = c.get("policy").map(n -> PolicyReader.read(n, c.errors(), base)).orElse(base);
        if (policy != null && policy.maxReplicas() > MAX_REPLICAS) {
            ConfigNode at = c.get("policy").get() instanceof ConfigNode.MapNode m && m.fields().get("maxReplicas") != null
                    ? m.fields().get("maxReplicas") : c.get("policy").get();
            c.errors().add(at, "a simulated class may have at most " + MAX_REPLICAS + " replicas, got "
                    + policy.maxReplicas());
        }
        Fields producersBlock = c.object("producers");
        ScenarioProducers producers = producersBlock == null ? ScenarioProducers.FREE
                : ScenarioProducers.read(producersBlock);
        c.finish();
        if (c.errors().count() > before) {
            return null;
        }
        SandboxClassSpec spec = c.build(b::build);
        if (spec != null && Double.isFinite(duration)) {
            double jobs = expectedJobs(spec, duration);
            if (jobs > MAX_JOBS) {
                c.error(c.has("arrival") ? "arrival" : "initialBacklog", "about " + Math.round(jobs) + " jobs in the run"
                        + " (arrivals and initial backlog); a run may have at most " + MAX_JOBS
                        + " (a lower rate or a shorter run)");
                return null;
            }
        }
        return spec == null || policy == null ? null : new ScenarioClass(spec, policy, producers);
    }

    static ServiceTime service(Fields s) {
        int before = s.errors().count();
        String distText = s.requiredString("distribution");
        Distribution dist = null;
        if (distText != null) {
            try {
                dist = Distribution.valueOf(distText.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                s.error("distribution", "must be one of constant, exponential, lognormal, uniform, got \""
                        + distText + "\"");
            }
        }
        Double mean = s.number("meanSeconds");
        Double cv = s.number("cv");
        Double min = s.number("minSeconds");
        Double max = s.number("maxSeconds");
        if (mean != null && mean > 0) {
            s.within("meanSeconds", mean, MIN_SERVICE_SECONDS, MAX_SERVICE_SECONDS);
        }
        if (cv != null && cv > 0) {
            s.within("cv", cv, 0, 10);
        }
        s.within("minSeconds", min, -Double.MAX_VALUE, MAX_SERVICE_SECONDS);
        s.within("maxSeconds", max, -Double.MAX_VALUE, MAX_SERVICE_SECONDS);
        s.finish();
        if (dist == Distribution.UNIFORM) {
            if (s.has("meanSeconds")) {
                s.error("meanSeconds", "is derived from minSeconds and maxSeconds for uniform; remove it");
            }
            if (!s.has("minSeconds")) {
                s.missing("minSeconds");
            }
            if (!s.has("maxSeconds")) {
                s.missing("maxSeconds");
            }
        } else if (dist != null) {
            if (!s.has("meanSeconds")) {
                s.missing("meanSeconds");
            }
            for (String k : List.of("minSeconds", "maxSeconds")) {
                if (s.has(k)) {
                    s.error(k, "applies only to the uniform distribution");
                }
            }
        }
        if (dist != null && dist != Distribution.LOGNORMAL && s.has("cv")) {
            s.error("cv", "applies only to the lognormal distribution");
        }
        if (s.errors().count() > before) {
            return null;
        }
        Distribution d = dist;
        return s.build(() -> new ServiceTime(d, mean == null ? Double.NaN : mean, cv, min, max));
    }

    private static double limit(double duration, Double repeat) {
        return repeat == null ? duration : Math.min(duration, repeat);
    }

    private static String withinWhat(double duration, Double repeat) {
        if (repeat != null && repeat < duration) {
            return "repeatSeconds (" + num(repeat) + ")";
        }
        return "durationSeconds (" + num(duration) + ")";
    }

    /** 600 rather than 600.0 in messages, matching what the operator wrote. */
    static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
