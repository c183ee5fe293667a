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

    private ScenarioReader() {
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
        }
        double tick = f.number("tickSeconds", DEFAULT_TICK_SECONDS);
        if (!(tick > 0)) {
            f.error("tickSeconds", "must be > 0, got " + tick);
            tick = DEFAULT_TICK_SECONDS;
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
        classes.addAll(f.namedList("classes", "class", c -> readClass(c, limit, tickForClasses), ScenarioClass::name));
        f.finish();
        errors.throwIfAny();
        double d = duration;
        double t = tick;
        Instant s = start;
        Scenario scenario = f.build(() -> new Scenario(name, d, t, seed, s, classes));
        errors.throwIfAny();
        return scenario;
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
            }
            b.baseRate(baseRate);
            repeat = arrival.number("repeatSeconds");
            if (repeat != null && !(repeat > 0)) {
                arrival.error("repeatSeconds", "must be > 0, got " + num(repeat));
                repeat = null;
            }
            b.repeatSeconds(repeat);
            String within = withinWhat(duration, repeat);
            double limit = limit(duration, repeat);
            List<RateSegment> segments = new ArrayList<>();
            for (ConfigNode n : arrival.list("segments")) {
                Fields s = Fields.of(n, c.errors());
                Double from = s.requiredNumber("from");
                Double to = s.requiredNumber("to");
                Double rate = s.requiredNumber("rate");
                Double rampTo = s.number("rampTo");
                s.finish();
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
        if (concurrency != null) {
            b.concurrency(concurrency);
        }
        Double startup = c.number("startupSeconds");
        if (startup != null) {
            b.startupSeconds(startup);
        }
        Integer initialReplicas = c.integer("initialReplicas");
        if (initialReplicas != null) {
            b.initialReplicas(initialReplicas);
        }
        Integer backlog = c.integer("initialBacklog");
        if (backlog != null) {
            b.initialBacklog(backlog);
        }

        Fields dep = c.object("dependency");
        if (dep != null) {
            Integer limitCalls = dep.requiredInteger("limit");
            Double slope = dep.requiredNumber("slope");
            Double base = dep.requiredNumber("baseLatencyMs");
            dep.finish();
            if (limitCalls != null && slope != null && base != null) {
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
        for (ConfigNode n : c.list("outages")) {
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
        b.podMemoryMb(c.number("podMemoryMb"));

        // The class's slots per pod is the policy's k unless the file says otherwise (a what-if may).
        Policy base = Policy.builder().pollIntervalSeconds(tick)
                .slotsPerReplica(concurrency == null || concurrency < 1 ? 1 : concurrency).build();
        Policy policy = c.get("policy").map(n -> PolicyReader.read(n, c.errors(), base)).orElse(base);
        c.finish();
        if (c.errors().count() > before) {
            return null;
        }
        SandboxClassSpec spec = c.build(b::build);
        return spec == null || policy == null ? null : new ScenarioClass(spec, policy);
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
