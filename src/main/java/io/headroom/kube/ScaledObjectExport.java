package io.headroom.kube;

import io.headroom.decision.SignalName;
import tools.jackson.core.JacksonException;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLGenerator;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.YamlQuoting;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PolicyWriter;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.ScheduledFloor;
import io.headroom.decision.Signals;
import io.headroom.config.UntrustedText;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.DayOfWeek;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A class's policy as a KEDA ScaledObject (the way back from {@link ScaledObjectImport}): what
 * KEDA can express, min/max, cooldown, polling interval, the HPA behaviour under
 * {@code advanced.horizontalPodAutoscalerConfig.behavior}, the fallback as the KEDA behaviour that
 * is Headroom's own ({@code currentReplicasIfHigher} with the floor, {@code currentReplicas}
 * without), a Prometheus trigger whose threshold reproduces Headroom's slot estimate at steady
 * state, and scheduled floors as cron triggers; what it cannot (the age term, ceilings, the
 * governor, D_eff) is said in comments. The class's own signals and policy ride along in the
 * {@value ScaledObjectImport#CLASS_ANNOTATION} annotation, so an import of the export is the class.
 *
 * <p>The trigger: KEDA's HPA asks for {@code ceil(value / threshold)} replicas. With the value
 * {@code λ × S + L × S / D} (busy slots plus the backlog drained in D, from the class's own PromQL)
 * and the threshold {@code u × k}, that is Headroom's {@code ceil((incoming + backlog) / u / k)}.
 */
public final class ScaledObjectExport {

    private ScaledObjectExport() {
    }

    /**
     * The ScaledObject and what it leaves out.
     *
     * @param object the ScaledObject as a map, ready to write as YAML or to apply
     * @param notes  what KEDA cannot express, in sentences
     */
    public record Export(Map<String, Object> object, List<String> notes) {
        public Export {
            notes = List.copyOf(notes);
        }

        /** Notes as comments, then the object. */
        public String toYaml() {
            StringBuilder sb = new StringBuilder();
            for (String n : notes) {
                sb.append("# ").append(n.replace("\n", " ")).append('\n');
            }
            try {
                ObjectMapper yaml = YAMLMapper.builder(YamlQuoting.factory())
                    .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
                        .enable(YAMLWriteFeature.MINIMIZE_QUOTES)
                        .enable(YAMLWriteFeature.LITERAL_BLOCK_STYLE)
                        .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).configureForJackson2().build();
                sb.append(yaml.writeValueAsString(object));
            } catch (JacksonException e) {
                throw new UncheckedIOException(new java.io.IOException(e));
            }
            return sb.toString();
        }
    }

    /**
     * @param name      the ScaledObject's name (the class's)
     * @param queries   the class's signal PromQL (signal name → query)
     * @param serverUrl the Prometheus server KEDA should ask
     */
    public static Export of(String name, WorkloadRef target, Policy p, Map<SignalName, String> queries, String serverUrl) {
        return of(name, target, p, queries, Map.of(), serverUrl);
    }

    /**
     * @param grouped the signals the class reads through a grouped query (each also in {@code queries} as its
     *                one-class form): KEDA asks the one-class query, and the annotation keeps the grouping
     */
    public static Export of(String name, WorkloadRef target, Policy p, Map<SignalName, String> queries,
                            Map<SignalName, GroupedQuery> grouped, String serverUrl) {
        List<String> notes = new ArrayList<>();
        notes.add("Exported from Headroom class " + name + "; review before applying. KEDA acts alone: nothing is"
                + " proposed or explained.");
        Map<String, Object> spec = new LinkedHashMap<>();
        Map<String, Object> ref = new LinkedHashMap<>();
        ref.put("kind", target.kind());
        ref.put("name", target.name());
        spec.put("scaleTargetRef", ref);
        spec.put("pollingInterval", (int) Math.max(1, Math.round(p.pollIntervalSeconds())));
        spec.put("cooldownPeriod", (int) Math.round(p.cooldownSeconds()));
        spec.put("minReplicaCount", p.minReplicas());
        spec.put("maxReplicaCount", p.maxReplicas());
        spec.put("fallback", fallback(p, notes));
        Map<String, Object> behavior = new LinkedHashMap<>();
        behavior.put("scaleUp", io.headroom.config.PolicyWriter.behavior(p.scaleUp()));
        behavior.put("scaleDown", io.headroom.config.PolicyWriter.behavior(p.scaleDown()));
        spec.put("advanced", Map.of("horizontalPodAutoscalerConfig", Map.of("behavior", behavior)));

        List<Object> triggers = new ArrayList<>();
        triggers.add(prometheusTrigger(p, queries, serverUrl, notes));
        for (ScheduledFloor f : p.scheduledFloors()) {
            triggers.add(cronTrigger(f, p));
        }
        spec.put("triggers", triggers);

        if (p.maxAgeSeconds() != null) {
            notes.add("not expressible in KEDA: the age objective (" + fmt(p.maxAgeSeconds()) + " s): no age term, no"
                    + " D_eff; the backlog is drained in D = " + fmt(p.drainTargetSeconds()) + " s whatever its age.");
            if (p.absorbStep() == null || p.absorbStep() > 1) {
                notes.add("not expressible in KEDA: the reaction-gap reserve (warm replicas a class whose new pods"
                        + " start too late for its objective holds to absorb a step"
                        + (p.absorbStep() == null ? "" : " of " + fmt(p.absorbStep()) + "×")
                        + "); minReplicaCount or a cron trigger can buy warm capacity by hand.");
            }
        }
        for (CeilingSpec c : p.ceilings()) {
            // Said as what it is (a budget and its per-replica amount), never flattened to a replica count.
            notes.add("not expressible in KEDA: ceiling " + c.name() + ", " + c.expression()
                    + (c.dynamic() ? " (fed by a signal)" : c.perReplica().constant() != 1
                    ? ": a budget KEDA cannot split per replica; maxReplicaCount could carry the lowest static"
                    + " ceiling, and would not follow the budget when it changes"
                    : "; maxReplicaCount could carry the lowest static ceiling"));
        }
        if (p.dependencyGuard() != null) {
            notes.add("not expressible in KEDA: the concurrency governor on " + p.dependencyGuard().label()
                    + " (KEDA keeps scaling up while the dependency saturates).");
        }
        notes.add("KEDA reads a missing Prometheus value as 0 unless ignoreNullValues is false (set below).");

        String objectName = objectName(name);
        if (!objectName.equals(name)) {
            notes.add(0, nameNote(name, objectName));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("name", objectName);
        metadata.put("namespace", target.namespace());
        metadata.put("labels", Map.of("app.kubernetes.io/managed-by", "headroom-export"));
        metadata.put("annotations", Map.of(ScaledObjectImport.CLASS_ANNOTATION,
                classAnnotation(objectName.equals(name) ? null : name, p, queries, grouped)));
        notes.add("annotation " + ScaledObjectImport.CLASS_ANNOTATION + " carries the class's own signals and policy"
                + " (KEDA ignores it): importing this ScaledObject back gives the same class.");
        Map<String, Object> so = new LinkedHashMap<>();
        so.put("apiVersion", "keda.sh/v1alpha1");
        so.put("kind", "ScaledObject");
        so.put("metadata", metadata);
        so.put("spec", spec);
        return new Export(so, notes);
    }

    private static Map<String, Object> prometheusTrigger(Policy p, Map<SignalName, String> queries, String serverUrl,
                                                         List<String> notes) {
        String l = queries.get(Signals.QUEUE_LENGTH);
        String lambda = queries.get(Signals.ARRIVAL_RATE);
        String s = queries.get(Signals.MEAN_SERVICE);
        String q = queries.get(Signals.QUEUED_SERVICE);
        String query;
        double threshold;
        if (lambda != null && s != null && (l != null || q != null)) {
            query = SlotsQuery.compose(new SlotsQuery.Parts(SlotsQuery.normalize(lambda), SlotsQuery.normalize(s),
                    q != null ? null : SlotsQuery.normalize(l), q == null ? null : SlotsQuery.normalize(q),
                    p.drainTargetSeconds()));
            threshold = p.targetUtilization() * p.slotsPerReplica();
            notes.add("trigger: busy slots plus the backlog drained in D (λ × S + Q / D), threshold u × k = "
                    + SlotsQuery.number(threshold) + ": KEDA's ceil(value / threshold) is Headroom's slot estimate at"
                    + " steady state.");
        } else if (l != null) {
            query = SlotsQuery.normalize(l);
            threshold = p.slotsPerReplica();
            notes.add("trigger: the class has no arrivalRate/meanService queries, so the trigger is the queue length"
                    + " with k = " + p.slotsPerReplica() + " waiting jobs per replica (KEDA's length rule).");
        } else {
            throw new IllegalArgumentException("the class reads no queueLength: KEDA needs a query to scale on");
        }
        Map<String, Object> md = new LinkedHashMap<>();
        md.put("serverAddress", serverUrl);
        md.put("query", query);
        md.put("threshold", SlotsQuery.number(threshold));
        md.put("ignoreNullValues", "false");
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("type", "prometheus");
        t.put("name", SlotsQuery.TRIGGER);
        t.put("metadata", md);
        return t;
    }

    /**
     * Headroom's fallback in KEDA's words. Headroom holds the current replicas on missing data and never
     * scales down on it; with a floor it raises them to the floor: KEDA's {@code currentReplicasIfHigher}
     * with the floor as {@code replicas} ({@code max(current, replicas)}, pkg/fallback/fallback.go), and
     * {@code currentReplicas} without one. KEDA falls back once its failures exceed
     * {@code failureThreshold}; Headroom's threshold counts the falling-back tick too: one less here.
     */
    private static Map<String, Object> fallback(Policy p, List<String> notes) {
        Integer floor = p.fallback().floorReplicas();
        Map<String, Object> fb = new LinkedHashMap<>();
        fb.put("failureThreshold", p.fallback().failureThreshold() - 1);
        if (floor != null) {
            fb.put("replicas", floor);
            fb.put("behavior", "currentReplicasIfHigher");
            notes.add("fallback: after " + (p.fallback().failureThreshold() - 1) + " failed reads KEDA keeps the current"
                    + " replicas, at least " + floor + " (currentReplicasIfHigher), as Headroom does on missing data"
                    + (p.minReplicas() == 0 && floor > 0 ? "; at 0 replicas KEDA's HPA is idle, so KEDA does not raise 0"
                    + " to " + floor + " as Headroom would" : "") + ".");
        } else {
            // currentReplicas ignores replicas, but a 0 there lets KEDA scale a failing workload to zero
            // (scale_scaledobjects.go: only a non-zero fallback.replicas holds it while the triggers fail).
            fb.put("replicas", Math.max(1, p.minReplicas()));
            fb.put("behavior", "currentReplicas");
            notes.add("fallback: after " + (p.fallback().failureThreshold() - 1) + " failed reads KEDA keeps the current"
                    + " replicas (currentReplicas), as Headroom does on missing data.");
        }
        return fb;
    }

    /** The class's standard signals and policy as compact JSON, for {@link ScaledObjectImport#CLASS_ANNOTATION}. */
    /**
     * The longest ScaledObject name KEDA accepts: it names its HPA {@code keda-hpa-NAME}, a DNS-1123 label of
     * at most 63 characters (KEDA's admission webhook refuses longer names; an older KEDA creates no HPA).
     */
    public static final int MAX_NAME = 63 - "keda-hpa-".length();
    private static final java.util.regex.Pattern DNS_LABEL = java.util.regex.Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    /**
     * A name KEDA accepts for the class {@code className}: the class's own when it is one (a DNS-1123 label of
     * at most {@link #MAX_NAME} characters), else the name lowercased, every run of other characters one '-',
     * cut to fit, and 8 hex digits of the class name's SHA-256 after it, so that two classes never share one.
     */
    public static String objectName(String className) {
        if (className.length() <= MAX_NAME && DNS_LABEL.matcher(className).matches()) {
            return className;
        }
        String plain = className.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
        String hash = java.util.HexFormat.of().formatHex(sha256(className), 0, 4);
        String head = plain.length() > MAX_NAME - 9 ? plain.substring(0, MAX_NAME - 9).replaceAll("-+$", "") : plain;
        return (head.isEmpty() ? "class" : head) + "-" + hash;
    }

    /** What a changed name is, in one sentence for the notes and standard error. */
    public static String nameNote(String className, String objectName) {
        return "metadata.name: the class name '" + UntrustedText.line(className, 80) + "' is not a name KEDA accepts"
                + " (lowercase letters, digits and '-', at most " + MAX_NAME + " characters: KEDA names its HPA"
                + " keda-hpa-NAME); exported as '" + objectName + "', and " + ScaledObjectImport.CLASS_ANNOTATION
                + " keeps the class's own name for import-keda";
    }

    private static byte[] sha256(String s) {
        try {
            return java.security.MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    private static String classAnnotation(String className, Policy p, Map<SignalName, String> queries,
                                          Map<SignalName, GroupedQuery> grouped) {
        Map<String, Object> signals = new LinkedHashMap<>(); // as the file writes them: by name
        queries.entrySet().stream()
                .filter(e -> WorkloadsFile.REQUIRED_SIGNALS.contains(e.getKey())
                        || WorkloadsFile.OPTIONAL_SIGNALS.contains(e.getKey()))
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> {
                    GroupedQuery g = grouped.get(e.getKey());
                    if (g == null) {
                        signals.put(e.getKey().id(), SlotsQuery.normalize(e.getValue()));
                    } else {
                        Map<String, Object> form = new LinkedHashMap<>();
                        form.put("grouped", g.promql());
                        form.put("by", g.by());
                        form.put("value", g.value());
                        signals.put(e.getKey().id(), form);
                    }
                });
        Map<String, Object> root = new LinkedHashMap<>();
        if (className != null) {
            root.put("class", className); // the ScaledObject's name is not the class's
        }
        root.put("signals", signals);
        root.put("policy", PolicyWriter.toMap(p));
        try {
            return JsonMapper.builder().configureForJackson2().build().writeValueAsString(root);
        } catch (JacksonException e) {
            throw new UncheckedIOException(new java.io.IOException(e));
        }
    }

    /** KEDA's cron scaler: {@code desiredReplicas} between start and end (cron expressions, a time zone). */
    private static Map<String, Object> cronTrigger(ScheduledFloor f, Policy p) {
        String days = cronDays(f);
        Map<String, Object> md = new LinkedHashMap<>();
        md.put("timezone", p.timeZone().getId());
        md.put("start", f.from().getMinute() + " " + f.from().getHour() + " * * " + days);
        md.put("end", f.to().getMinute() + " " + f.to().getHour() + " * * " + (f.to().isAfter(f.from()) ? days
                : shifted(f)));
        md.put("desiredReplicas", Integer.toString(f.replicas()));
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("type", "cron");
        t.put("name", "floor-" + f.dayRange().toLowerCase(Locale.ROOT).replaceAll("[^a-z]+", "-") + "-"
                + String.format(Locale.ROOT, "%02d%02d", f.from().getHour(), f.from().getMinute()));
        t.put("metadata", md);
        return t;
    }

    /** Cron day-of-week field: 0 = Sunday … 6 = Saturday. */
    static String cronDays(ScheduledFloor f) {
        List<String> out = new ArrayList<>();
        for (DayOfWeek d : DayOfWeek.values()) {
            if (f.days().contains(d)) {
                out.add(Integer.toString(d.getValue() % 7));
            }
        }
        return out.size() == 7 ? "*" : String.join(",", out);
    }

    /** The days a window past midnight ends on: the day after each start day. */
    private static String shifted(ScheduledFloor f) {
        List<String> out = new ArrayList<>();
        for (DayOfWeek d : DayOfWeek.values()) {
            if (f.days().contains(d)) {
                out.add(Integer.toString(d.plus(1).getValue() % 7));
            }
        }
        return String.join(",", out);
    }

    private static String fmt(double v) {
        return io.headroom.decision.Figures.fmt(v);
    }
}
