package io.headroom.baseline;

import io.headroom.decision.SignalName;
import io.headroom.decision.Admission;
import io.headroom.decision.Behaviour;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Figures;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.decision.Term;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rules Headroom is judged against (design.md §3a), by name: {@code keda:listLength=5} or
 * {@code hpa-cpu:target=70}. Each is a pure {@link Decider}, run through the same loop, sandbox
 * and behaviour normalisation as Headroom's own decision.
 */
public final class Baselines {

    private Baselines() {
    }

    /** A named rule: what {@code --baseline} printed it as, and the decider. */
    public record Named(String label, Decider decider) {
    }

    /**
     * Parses {@code keda:listLength=N[,activation=A][,inFlight=true|false][,ignoreNullValues=true|false]}
     * or {@code hpa-cpu[:target=P][,busyPodCpu=F]}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static Named parse(String spec) {
        String s = spec == null ? "" : spec.trim();
        int colon = s.indexOf(':');
        String kind = (colon < 0 ? s : s.substring(0, colon)).toLowerCase(Locale.ROOT);
        Map<String, String> opts = options(colon < 0 ? "" : s.substring(colon + 1), spec);
        switch (kind) {
            case "keda" -> {
                double listLength = number(opts, "listLength", Double.NaN, spec);
                if (Double.isNaN(listLength)) {
                    throw new IllegalArgumentException("baseline '" + spec + "': keda needs listLength=N");
                }
                KedaLengthRule r = new KedaLengthRule(listLength, number(opts, "activation", 0, spec),
                        bool(opts, "inFlight", false, spec), bool(opts, "ignoreNullValues", true, spec));
                unknown(opts, spec);
                return new Named(label(r), r);
            }
            case "hpa-cpu" -> {
                HpaCpuRule r = new HpaCpuRule(number(opts, "target", 70, spec) / 100.0,
                        number(opts, "busyPodCpu", HpaCpuRule.DEFAULT_BUSY_POD_CPU, spec));
                unknown(opts, spec);
                return new Named(label(r), r);
            }
            default -> throw new IllegalArgumentException("baseline '" + spec
                    + "': expected keda:listLength=N or hpa-cpu[:target=P]");
        }
    }

    /**
     * A rule's label: its kind, its target and every option that differs from the default, in a fixed order, so
     * two rules print apart exactly when they decide apart ({@code keda:listLength=5,inFlight=true}).
     */
    static String label(KedaLengthRule r) {
        StringBuilder b = new StringBuilder("keda:listLength=").append(Figures.fmt(r.listLength()));
        if (r.activation() != 0) {
            b.append(",activation=").append(Figures.fmt(r.activation()));
        }
        if (r.includeInFlight()) {
            b.append(",inFlight=true");
        }
        if (!r.ignoreNullValues()) {
            b.append(",ignoreNullValues=false");
        }
        return b.toString();
    }

    static String label(HpaCpuRule r) {
        String base = "hpa-cpu:target=" + Figures.fmt(r.target() * 100);
        return r.busyPodCpu() == HpaCpuRule.DEFAULT_BUSY_POD_CPU ? base
                : base + ",busyPodCpu=" + Figures.fmt(r.busyPodCpu());
    }

    /**
     * The past recommendations the HPA's windows read: a new autoscaler's window starts with the count it finds
     * ({@code recordInitialRecommendation} in the HPA), so the first tick holds it rather than dropping at once.
     */
    static List<ClassMemory.Stamped> recommendations(ClassMemory mem, int current, Instant now) {
        if (mem.lastTickAt() == null && mem.recommendations().isEmpty()) {
            return List.of(new ClassMemory.Stamped(now, current));
        }
        return mem.recommendations();
    }

    /**
     * Signals a rule does not decide on but a reader of its ticks wants beside Headroom's (the oldest age, the
     * arrival rate, the service time), as observed; nothing is judged on them.
     */
    static void observed(Observation obs, Policy p, Instant now, List<InputStatus> inputs) {
        for (SignalName name : List.of(Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE)) {
            if (inputs.stream().anyMatch(i -> i.name().equals(name))) {
                continue;
            }
            Signal s = obs.signal(name);
            if (!s.present()) {
                inputs.add(new InputStatus(name, s.notCollected() ? InputStatus.Status.NOT_COLLECTED
                        : InputStatus.Status.MISSING, Double.NaN, null, s.missingReason()));
            } else if (KedaLengthRule.seconds(s.sampledAt(), now) > 2 * p.pollIntervalSeconds()) {
                inputs.add(new InputStatus(name, InputStatus.Status.STALE, s.value(), s.sampledAt(), "stale"));
            } else {
                inputs.add(new InputStatus(name, InputStatus.Status.OK, s.value(), s.sampledAt(), null));
            }
        }
    }

    private static Map<String, String> options(String text, String spec) {
        Map<String, String> out = new LinkedHashMap<>();
        if (text.isBlank()) {
            return out;
        }
        for (String part : text.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("baseline '" + spec + "': '" + part.trim() + "' is not name=value");
            }
            out.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
        }
        return out;
    }

    private static double number(Map<String, String> opts, String name, double fallback, String spec) {
        String v = opts.remove(name);
        if (v == null) {
            return fallback;
        }
        try {
            double d = Double.parseDouble(v);
            if (!Double.isFinite(d)) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("baseline '" + spec + "': " + name + " must be a number, got '" + v + "'");
        }
    }

    private static boolean bool(Map<String, String> opts, String name, boolean fallback, String spec) {
        String v = opts.remove(name);
        if (v == null) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("baseline '" + spec + "': " + name + " must be true or false, got '" + v + "'");
    }

    private static void unknown(Map<String, String> left, String spec) {
        if (!left.isEmpty()) {
            throw new IllegalArgumentException("baseline '" + spec + "': unknown option " + left.keySet());
        }
    }

    /**
     * A baseline's outcome once the HPA's behaviour has normalised its recommendation into {@code n}: the
     * behaviour's terms, reasons and story after the rule's own, and its count as the desired one.
     */
    static Decision normalised(String cls, Instant now, Observation obs, Behaviour.Result n, double estimate,
                               List<Term> terms, List<Reason> reasons, List<String> story, List<InputStatus> inputs,
                               ClassMemory next) {
        terms.addAll(n.terms());
        reasons.addAll(n.reasons());
        story.addAll(n.story());
        int current = obs.currentReplicas();
        int result = n.replicas();
        terms.add(new Term("desired", result, "after the HPA's behaviour"));
        story.add(result == current ? "hold " + current : current + " → " + result);
        return decision(cls, now, obs, result, estimate, terms, reasons, inputs, String.join("; ", story), next);
    }

    /** A baseline's outcome in the shape every reader of decisions knows. */
    static Decision decision(String cls, Instant now, Observation obs, int desired, double estimate, List<Term> terms,
                             List<Reason> reasons, List<InputStatus> inputs, String explanation, ClassMemory next) {
        boolean missing = reasons.stream().anyMatch(r -> r.code() == Reason.Code.TELEMETRY_MISSING);
        return new Decision(cls, now, obs.currentReplicas(), obs.readyReplicas(), desired, Double.NaN, Double.NaN,
                null, null, null, desired, List.of(), null, false, missing, null, inputs, terms, reasons,
                Admission.unknown("a baseline gives no admission advice"), explanation, next, List.of());
    }
}
