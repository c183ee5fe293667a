package io.headroom.kube;

import io.headroom.decision.SignalName;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ConfigException;
import io.headroom.config.ConfigTree;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PolicyReader;
import io.headroom.config.PolicyWriter;
import io.headroom.config.PromqlGrouping;
import io.headroom.config.UntrustedText;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.ScheduledFloor;
import io.headroom.decision.Signals;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Turns KEDA ScaledObjects into Headroom classes for review, field by field as KEDA means them
 * ({@code docs/compatibility.md}, "KEDA ScaledObjects"): min/max, cooldown, polling interval, the
 * HPA behaviour, the fallback (its behaviour included) and cron triggers (scheduled floors and
 * their time zone) map to policy fields; the first Prometheus or Redis-list trigger becomes the
 * queue-length signal; Headroom's own export comes back whole (its slots query taken apart, its
 * {@value #CLASS_ANNOTATION} annotation read). Every other field, and every pause annotation, is
 * named in a note on the class: nothing is dropped without a word. An object that cannot become a
 * class is {@link Skipped} with the reason, and the others are imported. Several ScaledObjects whose
 * queries differ only in one label's value share one grouped query ({@link #grouped}).
 */
public final class ScaledObjectImport {
    /** A Headroom export's own signals and policy (JSON), which KEDA ignores: the way back is exact. */
    public static final String CLASS_ANNOTATION = "headroom.io/class";

    static final ObjectMapper JSON = JsonMapper.builder().configureForJackson2().build();

    private ScaledObjectImport() {
    }

    /** A ScaledObject that could not become a class: {@code shop/orders} and why, in words. */
    public record Skipped(String object, String why) {
        public String line() {
            return object + ": " + why;
        }
    }

    /** A namespace's ScaledObjects: the classes they became, and those that could not become one. */
    public record Listing(List<ImportedClass> imported, List<Skipped> skipped) {
        public Listing {
            imported = List.copyOf(imported);
            skipped = List.copyOf(skipped);
        }
    }

    /**
     * How much of a namespace import-keda reads: pages of {@code pageSize} objects, at most {@code maxObjects}
     * in all (more than a workloads file may hold as classes is refused), none larger than
     * {@code maxObjectBytes} (skipped by name).
     */
    public record Limits(int pageSize, int maxObjects, int maxObjectBytes) {
        /** Pages of 250; a workloads file's {@value WorkloadsFile#MAX_CLASSES} classes; 256 KiB an object (KEDA's are a few). */
        public static final Limits DEFAULT = new Limits(250, WorkloadsFile.MAX_CLASSES, 256 * 1024);
    }

    /**
     * Every ScaledObject in {@code namespace} of the connection's cluster, read in pages ({@link Limits#DEFAULT});
     * an empty listing when KEDA is not installed there.
     */
    public static Listing listIn(KubeConnection connection, String namespace) {
        return listIn(connection, namespace, Limits.DEFAULT);
    }

    /** {@link #listIn(KubeConnection, String)} within {@code limits} ({@link ScaledObjectPages}). */
    public static Listing listIn(KubeConnection connection, String namespace, Limits limits) {
        return ScaledObjectPages.read(connection, namespace, limits);
    }

    /** The objects imported one by one: a bad one is skipped with its reason, the others are imported. */
    public static Listing of(List<GenericKubernetesResource> objects, String context) {
        List<ImportedClass> out = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (GenericKubernetesResource so : objects) {
            try {
                out.add(from(so, context));
            } catch (IllegalArgumentException e) {
                skipped.add(new Skipped(objectName(so), e.getMessage()));
            } catch (RuntimeException e) {
                // A shape nobody planned for: said plainly, never as a stack trace or a class name.
                skipped.add(new Skipped(objectName(so), "its spec could not be read"));
            }
        }
        return new Listing(grouped(out), skipped);
    }

    private static String objectName(GenericKubernetesResource so) {
        String ns = so.getMetadata() == null ? null : so.getMetadata().getNamespace();
        String name = so.getMetadata() == null ? null : so.getMetadata().getName();
        return UntrustedText.line((ns == null ? "default" : ns) + "/" + (name == null ? "(no name)" : name), 300);
    }

    /**
     * The imported classes with their queries written as grouped queries where several classes'
     * queries are one query by some label ({@code sum(x{queue="a"})} and {@code sum(x{queue="b"})}
     * become {@code sum by (queue) (x)} picking {@code a} and {@code b}; see {@link PromqlGrouping}):
     * one request per tick for all of them instead of one each. A query no other class shares, or
     * that cannot be grouped exactly, stays the class's own.
     */
    public static List<ImportedClass> grouped(List<ImportedClass> classes) {
        List<String> queries = new ArrayList<>();
        for (ImportedClass c : classes) {
            if (!c.ownExport()) {
                queries.addAll(c.signals().values());
            }
        }
        Map<String, GroupedQuery> shared = PromqlGrouping.shared(queries);
        if (shared.isEmpty()) {
            return classes;
        }
        Map<GroupedQuery.Key, Long> users = new java.util.HashMap<>();
        for (ImportedClass c : classes) {
            if (!c.ownExport()) {
                c.signals().values().stream().distinct().map(shared::get).filter(Objects::nonNull)
                        .forEach(g -> users.merge(g.key(), 1L, Long::sum));
            }
        }
        List<ImportedClass> out = new ArrayList<>();
        for (ImportedClass c : classes) {
            if (c.ownExport()) {
                out.add(c); // grouped as the operator wrote it
                continue;
            }
            Map<SignalName, GroupedQuery> grouped = new LinkedHashMap<>();
            List<String> notes = new ArrayList<>(c.notes());
            c.signals().forEach((signal, q) -> {
                GroupedQuery g = shared.get(q);
                if (g != null) {
                    grouped.put(signal, g);
                    notes.add("signal " + signal + " → grouped query by " + g.by() + " (value " + g.value()
                            + "), shared with " + (users.get(g.key()) - 1) + " other imported class(es): one"
                            + " request per tick for all of them; the ScaledObject's own query was " + q + ".");
                }
            });
            out.add(grouped.isEmpty() ? c
                    : new ImportedClass(c.name(), c.target(), c.policy(), c.signals(), notes, grouped, c.pause(), false));
        }
        return out;
    }

    /**
     * One ScaledObject as a class.
     *
     * @throws IllegalArgumentException when it cannot become one (no target, a target Headroom cannot
     *                                  scale, values KEDA or Headroom refuse), saying why in words
     */
    public static ImportedClass from(GenericKubernetesResource so, String context) {
        return new Reading(so, context).read();
    }

    /** One ScaledObject being read: what it maps to, what is said about the rest, and which fields were seen. */
    private static final class Reading {
        private final GenericKubernetesResource so;
        private final String context;
        private final String ns;
        private final Map<String, Object> spec;
        private final List<String> notes = new ArrayList<>();
        private final Set<String> handled = new HashSet<>();
        private final Policy.Builder b = Policy.defaults().toBuilder();
        private final Map<SignalName, String> signals = new LinkedHashMap<>();
        private final List<ScheduledFloor> floors = new ArrayList<>();
        private ZoneId zone;
        /** The slots trigger's threshold (u × k) and D, when the object is Headroom's own export. */
        private String slotsThreshold;
        private Double slotsDrain;

        Reading(GenericKubernetesResource so, String context) {
            this.so = so;
            this.context = context;
            this.ns = so.getMetadata().getNamespace() == null ? "default" : so.getMetadata().getNamespace();
            Object s = so.getAdditionalProperties().get("spec");
            if (!(s instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("it has no spec");
            }
            this.spec = Maps.map(so.getAdditionalProperties(), "spec");
        }

        ImportedClass read() {
            String name = so.getMetadata().getName();
            WorkloadRef target = target();
            notes.add("Imported from KEDA ScaledObject " + ns + "/" + name + "; review before saving. While KEDA still"
                    + " manages the workload, Headroom acts through " + Autoscalers.PAUSED_REPLICAS + ".");
            Map<String, String> annotations = so.getMetadata().getAnnotations() == null ? Map.of()
                    : so.getMetadata().getAnnotations();
            KedaPause pause = KedaPause.of(annotations);
            if (pause != null) {
                notes.add(pause.describe());
            }
            annotations(annotations);
            replicas();
            timing();
            fallback();
            advanced();
            HeadroomClass own = HeadroomClass.of(annotations.get(CLASS_ANNOTATION), notes);
            triggers();
            if (!floors.isEmpty()) {
                b.scheduledFloors(floors);
                b.timeZone(zone);
            }
            restore(own);
            unknownFields();
            if (!signals.containsKey(Signals.QUEUE_LENGTH)) {
                notes.add("no queue-length trigger found: add a queueLength signal before saving.");
            }
            Policy policy;
            try {
                policy = b.build();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
            readable(policy);
            Map<SignalName, GroupedQuery> grouped = new LinkedHashMap<>();
            if (own != null) {
                // A signal grouped in the exported class stays grouped, with its own one-class query.
                own.grouped().forEach((signal, g) -> {
                    if (Objects.equals(signals.get(signal), g.perClass())) {
                        grouped.put(signal, g);
                    }
                });
            }
            if (own != null && own.className() != null && !own.className().equals(name)) {
                notes.add("class name '" + own.className() + "' from " + CLASS_ANNOTATION + " (the ScaledObject is named "
                        + name + ", as KEDA needs)");
                name = own.className();
            }
            return new ImportedClass(name, target, policy, signals, notes, grouped, pause, own != null);
        }

        // ------------------------------------------------------------------ fields

        private WorkloadRef target() {
            handled.add("scaleTargetRef.name");
            handled.add("scaleTargetRef.kind");
            String targetName = text(Maps.at(spec, "scaleTargetRef", "name"));
            if (targetName == null || targetName.isBlank()) {
                throw new IllegalArgumentException("it has no scaleTargetRef.name");
            }
            String kind = text(Maps.at(spec, "scaleTargetRef", "kind"));
            if (kind == null) {
                kind = "Deployment";
            }
            if (!kind.equals("Deployment") && !kind.equals("StatefulSet")) {
                throw new IllegalArgumentException("it scales a " + UntrustedText.line(kind, 60) + "; Headroom scales"
                        + " Deployments and StatefulSets");
            }
            String apiVersion = text(Maps.at(spec, "scaleTargetRef", "apiVersion"));
            handled.add("scaleTargetRef.apiVersion");
            if (apiVersion != null && !apiVersion.equals("apps/v1")) {
                notes.add("scaleTargetRef.apiVersion " + UntrustedText.line(apiVersion, 60) + ": Headroom scales the"
                        + " apps/v1 " + kind + " of that name.");
            }
            String container = text(Maps.at(spec, "scaleTargetRef", "envSourceContainerName"));
            handled.add("scaleTargetRef.envSourceContainerName");
            if (container != null) {
                notes.add("scaleTargetRef.envSourceContainerName " + UntrustedText.line(container, 60) + ": KEDA reads"
                        + " trigger settings from that container's environment; Headroom reads nothing from the pods'"
                        + " environment (its queries are in the workloads file).");
            }
            return new WorkloadRef(context, ns, kind, targetName);
        }

        private void annotations(Map<String, String> annotations) {
            for (Map.Entry<String, String> e : annotations.entrySet()) {
                String k = e.getKey();
                if (k.equals(KedaPause.PAUSED) || k.equals(KedaPause.PAUSED_REPLICAS) || k.equals(KedaPause.PAUSED_SCALE_IN)
                        || k.equals(KedaPause.PAUSED_SCALE_OUT) || k.equals(CLASS_ANNOTATION)) {
                    continue; // the pause above; Headroom's own class below
                }
                if (k.equals("autoscaling.keda.sh/force-activation")) {
                    if (!List.of("0", "f", "F", "false", "FALSE", "False").contains(e.getValue())) {
                        notes.add("annotation autoscaling.keda.sh/force-activation: KEDA treats every trigger as active"
                                + " and keeps the workload above zero; Headroom has no such switch (raise minReplicas"
                                + " while it matters).");
                    }
                } else if (k.startsWith("scaledobject.keda.sh/") || k.startsWith("validations.keda.sh/")) {
                    notes.add("annotation " + UntrustedText.line(k, 100) + " concerns the HPA KEDA creates; Headroom"
                            + " creates none: not imported.");
                } else if (k.startsWith("autoscaling.keda.sh/")) {
                    notes.add("annotation " + UntrustedText.line(k, 100) + " is not known to this import: not imported.");
                }
            }
        }

        private void replicas() {
            Integer min = whole("minReplicaCount", 0);
            Integer max = whole("maxReplicaCount", 1);
            if (min != null && min > (max == null ? 100 : max)) {
                throw new IllegalArgumentException("minReplicaCount " + min + " is above maxReplicaCount "
                        + (max == null ? "(100 by default)" : max));
            }
            b.minReplicas(min == null ? 0 : min);
            b.maxReplicas(max == null ? 100 : max);
            if (min == null || max == null) {
                notes.add("KEDA defaults used where the ScaledObject is silent: minReplicaCount 0, maxReplicaCount 100.");
            }
            Integer idle = whole("idleReplicaCount", 0);
            // CheckReplicaCountBoundsAreValid: a set minReplicaCount counts as at least 1 here, an unset one as 0.
            int idleBound = min == null ? 0 : Math.max(1, min);
            if (idle != null && idle >= idleBound) {
                throw new IllegalArgumentException("idleReplicaCount " + idle + " must be less than minReplicaCount "
                        + idleBound + " (KEDA refuses it)");
            }
            if (idle != null) {
                notes.add("idleReplicaCount " + idle + ": KEDA scales to " + idle + " when no trigger is active (after"
                        + " cooldownPeriod) and straight back to minReplicaCount " + (min == null ? 0 : min)
                        + " on activity; Headroom has no idle count: it holds minReplicas " + (min == null ? 0 : min)
                        + " (set minReplicas 0 to let it scale to zero after the cooldown).");
            }
        }

        private void timing() {
            Integer cooldown = whole("cooldownPeriod", 0);
            b.cooldownSeconds(cooldown == null ? 300 : cooldown);
            Integer poll = whole("pollingInterval", 1);
            b.pollIntervalSeconds(poll == null ? 30 : poll);
            Integer initial = whole("initialCooldownPeriod", 0);
            if (initial != null) {
                notes.add("initialCooldownPeriod " + initial + " s: KEDA waits that long after the ScaledObject is"
                        + " created before a first scale to zero when no trigger was ever active; Headroom starts its"
                        + " cooldown (" + (cooldown == null ? 300 : cooldown) + " s) when it starts watching the class,"
                        + " so its first scale to zero comes no sooner than that after start.");
            }
        }

        private void fallback() {
            Object fb = spec.get("fallback");
            handled.add("fallback");
            if (fb == null) {
                return;
            }
            if (!(fb instanceof Map<?, ?>)) {
                throw new IllegalArgumentException("fallback is not a map");
            }
            Integer threshold = whole(Maps.at(fb, "failureThreshold"), "fallback.failureThreshold", 0);
            Integer replicas = whole(Maps.at(fb, "replicas"), "fallback.replicas", 0);
            if (threshold == null || replicas == null) {
                throw new IllegalArgumentException("fallback needs failureThreshold and replicas (KEDA requires both)");
            }
            // CheckFallbackValid: without scalingModifiers, a trigger other than cpu or memory must carry it.
            boolean carried = !Maps.map(spec, "advanced", "scalingModifiers").isEmpty() || Maps.list(spec, "triggers")
                    .stream().anyMatch(t -> !List.of("cpu", "memory").contains(String.valueOf(Maps.at(t, "type"))));
            if (!carried) {
                throw new IllegalArgumentException("its fallback needs a trigger other than cpu or memory (KEDA refuses"
                        + " it)");
            }
            String behavior = text(Maps.at(fb, "behavior"));
            String bh = behavior == null ? "static" : behavior;
            if (threshold + 1 > PolicyReader.MAX_FAILURE_THRESHOLD) {
                throw new IllegalArgumentException("fallback.failureThreshold " + threshold + " is above what Headroom"
                        + " accepts (" + (PolicyReader.MAX_FAILURE_THRESHOLD - 1) + ")");
            }
            // KEDA falls back once the failures exceed the threshold (fallback.go: failures > failureThreshold);
            // Headroom's count includes the tick that falls back.
            int t = threshold + 1;
            String counting = "after " + threshold + " failed read" + (threshold == 1 ? "" : "s") + " KEDA falls back on"
                    + " the next; Headroom counts that tick too: failureThreshold " + t;
            Integer min = wholeOrNull("minReplicaCount");
            String zero = replicas > 0 && (min == null || min == 0)
                    ? " (at 0 replicas KEDA's HPA is idle and applies no fallback; Headroom raises 0 to the floor too)" : "";
            switch (bh) {
                case "static" -> {
                    b.fallback(new Fallback(t, replicas));
                    notes.add("fallback (static): KEDA moves to exactly " + replicas + " replicas on missing data, down as"
                            + " well as up; Headroom never scales down on missing data: it holds the current count and"
                            + " raises it to floorReplicas " + replicas + " (what KEDA calls currentReplicasIfHigher); "
                            + counting + zero + ".");
                }
                case "currentReplicas" -> {
                    b.fallback(new Fallback(t, null));
                    notes.add("fallback (currentReplicas): KEDA keeps the current replicas on missing data, as Headroom"
                            + " does (no floor; KEDA ignores replicas " + replicas + " here); " + counting + ".");
                }
                case "currentReplicasIfHigher" -> {
                    b.fallback(new Fallback(t, replicas));
                    notes.add("fallback (currentReplicasIfHigher): the current replicas, at least " + replicas
                            + ", as Headroom's floorReplicas " + replicas + "; " + counting + zero + ".");
                }
                case "currentReplicasIfLower" -> {
                    b.fallback(new Fallback(t, null));
                    notes.add("fallback (currentReplicasIfLower): KEDA lowers the replicas to " + replicas + " when there"
                            + " are more; Headroom never scales down on missing data and holds them (no floor: "
                            + replicas + " is a cap here, not a floor); " + counting + ".");
                }
                case "scalingModifiers" -> {
                    b.fallback(new Fallback(t, replicas));
                    notes.add("fallback (scalingModifiers): KEDA passes a failing trigger to its formula as nil and uses "
                            + replicas + " replicas when the formula gives nothing; Headroom has no formula: it holds the"
                            + " current count and raises it to floorReplicas " + replicas + "; " + counting + ".");
                }
                default -> throw new IllegalArgumentException("fallback.behavior \"" + UntrustedText.line(bh, 60)
                        + "\" is none of KEDA's (static, currentReplicas, currentReplicasIfHigher,"
                        + " currentReplicasIfLower, scalingModifiers)");
            }
            for (Object k : ((Map<?, ?>) fb).keySet()) {
                if (!List.of("failureThreshold", "replicas", "behavior").contains(String.valueOf(k))) {
                    notes.add("fallback." + UntrustedText.line(String.valueOf(k), 60) + " is not known to this import:"
                            + " not imported.");
                }
            }
        }

        private void advanced() {
            Map<String, Object> hpa = Maps.map(spec, "advanced", "horizontalPodAutoscalerConfig");
            Map<String, Object> behavior = Maps.map(hpa, "behavior");
            handled.add("advanced.horizontalPodAutoscalerConfig.behavior.scaleUp");
            handled.add("advanced.horizontalPodAutoscalerConfig.behavior.scaleDown");
            b.scaleUp(direction("scaleUp", Maps.map(behavior, "scaleUp"), ScalingBehavior.defaultUp()));
            b.scaleDown(direction("scaleDown", Maps.map(behavior, "scaleDown"), ScalingBehavior.defaultDown()));
            String hpaName = text(hpa.get("name"));
            handled.add("advanced.horizontalPodAutoscalerConfig.name");
            if (hpaName != null) {
                notes.add("horizontalPodAutoscalerConfig.name " + UntrustedText.line(hpaName, 100) + ": the name of the"
                        + " HPA KEDA creates; Headroom creates no HPA (while KEDA runs, the console reads KEDA's HPA"
                        + " by this name).");
            }
            Object restore = Maps.at(spec, "advanced", "restoreToOriginalReplicaCount");
            handled.add("advanced.restoreToOriginalReplicaCount");
            if (Boolean.TRUE.equals(restore) || "true".equals(restore)) {
                notes.add("restoreToOriginalReplicaCount true: when this ScaledObject is deleted KEDA puts the workload"
                        + " back to the replicas it had before KEDA took it; Headroom has no such step: removing the"
                        + " class leaves the replicas as they are (hand back on exit is the console's own question).");
            }
            Map<String, Object> modifiers = Maps.map(spec, "advanced", "scalingModifiers");
            handled.add("advanced.scalingModifiers");
            if (!modifiers.isEmpty()) {
                notes.add("advanced.scalingModifiers (formula " + quoted(modifiers.get("formula")) + ", target "
                        + quoted(modifiers.get("target"))
                        + (modifiers.get("activationTarget") == null ? "" : ", activationTarget "
                        + quoted(modifiers.get("activationTarget")))
                        + (modifiers.get("metricType") == null ? "" : ", metricType " + quoted(modifiers.get("metricType")))
                        + "): KEDA scales on the formula's value over its triggers, not on each trigger; Headroom has"
                        + " no formulas: the triggers below were read one by one, so check the queueLength signal"
                        + " measures the waiting work the formula stood for.");
            }
        }

        /** One direction of the HPA behaviour, read with the HPA's own rules; absent parts keep the HPA defaults (Headroom's). */
        private ScalingBehavior direction(String which, Map<String, Object> m, ScalingBehavior base) {
            String at = "advanced.horizontalPodAutoscalerConfig.behavior." + which;
            if (m.isEmpty()) {
                return base;
            }
            Integer window = whole(m.get("stabilizationWindowSeconds"), at + ".stabilizationWindowSeconds", 0);
            if (window != null && window > 3600) {
                throw new IllegalArgumentException(at + ".stabilizationWindowSeconds " + window + " is above 3600 (the"
                        + " HPA's limit)");
            }
            String select = text(m.get("selectPolicy"));
            ScalingBehavior.SelectPolicy sel;
            if (select == null) {
                sel = base.select();
            } else {
                sel = switch (select) {
                    case "Max" -> ScalingBehavior.SelectPolicy.MAX;
                    case "Min" -> ScalingBehavior.SelectPolicy.MIN;
                    case "Disabled" -> ScalingBehavior.SelectPolicy.DISABLED;
                    default -> throw new IllegalArgumentException(at + ".selectPolicy \"" + UntrustedText.line(select, 40)
                            + "\" is none of the HPA's (Max, Min, Disabled)");
                };
            }
            List<ScalingRule> rules = base.rules();
            Object policies = m.get("policies");
            if (policies instanceof List<?> list && !list.isEmpty()) {
                rules = new ArrayList<>();
                int i = 0;
                for (Object p : list) {
                    String path = at + ".policies[" + i++ + "]";
                    String type = text(Maps.at(p, "type"));
                    ScalingRule.Type t = switch (String.valueOf(type)) {
                        case "Pods" -> ScalingRule.Type.PODS;
                        case "Percent" -> ScalingRule.Type.PERCENT;
                        default -> throw new IllegalArgumentException(path + ".type \"" + UntrustedText.line(
                                String.valueOf(type), 40) + "\" is neither Pods nor Percent");
                    };
                    Integer value = whole(Maps.at(p, "value"), path + ".value", 1);
                    Integer period = whole(Maps.at(p, "periodSeconds"), path + ".periodSeconds", 1);
                    if (value == null || period == null) {
                        throw new IllegalArgumentException(path + " needs value and periodSeconds");
                    }
                    if (period > 1800) {
                        throw new IllegalArgumentException(path + ".periodSeconds " + period + " is above 1800 (the"
                                + " HPA's limit)");
                    }
                    rules.add(new ScalingRule(t, value, period));
                }
            }
            Object tolerance = m.get("tolerance");
            if (tolerance != null) {
                notes.add(which + ".tolerance " + UntrustedText.line(String.valueOf(tolerance), 20) + ": the HPA changes"
                        + " nothing while the metric is within that share of its target (the cluster's default is"
                        + " 10 %); Headroom has no tolerance band: it acts on the slot estimate itself, and the"
                        + " stabilisation windows damp flapping.");
            }
            for (String k : m.keySet()) {
                if (!List.of("stabilizationWindowSeconds", "selectPolicy", "policies", "tolerance").contains(k)) {
                    notes.add(at + "." + UntrustedText.line(k, 60) + " is not known to this import: not imported.");
                }
            }
            if (rules.isEmpty() && sel != ScalingBehavior.SelectPolicy.DISABLED) {
                rules = base.rules();
            }
            return new ScalingBehavior(window == null ? base.stabilizationWindowSeconds() : window, rules, sel);
        }

        // ------------------------------------------------------------------ triggers

        private void triggers() {
            handled.add("triggers");
            Object list = spec.get("triggers");
            if (list != null && !(list instanceof List<?>)) {
                throw new IllegalArgumentException("triggers is not a list");
            }
            int n = 0;
            for (Object t : Maps.list(spec, "triggers")) {
                n++;
                if (!(t instanceof Map<?, ?>)) {
                    throw new IllegalArgumentException("trigger " + n + " is not a map");
                }
                String type = text(Maps.at(t, "type"));
                if (type == null || type.isBlank()) {
                    throw new IllegalArgumentException("trigger " + n + " has no type (KEDA requires one)");
                }
                String label = type + " trigger " + (text(Maps.at(t, "name")) == null ? n
                        : "'" + UntrustedText.line(text(Maps.at(t, "name")), 60) + "'");
                Map<String, Object> md = Maps.map(t, "metadata");
                switch (type) {
                    case "prometheus" -> prometheus(t, md, label);
                    case "redis", "redis-cluster", "redis-sentinel" -> redis(t, md, label);
                    case "cron" -> cron(md, label);
                    case "cpu", "memory" -> notes.add(label + " (" + settings(md) + ") was not imported: Headroom scales"
                            + " on the queue's work, not on the pods' " + type + ".");
                    default -> notes.add(label + " was not imported: Headroom has no signal for a " + type
                            + " trigger yet (read that source through Prometheus and add it as a signal).");
                }
                for (Object k : ((Map<?, ?>) t).keySet()) {
                    if (!List.of("type", "name", "metadata", "metricType", "useCachedMetrics", "authenticationRef")
                            .contains(String.valueOf(k))) {
                        notes.add(label + ": " + UntrustedText.line(String.valueOf(k), 60) + " is not known to this"
                                + " import: not imported.");
                    }
                }
            }
        }

        private void prometheus(Object t, Map<String, Object> md, String label) {
            String query = SlotsQuery.normalize(text(md.get("query")));
            String threshold = text(md.get("threshold"));
            if (query == null || query.isBlank()) {
                notes.add(label + " was not imported: it has no query (KEDA refuses it too).");
                return;
            }
            if (signals.containsKey(Signals.QUEUE_LENGTH) || signals.containsKey(Signals.QUEUED_SERVICE)) {
                notes.add(label + " was not imported: KEDA scales on the highest demand among its triggers, and"
                        + " Headroom reads one queue (this trigger's query: " + query + ", threshold " + threshold
                        + "); add it as a signal or a ceiling by hand if it matters.");
                return;
            }
            List<String> parts = new ArrayList<>();
            var own = SlotsQuery.TRIGGER.equals(text(Maps.at(t, "name"))) ? SlotsQuery.parse(query)
                    : java.util.Optional.<SlotsQuery.Parts>empty();
            if (own.isPresent()) {
                SlotsQuery.Parts p = own.get();
                signals.put(Signals.ARRIVAL_RATE, p.arrivalRate());
                signals.put(Signals.MEAN_SERVICE, p.meanService());
                if (p.queueLength() != null) {
                    signals.put(Signals.QUEUE_LENGTH, p.queueLength());
                } else {
                    signals.put(Signals.QUEUED_SERVICE, p.queuedService());
                }
                slotsDrain = p.drainSeconds();
                slotsThreshold = threshold;
                parts.add("Headroom's own slots query (λ × S + backlog / D): arrivalRate, meanService and "
                        + (p.queueLength() != null ? "queueLength" : "queuedServiceSeconds")
                        + " come back as signals, D = " + SlotsQuery.number(p.drainSeconds())
                        + " s as drainTargetSeconds, and its threshold " + threshold
                        + " as targetUtilization × slotsPerReplica");
            } else {
                signals.put(Signals.QUEUE_LENGTH, query);
                parts.add("→ signal queueLength (check it counts waiting jobs); KEDA's threshold " + threshold
                        + " per replica is replaced by Headroom's slot estimate (set slotsPerReplica to the worker's"
                        + " concurrency, and add arrivalRate, meanService and oldestAge signals)");
                String metricType = text(Maps.at(t, "metricType"));
                if ("Value".equals(metricType)) {
                    parts.add("metricType Value (KEDA scales current replicas × value / threshold): replaced too");
                }
            }
            String server = text(md.get("serverAddress"));
            if (server != null) {
                parts.add("serverAddress " + UntrustedText.line(server.replaceAll("(://)[^/@\\s]*@", "$1(redacted)@"), 200)
                        + ": KEDA asks that Prometheus; Headroom asks the workloads file's prometheus.url");
            }
            String activation = text(md.get("activationThreshold"));
            if (activation != null) {
                parts.add("activationThreshold " + activation + ": KEDA wakes the workload from zero only above it;"
                        + " Headroom starts a replica as soon as one job waits");
            }
            String nulls = text(md.get("ignoreNullValues"));
            if (nulls == null || !nulls.equalsIgnoreCase("false")) {
                parts.add("KEDA reads an empty answer as 0 (ignoreNullValues " + (nulls == null ? "true, its default"
                        : nulls) + "); Headroom treats it as missing data and holds the replicas");
            }
            extras(t, md, List.of("query", "threshold", "serverAddress", "activationThreshold", "ignoreNullValues"),
                    parts, "Prometheus with the workloads file's credentials");
            notes.add(label + ": " + String.join("; ", parts) + ".");
        }

        private void redis(Object t, Map<String, Object> md, String label) {
            String list = text(md.get("listName"));
            String key = list == null ? "QUEUE" : list;
            if (signals.containsKey(Signals.QUEUE_LENGTH) || signals.containsKey(Signals.QUEUED_SERVICE)) {
                notes.add(label + " on list '" + UntrustedText.line(key, 100) + "' was not imported: KEDA scales on the"
                        + " highest demand among its triggers, and Headroom reads one queue; add it by hand if it"
                        + " matters.");
                return;
            }
            signals.put(Signals.QUEUE_LENGTH, "redis_key_size{key=\"" + key.replace("\\", "\\\\").replace("\"", "\\\"")
                    + "\"}");
            List<String> parts = new ArrayList<>();
            parts.add("listLength " + text(md.get("listLength")) + " per replica on list '" + UntrustedText.line(key, 100)
                    + "' → queueLength. Headroom reads queues through Prometheus: the query assumes redis_exporter"
                    + " with --check-single-keys including " + UntrustedText.line(key, 100) + "; adjust it to your"
                    + " exporter");
            String activation = text(md.get("activationListLength"));
            if (activation != null) {
                parts.add("activationListLength " + activation + ": KEDA wakes the workload from zero only above it;"
                        + " Headroom starts a replica as soon as one job waits");
            }
            extras(t, md, List.of("listName", "listLength", "activationListLength"), parts,
                    "the queue through the workloads file's Prometheus");
            notes.add(label + ": " + String.join("; ", parts) + ".");
        }

        /** Trigger settings with no counterpart, named (never their values: they may be secrets). */
        private void extras(Object t, Map<String, Object> md, List<String> mapped, List<String> parts, String reads) {
            List<String> other = new ArrayList<>();
            for (String k : md.keySet()) {
                if (!mapped.contains(k)) {
                    other.add(UntrustedText.line(k, 60));
                }
            }
            if (!other.isEmpty()) {
                parts.add("settings not carried over: " + String.join(", ", other));
            }
            String auth = text(Maps.at(t, "authenticationRef", "name"));
            if (auth != null) {
                parts.add("its TriggerAuthentication '" + UntrustedText.line(auth, 100) + "' is not read: Headroom reads "
                        + reads);
            }
            Object cached = Maps.at(t, "useCachedMetrics");
            if (Boolean.TRUE.equals(cached) || "true".equals(cached)) {
                parts.add("useCachedMetrics: Headroom reads each query once per tick anyway");
            }
        }

        private void cron(Map<String, Object> md, String label) {
            String tz = text(md.get("timezone"));
            String start = text(md.get("start"));
            String end = text(md.get("end"));
            String desired = text(md.get("desiredReplicas"));
            String what = label + " (" + UntrustedText.line(String.valueOf(start), 60) + " → "
                    + UntrustedText.line(String.valueOf(end), 60) + (tz == null ? "" : " " + UntrustedText.line(tz, 60))
                    + ")";
            if (tz == null || tz.isBlank() || start == null || end == null || desired == null) {
                notes.add(what + " was not imported: KEDA needs timezone, start, end and desiredReplicas, and refuses it"
                        + " too.");
                return;
            }
            int replicas;
            try {
                replicas = Integer.parseInt(desired.strip());
            } catch (NumberFormatException e) {
                notes.add(what + " was not imported: desiredReplicas \"" + UntrustedText.line(desired, 40) + "\" is not a"
                        + " whole number.");
                return;
            }
            if (replicas <= 0) {
                notes.add(what + " was not imported: desiredReplicas " + replicas + " is no floor (KEDA refuses 0).");
                return;
            }
            ZoneId z;
            try {
                z = tz.equals("UTC") ? java.time.ZoneOffset.UTC : ZoneId.of(tz);
            } catch (DateTimeException e) {
                notes.add(what + " was not imported: the time zone '" + UntrustedText.line(tz, 60) + "' is unknown (KEDA"
                        + " cannot load it either).");
                return;
            }
            if (zone != null && !zone.equals(z)) {
                notes.add(what + " was not imported: a policy's floors share one time zone, and the floors above are in "
                        + zone.getId() + "; add it by hand converted to " + zone.getId() + ".");
                return;
            }
            KedaCron.Result r = KedaCron.floors(start, end, replicas);
            if (r.problem() != null) {
                notes.add(what + " was not imported: " + r.problem() + ".");
                return;
            }
            if (floors.size() + r.floors().size() > PolicyReader.MAX_SCHEDULED_FLOORS) {
                notes.add(what + " was not imported: its " + r.floors().size() + " windows would make more than "
                        + PolicyReader.MAX_SCHEDULED_FLOORS + " scheduled floors.");
                return;
            }
            zone = z;
            floors.addAll(r.floors());
            notes.add(what + " → scheduled floor" + (r.floors().size() == 1 ? " " : "s ")
                    + String.join("; ", r.floors().stream().map(ScheduledFloor::describe).toList()) + " in " + z.getId()
                    + " (KEDA's window: from start until the next end).");
        }

        // ------------------------------------------------------------------ Headroom's own export

        /** What a Headroom export carried in its annotation, and the slots trigger's D and threshold: restored. */
        private void restore(HeadroomClass own) {
            Policy ann = own == null ? null : own.policy();
            if (own != null) {
                // The trigger's own queries win; the annotation brings back what KEDA cannot hold.
                own.signals().forEach(signals::putIfAbsent);
                b.maxAgeSeconds(ann.maxAgeSeconds()).expectedServiceSeconds(ann.expectedServiceSeconds())
                        .startupSeconds(ann.startupSeconds()).minDrainSeconds(ann.minDrainSeconds())
                        .stuckAfterSeconds(ann.stuckAfterSeconds()).absorbStep(ann.absorbStep())
                        .ceilings(ann.ceilings()).dependencyGuard(ann.dependencyGuard())
                        .drainTargetSeconds(ann.drainTargetSeconds());
            }
            if (ann != null) {
                // KEDA holds whole seconds: where the spec is the annotation's value rounded, the exact one is kept.
                Policy spec = b.build();
                if (Math.max(1, Math.round(ann.pollIntervalSeconds())) == Math.round(spec.pollIntervalSeconds())) {
                    b.pollIntervalSeconds(ann.pollIntervalSeconds());
                }
                if (Math.round(ann.cooldownSeconds()) == Math.round(spec.cooldownSeconds())) {
                    b.cooldownSeconds(ann.cooldownSeconds());
                }
            }
            if (slotsDrain != null) {
                b.drainTargetSeconds(slotsDrain);
            }
            if (slotsThreshold == null) {
                if (ann != null) {
                    b.slotsPerReplica(ann.slotsPerReplica()).targetUtilization(ann.targetUtilization());
                }
                return;
            }
            if (ann != null && SlotsQuery.number(ann.slotsPerReplica() * ann.targetUtilization()).equals(slotsThreshold)) {
                b.slotsPerReplica(ann.slotsPerReplica()).targetUtilization(ann.targetUtilization());
                return;
            }
            double t;
            try {
                t = Double.parseDouble(slotsThreshold);
            } catch (NumberFormatException | NullPointerException e) {
                notes.add("the slots trigger's threshold \"" + UntrustedText.line(String.valueOf(slotsThreshold), 40)
                        + "\" is not a number: slotsPerReplica and targetUtilization keep their defaults.");
                return;
            }
            double u = Policy.defaults().targetUtilization();
            long k = Math.round(t / u);
            if (k >= 1 && Math.abs(k * u - t) < 1e-9) {
                b.slotsPerReplica((int) k).targetUtilization(u);
            } else if (t >= PolicyReader.MIN_TARGET_UTILIZATION && t <= 1) {
                b.slotsPerReplica(1).targetUtilization(t);
            } else if (t > 1 && t <= PolicyReader.MAX_SLOTS_PER_REPLICA) {
                int kk = (int) Math.ceil(t);
                b.slotsPerReplica(kk).targetUtilization(t / kk);
                notes.add("the slots trigger's threshold " + slotsThreshold + " (targetUtilization × slotsPerReplica)"
                        + " was read as " + kk + " × " + SlotsQuery.number(t / kk) + ": check both.");
            } else {
                notes.add("the slots trigger's threshold " + slotsThreshold + " is outside what a policy holds:"
                        + " slotsPerReplica and targetUtilization keep their defaults.");
            }
        }

        // ------------------------------------------------------------------ the rest

        /** Every spec field not read above, named: a newer KEDA's field is never dropped without a word. */
        private void unknownFields() {
            for (String k : List.of("scaleTargetRef", "minReplicaCount", "maxReplicaCount", "idleReplicaCount",
                    "cooldownPeriod", "pollingInterval", "initialCooldownPeriod")) {
                handled.add(k);
            }
            walk("", spec);
        }

        private void walk(String prefix, Map<String, Object> m) {
            for (Map.Entry<String, Object> e : m.entrySet()) {
                String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
                if (handled.contains(path)) {
                    continue;
                }
                boolean deeper = handled.stream().anyMatch(h -> h.startsWith(path + "."));
                if (deeper && e.getValue() instanceof Map<?, ?>) {
                    walk(path, Maps.map(m, e.getKey()));
                } else {
                    notes.add("spec." + UntrustedText.line(path, 100) + " is not known to this import (a newer KEDA's"
                            + " field?): not imported.");
                }
            }
        }

        /** The policy as its YAML would be read back: a class whose entry would not load is no class. */
        private void readable(Policy policy) {
            try {
                String yaml = JSON.writeValueAsString(PolicyWriter.toMap(policy));
                PolicyReader.read(ConfigTree.parse("import", yaml, ConfigTree.Format.JSON));
            } catch (ConfigException e) {
                ConfigException.Problem p = e.problems().get(0);
                throw new IllegalArgumentException("its values are outside what Headroom accepts: "
                        + (p.path().isEmpty() ? "" : p.path() + " ") + p.message());
            } catch (JacksonException e) {
                throw new IllegalArgumentException("its policy could not be written");
            }
        }

        private Integer whole(String field, int min) {
            handled.add(field);
            return whole(spec.get(field), field, min);
        }

        private Integer wholeOrNull(String field) {
            Object v = spec.get(field);
            return v instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue()) ? n.intValue() : null;
        }

        /** A whole number as the CRD's {@code integer} type holds it, at least {@code min}; null when absent. */
        private static Integer whole(Object v, String field, int min) {
            if (v == null) {
                return null;
            }
            if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())
                    || Math.abs(n.doubleValue()) > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(field + " must be a whole number, got " + quoted(v));
            }
            if (n.intValue() < min) {
                throw new IllegalArgumentException(field + " must be at least " + min + ", got " + n.intValue());
            }
            return n.intValue();
        }

        private static String text(Object o) {
            return o == null ? null : String.valueOf(o);
        }

        private static String quoted(Object o) {
            return o instanceof String s ? "\"" + UntrustedText.line(s, 200) + "\"" : UntrustedText.line(String.valueOf(o), 200);
        }

        /** A cpu/memory trigger's settings in a few words. */
        private static String settings(Map<String, Object> md) {
            List<String> out = new ArrayList<>();
            md.forEach((k, v) -> out.add(UntrustedText.line(k + " " + v, 80)));
            return String.join(", ", out);
        }
    }
}
