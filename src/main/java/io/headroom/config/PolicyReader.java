package io.headroom.config;

import io.headroom.decision.SignalName;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.DependencyGuard;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScheduledFloor;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Maps a {@code policy:} mapping to a {@link Policy}. Absent fields keep the base policy's values;
 * the Policy's own validation messages come back located at the field they name.
 */
public final class PolicyReader {

    /** The most replicas any field may name (min, max, floors, ceilings): more is a typo, not a plan. */
    public static final int MAX_REPLICAS = 100_000;
    /** The most concurrent jobs a pod may take. */
    public static final int MAX_SLOTS_PER_REPLICA = 10_000;
    /** The lowest target utilization: below it the slot estimate is a multiple of hundreds. */
    public static final double MIN_TARGET_UTILIZATION = 0.01;
    /** The quickest polling: once a second. */
    public static final double MIN_POLL_SECONDS = 1;
    /** The slowest polling: once an hour. */
    public static final double MAX_POLL_SECONDS = 3600;
    /** A day: the longest drain target and cooldown. */
    public static final double DAY_SECONDS = 86_400;
    /** 30 days: the longest age objective. */
    public static final double MAX_AGE_SECONDS = 30 * DAY_SECONDS;
    /** The range of a ceiling's budget or per-replica amount, and of a dependency threshold's size. */
    public static final double MIN_AMOUNT = 1e-6;
    public static final double MAX_AMOUNT = 1e15;
    /** The most failed ticks before fallback. */
    public static final int MAX_FAILURE_THRESHOLD = 1000;
    /** The most ceilings of one policy, and rate policies of one behaviour. */
    public static final int MAX_CEILINGS = 32;
    public static final int MAX_RATE_POLICIES = 10;

    private PolicyReader() {
    }

    /** Reads a policy on its own; every problem is thrown together. */
    public static Policy read(ConfigNode node) throws ConfigException {
        ConfigErrors errors = new ConfigErrors();
        Policy p = read(node, errors, Policy.defaults());
        errors.throwIfAny();
        return p;
    }

    /**
     * Reads a policy, recording problems in {@code errors}.
     *
     * @param base the values for absent fields
     * @return the policy, or null when the node had problems
     */
    public static Policy read(ConfigNode node, ConfigErrors errors, Policy base) {
        return read(node, errors, base, null);
    }

    /**
     * Reads a policy whose ceilings may also take {@code budgetQuery} / {@code perReplicaQuery}
     * (a workloads file's PromQL): each query is handed to {@code queries}, and the ceiling reads the
     * signal name it returns. With {@code queries} null those fields are unknown, as in a scenario file.
     */
    public static Policy read(ConfigNode node, ConfigErrors errors, Policy base, CeilingQueries queries) {
        int before = errors.count();
        Fields f = Fields.of(node, errors);
        Policy.Builder b = base.toBuilder();
        Integer i;
        Double d;
        // Each number is checked against a sane range only inside its domain, whose message the Policy gives.
        if ((i = f.integer("slotsPerReplica")) != null && f.within("slotsPerReplica", i, -Double.MAX_VALUE,
                MAX_SLOTS_PER_REPLICA)) {
            b.slotsPerReplica(i);
        }
        if ((d = f.number("targetUtilization")) != null
                && (!(d > 0) || f.within("targetUtilization", d, MIN_TARGET_UTILIZATION, Double.MAX_VALUE))) {
            b.targetUtilization(d);
        }
        if ((d = f.number("drainTargetSeconds")) != null
                && (!(d > 0) || f.within("drainTargetSeconds", d, 1, DAY_SECONDS))) {
            b.drainTargetSeconds(d);
        }
        if ((d = f.number("maxAgeSeconds")) != null && (!(d > 0) || f.within("maxAgeSeconds", d, 1, MAX_AGE_SECONDS))) {
            b.maxAgeSeconds(d);
        }
        if ((i = f.integer("minReplicas")) != null && f.within("minReplicas", i, -Double.MAX_VALUE, MAX_REPLICAS)) {
            b.minReplicas(i);
        }
        if ((i = f.integer("maxReplicas")) != null && f.within("maxReplicas", i, -Double.MAX_VALUE, MAX_REPLICAS)) {
            b.maxReplicas(i);
        }
        if ((d = f.number("cooldownSeconds")) != null && f.within("cooldownSeconds", d, -Double.MAX_VALUE, DAY_SECONDS)) {
            b.cooldownSeconds(d);
        }
        if ((d = f.number("pollIntervalSeconds")) != null
                && (!(d > 0) || f.within("pollIntervalSeconds", d, MIN_POLL_SECONDS, MAX_POLL_SECONDS))) {
            b.pollIntervalSeconds(d);
        }
        if ((d = f.number("expectedServiceSeconds")) != null
                && (!(d > 0) || f.within("expectedServiceSeconds", d, 0.001, DAY_SECONDS))) {
            b.expectedServiceSeconds(d);
        }
        if ((d = f.number("startupSeconds")) != null && f.within("startupSeconds", d, -Double.MAX_VALUE, DAY_SECONDS)) {
            b.startupSeconds(d);
        }
        if ((d = f.number("stuckAfterSeconds")) != null
                && (!(d > 0) || f.within("stuckAfterSeconds", d, 1, DAY_SECONDS))) {
            b.stuckAfterSeconds(d);
        }
        if ((d = f.number("minDrainSeconds")) != null
                && (!(d > 0) || f.within("minDrainSeconds", d, 1, DAY_SECONDS))) {
            b.minDrainSeconds(d);
        }
        if ((d = f.number("absorbStep")) != null
                && (!(d >= 1) || f.within("absorbStep", d, 1, 1000))) {
            b.absorbStep(d);
        }
        Fields up = f.object("scaleUp");
        if (up != null) {
            b.scaleUp(behavior(up, base.scaleUp()));
        }
        Fields down = f.object("scaleDown");
        if (down != null) {
            b.scaleDown(behavior(down, base.scaleDown()));
        }
        Fields fb = f.object("fallback");
        if (fb != null) {
            b.fallback(fallback(fb, base.fallback()));
        }
        if (f.has("scheduledFloors")) {
            List<ScheduledFloor> floors = new ArrayList<>();
            for (ConfigNode n : f.list("scheduledFloors", MAX_SCHEDULED_FLOORS)) {
                ScheduledFloor sf = scheduledFloor(Fields.of(n, errors));
                if (sf != null) {
                    floors.add(sf);
                }
            }
            b.scheduledFloors(floors);
        }
        String forecast = f.string("forecast");
        if (forecast != null) {
            io.headroom.decision.ForecastMode mode = io.headroom.decision.ForecastMode.parse(forecast);
            if (mode == null) {
                f.error("forecast", "is one of off, forecast-only, propose, auto; got \"" + forecast + "\"");
            } else {
                b.forecastMode(mode);
            }
        }
        String zone = f.string("timeZone");
        if (zone != null) {
            try {
                b.timeZone(java.time.ZoneId.of(zone));
            } catch (java.time.DateTimeException e) {
                f.error("timeZone", "is not a time zone, got \"" + zone + "\" (e.g. UTC, Europe/Berlin, America/New_York)");
            }
        }
        if (f.has("ceilings")) {
            b.ceilings(ceilings(f.list("ceilings", MAX_CEILINGS), errors, queries));
        }
        Fields guard = f.object("dependencyGuard");
        if (guard != null) {
            b.dependencyGuard(dependencyGuard(guard));
        }
        f.finish();
        if (errors.count() > before) {
            return null;
        }
        return f.build(b::build);
    }

    static ScalingBehavior behavior(Fields f, ScalingBehavior base) {
        int window = f.integer("stabilizationWindowSeconds", base.stabilizationWindowSeconds());
        ScalingBehavior.SelectPolicy select = base.select();
        String s = f.string("selectPolicy");
        if (s != null) {
            select = switch (s.toLowerCase(Locale.ROOT)) {
                case "max" -> ScalingBehavior.SelectPolicy.MAX;
                case "min" -> ScalingBehavior.SelectPolicy.MIN;
                case "disabled" -> ScalingBehavior.SelectPolicy.DISABLED;
                default -> {
                    f.error("selectPolicy", "must be Max, Min or Disabled, got \"" + s + "\"");
                    yield base.select();
                }
            };
        }
        List<ScalingRule> rules = base.rules();
        if (f.has("policies")) {
            rules = new ArrayList<>();
            for (ConfigNode n : f.list("policies", MAX_RATE_POLICIES)) {
                ScalingRule r = rule(Fields.of(n, f.errors()));
                if (r != null) {
                    rules.add(r);
                }
            }
        }
        f.finish();
        List<ScalingRule> finalRules = rules;
        ScalingBehavior.SelectPolicy finalSelect = select;
        return f.build(() -> new ScalingBehavior(window, finalRules, finalSelect));
    }

    static ScalingRule rule(Fields f) {
        int before = f.errors().count();
        String typeText = f.requiredString("type");
        ScalingRule.Type type = null;
        if (typeText != null) {
            switch (typeText.toLowerCase(Locale.ROOT)) {
                case "pods" -> type = ScalingRule.Type.PODS;
                case "percent" -> type = ScalingRule.Type.PERCENT;
                default -> f.error("type", "must be Pods or Percent, got \"" + typeText + "\"");
            }
        }
        Integer value = f.requiredInteger("value");
        f.within("value", value, -Double.MAX_VALUE, MAX_REPLICAS);
        Integer period = f.requiredInteger("periodSeconds");
        f.finish();
        if (f.errors().count() > before) {
            return null;
        }
        ScalingRule.Type t = type;
        return f.build(() -> new ScalingRule(t, value, period));
    }

    static Fallback fallback(Fields f, Fallback base) {
        int threshold = f.integer("failureThreshold", base.failureThreshold());
        f.within("failureThreshold", threshold, -Double.MAX_VALUE, MAX_FAILURE_THRESHOLD);
        Integer floor = f.has("floorReplicas") ? f.integer("floorReplicas") : base.floorReplicas();
        f.within("floorReplicas", floor, -Double.MAX_VALUE, MAX_REPLICAS);
        f.finish();
        return f.build(() -> new Fallback(threshold, floor));
    }

    /** At most this many scheduled floors per policy. */
    public static final int MAX_SCHEDULED_FLOORS = 32;

    /** {@code {days: Mon-Fri, from: "08:00", to: "20:00", replicas: 2}}; days also "Sat,Sun" or "every day". */
    static ScheduledFloor scheduledFloor(Fields f) {
        int before = f.errors().count();
        String daysText = f.requiredString("days");
        String fromText = f.requiredString("from");
        String toText = f.requiredString("to");
        Integer replicas = f.requiredInteger("replicas");
        f.finish();
        if (replicas != null) {
            f.within("replicas", replicas, 0, MAX_REPLICAS);
        }
        java.util.Set<java.time.DayOfWeek> days = daysText == null ? null : days(daysText, f);
        java.time.LocalTime from = fromText == null ? null : time("from", fromText, f);
        java.time.LocalTime to = toText == null ? null : time("to", toText, f);
        if (f.errors().count() > before || days == null || from == null || to == null || replicas == null) {
            return null;
        }
        return f.build(() -> new ScheduledFloor(days, from, to, replicas));
    }

    private static java.time.LocalTime time(String key, String text, Fields f) {
        try {
            return java.time.LocalTime.parse(text.trim());
        } catch (java.time.format.DateTimeParseException e) {
            f.error(key, "is not a time of day HH:MM, got \"" + text + "\"");
            return null;
        }
    }

    static java.util.Set<java.time.DayOfWeek> days(String text, Fields f) {
        try {
            return FloorText.days(text);
        } catch (IllegalArgumentException e) {
            f.error("days", e.getMessage());
            return null;
        }
    }

    static DependencyGuard dependencyGuard(Fields f) {
        Double threshold = f.requiredNumber("threshold");
        String label = f.string("label");
        double backoff = f.number("backoffRatio", DependencyGuard.DEFAULT_BACKOFF_RATIO);
        double probe = f.number("probeSeconds", DependencyGuard.DEFAULT_PROBE_SECONDS);
        f.finish();
        f.within("probeSeconds", probe, 1, DAY_SECONDS);
        if (threshold == null || !f.within("threshold", threshold, -MAX_AMOUNT, MAX_AMOUNT)) {
            return null;
        }
        return f.build(() -> new DependencyGuard(threshold, label, backoff, probe));
    }

    /** Where a ceiling's PromQL goes: the caller runs it as a named signal of the class. */
    @FunctionalInterface
    public interface CeilingQueries {
        /**
         * Registers the query for one side of a ceiling.
         *
         * @param side "budget" or "perReplica"
         * @return the signal name the ceiling reads
         */
        SignalName register(String ceilingName, String side, String query);
    }

    static List<CeilingSpec> ceilings(List<ConfigNode> items, ConfigErrors errors, CeilingQueries queries) {
        List<CeilingSpec> out = new ArrayList<>();
        Map<String, ConfigNode> names = new HashMap<>();
        for (ConfigNode n : items) {
            Fields f = Fields.of(n, errors);
            CeilingSpec c = ceiling(f, queries);
            if (c != null) {
                ConfigNode first = names.putIfAbsent(c.name(), f.get("name").orElse(n));
                if (first != null) {
                    f.error("name", "ceiling name '" + c.name() + "' is used twice (first at line " + first.line() + ")");
                } else {
                    out.add(c);
                }
            }
        }
        return out;
    }

    /**
     * {name, replicas: N} or {name, budget|budgetSignal|budgetQuery, perReplica|perReplicaSignal|perReplicaQuery,
     * conservativeReplicas}; the query forms only when {@code queries} is given.
     */
    static CeilingSpec ceiling(Fields f, CeilingQueries queries) {
        int before = f.errors().count();
        String name = f.requiredString("name");
        Integer replicas = f.integer("replicas");
        Double budget = f.number("budget");
        String budgetSignal = f.string("budgetSignal");
        Double perReplica = f.number("perReplica");
        String perReplicaSignal = f.string("perReplicaSignal");
        // Asked for only when queries are allowed, so elsewhere they stay unknown fields.
        String budgetQuery = queries == null ? null : query(f, "budgetQuery");
        String perReplicaQuery = queries == null ? null : query(f, "perReplicaQuery");
        Integer conservative = f.integer("conservativeReplicas");
        f.within("replicas", replicas, -Double.MAX_VALUE, MAX_REPLICAS);
        f.within("conservativeReplicas", conservative, -Double.MAX_VALUE, MAX_REPLICAS);
        if (budget != null && budget > 0) {
            f.within("budget", budget, MIN_AMOUNT, MAX_AMOUNT);
        }
        if (perReplica != null && perReplica > 0) {
            f.within("perReplica", perReplica, MIN_AMOUNT, MAX_AMOUNT);
        }
        f.finish();
        boolean hasBudget = f.has("budget") || f.has("budgetSignal") || budgetQuery != null;
        boolean hasPer = f.has("perReplica") || f.has("perReplicaSignal") || perReplicaQuery != null;
        if (f.has("replicas") && (hasBudget || hasPer)) {
            f.error("replicas", "give either replicas or budget/perReplica, not both");
        }
        if (f.has("budget") && f.has("budgetSignal")) {
            f.error("budgetSignal", "give either budget or budgetSignal, not both");
        }
        if (f.has("perReplica") && f.has("perReplicaSignal")) {
            f.error("perReplicaSignal", "give either perReplica or perReplicaSignal, not both");
        }
        if (budgetQuery != null && (f.has("budget") || f.has("budgetSignal"))) {
            f.error("budgetQuery", "give only one of budget, budgetSignal and budgetQuery");
        }
        if (perReplicaQuery != null && (f.has("perReplica") || f.has("perReplicaSignal"))) {
            f.error("perReplicaQuery", "give only one of perReplica, perReplicaSignal and perReplicaQuery");
        }
        if (!f.has("replicas") && !hasBudget && f.isMap()) {
            f.error("budget", queries == null ? "a ceiling needs replicas, budget or budgetSignal"
                    : "a ceiling needs replicas, budget, budgetSignal or budgetQuery");
        }
        boolean dynamic = budgetSignal != null || perReplicaSignal != null || budgetQuery != null
                || perReplicaQuery != null;
        if (dynamic && conservative == null && !f.has("conservativeReplicas")) {
            // Missing telemetry must fall back to a known limit, never to "unlimited" (design.md §3.5).
            f.error("conservativeReplicas", "is required when the ceiling reads a signal (used while it is missing)");
        }
        if (f.errors().count() > before) {
            return null;
        }
        if (replicas != null) {
            CeilingSpec.Source limit = f.buildAt("replicas", () -> CeilingSpec.Source.constant(replicas));
            return limit == null ? null
                    : f.build(() -> new CeilingSpec(name, limit, CeilingSpec.Source.constant(1), conservative));
        }
        CeilingSpec.Source b = budgetQuery != null
                ? CeilingSpec.Source.signal(queries.register(name, "budget", budgetQuery))
                : budgetSignal != null
                ? f.buildAt("budgetSignal", () -> CeilingSpec.Source.signal(SignalName.of(budgetSignal)))
                : f.buildAt("budget", () -> CeilingSpec.Source.constant(budget));
        CeilingSpec.Source per = perReplicaQuery != null
                ? CeilingSpec.Source.signal(queries.register(name, "perReplica", perReplicaQuery))
                : perReplicaSignal != null
                ? f.buildAt("perReplicaSignal", () -> CeilingSpec.Source.signal(SignalName.of(perReplicaSignal)))
                : perReplica != null ? f.buildAt("perReplica", () -> CeilingSpec.Source.constant(perReplica)) : null;
        if (b == null || (hasPer && per == null)) {
            return null;
        }
        return f.build(() -> new CeilingSpec(name, b, per, conservative));
    }

    /** A PromQL field: a non-blank string, or null (absent or recorded as a problem). */
    static String query(Fields f, String key) {
        String q = f.string(key);
        if (q != null && q.isBlank()) {
            f.error(key, "must not be blank");
            return null;
        }
        return q == null ? null : q.strip();
    }
}
