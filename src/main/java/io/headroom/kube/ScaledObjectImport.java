package io.headroom.kube;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PromqlGrouping;
import io.headroom.decision.Fallback;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.ScalingRule;
import io.headroom.decision.Signals;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a KEDA ScaledObject into a Headroom class for review: min/max replica counts, cooldown,
 * polling interval, fallback and the HPA behaviour under
 * {@code advanced.horizontalPodAutoscalerConfig.behavior} map to policy fields; a prometheus
 * trigger's query becomes a signal; a redis {@code listLength} becomes {@code queueLength} with a
 * note (Headroom reads queues through Prometheus). What has no counterpart is said in the notes.
 * Several ScaledObjects whose queries differ only in one label's value share one grouped query
 * ({@link #grouped}).
 */
public final class ScaledObjectImport {
    private ScaledObjectImport() {
    }

    /**
     * Every ScaledObject in {@code namespace} of the connection's cluster, imported; an empty list
     * when KEDA is not installed there.
     */
    public static List<ImportedClass> listIn(KubeConnection connection, String namespace) {
        List<ImportedClass> out = new ArrayList<>();
        try {
            for (GenericKubernetesResource so : connection.client().genericKubernetesResources(
                    KubeClusterGateway.SCALED_OBJECTS).inNamespace(namespace).list().getItems()) {
                out.add(from(so, connection.context().name()));
            }
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw new IllegalStateException("listing ScaledObjects in " + namespace + ": "
                        + KubeErrors.describe(e), e);
            }
        }
        return grouped(out);
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
            queries.addAll(c.signals().values());
        }
        Map<String, GroupedQuery> shared = PromqlGrouping.shared(queries);
        if (shared.isEmpty()) {
            return classes;
        }
        Map<GroupedQuery.Key, Long> users = new java.util.HashMap<>();
        for (ImportedClass c : classes) {
            c.signals().values().stream().distinct().map(shared::get).filter(java.util.Objects::nonNull)
                    .forEach(g -> users.merge(g.key(), 1L, Long::sum));
        }
        List<ImportedClass> out = new ArrayList<>();
        for (ImportedClass c : classes) {
            Map<String, GroupedQuery> grouped = new LinkedHashMap<>();
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
                    : new ImportedClass(c.name(), c.target(), c.policy(), c.signals(), notes, grouped));
        }
        return out;
    }

    public static ImportedClass from(GenericKubernetesResource so, String context) {
        Map<String, Object> props = so.getAdditionalProperties();
        Map<String, Object> spec = Maps.map(props, "spec");
        String ns = so.getMetadata().getNamespace();
        String kind = Maps.string(spec, "scaleTargetRef", "kind");
        String targetName = Maps.string(spec, "scaleTargetRef", "name");
        if (targetName == null) {
            throw new IllegalArgumentException("ScaledObject " + so.getMetadata().getName() + " has no scaleTargetRef.name");
        }
        WorkloadRef target = new WorkloadRef(context, ns, kind == null ? "Deployment" : kind, targetName);
        List<String> notes = new ArrayList<>();
        notes.add("Imported from KEDA ScaledObject " + ns + "/" + so.getMetadata().getName()
                + "; review before saving. While KEDA still manages the workload, Headroom acts through "
                + Autoscalers.PAUSED_REPLICAS + ".");

        Policy.Builder b = Policy.defaults().toBuilder();
        Integer min = Maps.integer(spec, "minReplicaCount");
        Integer max = Maps.integer(spec, "maxReplicaCount");
        b.minReplicas(min == null ? 0 : min);
        b.maxReplicas(max == null ? 100 : max);
        if (min == null || max == null) {
            notes.add("KEDA defaults used where the ScaledObject is silent: minReplicaCount 0, maxReplicaCount 100.");
        }
        Integer cooldown = Maps.integer(spec, "cooldownPeriod");
        b.cooldownSeconds(cooldown == null ? 300 : cooldown);
        Integer poll = Maps.integer(spec, "pollingInterval");
        b.pollIntervalSeconds(poll == null ? 30 : poll);
        if (Maps.integer(spec, "idleReplicaCount") != null) {
            notes.add("idleReplicaCount " + Maps.integer(spec, "idleReplicaCount")
                    + " has no counterpart: Headroom idles at minReplicas (0 after the cooldown when minReplicas is 0).");
        }
        Integer fbThreshold = Maps.integer(spec, "fallback", "failureThreshold");
        Integer fbReplicas = Maps.integer(spec, "fallback", "replicas");
        if (fbThreshold != null) {
            b.fallback(new Fallback(Math.max(1, fbThreshold), fbReplicas));
            notes.add("fallback: KEDA jumps to " + fbReplicas + " replicas when its scaler fails; Headroom holds the "
                    + "current count and only raises it to floorReplicas " + fbReplicas + ", never lowers it.");
        }
        Map<String, Object> behavior = Maps.map(spec, "advanced", "horizontalPodAutoscalerConfig", "behavior");
        b.scaleUp(behavior(Maps.map(behavior, "scaleUp"), ScalingBehavior.defaultUp()));
        b.scaleDown(behavior(Maps.map(behavior, "scaleDown"), ScalingBehavior.defaultDown()));

        Map<String, String> signals = new LinkedHashMap<>();
        List<io.headroom.decision.ScheduledFloor> floors = new ArrayList<>();
        int n = 0;
        for (Object t : Maps.list(spec, "triggers")) {
            n++;
            String type = String.valueOf(Maps.string(t, "type")).toLowerCase(Locale.ROOT);
            String tname = Maps.string(t, "name");
            Map<String, Object> md = Maps.map(t, "metadata");
            switch (type) {
                case "prometheus" -> {
                    String query = Maps.string(md, "query");
                    String signal = signals.containsKey(Signals.QUEUE_LENGTH)
                            ? (tname == null ? "trigger" + n : tname) : Signals.QUEUE_LENGTH;
                    signals.put(signal, query == null ? "" : query);
                    notes.add("prometheus trigger" + (tname == null ? "" : " '" + tname + "'") + " → signal " + signal
                            + (signal.equals(Signals.QUEUE_LENGTH) ? " (check it counts waiting jobs)"
                            : " (not used by the decision until mapped to a standard signal or a ceiling)")
                            + "; KEDA's threshold " + Maps.string(md, "threshold")
                            + " per replica is replaced by Headroom's slot estimate (set slotsPerReplica to the worker's concurrency,"
                            + " and add arrivalRate, meanService and oldestAge signals).");
                }
                case "redis", "redis-cluster", "redis-sentinel" -> {
                    String list = Maps.string(md, "listName");
                    String key = list == null ? "QUEUE" : list;
                    signals.putIfAbsent(Signals.QUEUE_LENGTH, "redis_key_size{key=\"" + key + "\"}");
                    notes.add("redis trigger: listLength " + Maps.string(md, "listLength") + " per replica on list '" + key
                            + "' → queueLength. Headroom reads queues through Prometheus: the query assumes redis_exporter "
                            + "with --check-single-keys including " + key + "; adjust it to your exporter.");
                }
                case "cron" -> {
                    io.headroom.decision.ScheduledFloor f = cron(md);
                    if (f == null) {
                        notes.add("cron trigger " + n + " (start " + Maps.string(md, "start") + ", end "
                                + Maps.string(md, "end") + ") was not imported: only 'M H * * days' schedules map to a"
                                + " scheduled floor.");
                    } else {
                        floors.add(f);
                        String zone = Maps.string(md, "timezone");
                        if (zone != null) {
                            try {
                                b.timeZone(java.time.ZoneId.of(zone));
                            } catch (java.time.DateTimeException e) {
                                notes.add("cron trigger " + n + ": time zone '" + zone + "' is unknown; UTC used.");
                            }
                        }
                        notes.add("cron trigger → scheduled floor " + f.describe() + ".");
                    }
                }
                default -> notes.add("trigger " + n + " of type " + type + " was not imported (no Headroom signal for it yet).");
            }
        }
        if (!signals.containsKey(Signals.QUEUE_LENGTH)) {
            notes.add("no queue-length trigger found: add a queueLength signal before saving.");
        }
        b.scheduledFloors(floors);
        Policy policy = b.build();
        return new ImportedClass(so.getMetadata().getName(), target, policy, signals, notes);
    }

    /** A cron trigger of the form {@code M H * * days} as a scheduled floor, or null when it has another form. */
    static io.headroom.decision.ScheduledFloor cron(Map<String, Object> md) {
        String start = Maps.string(md, "start");
        String end = Maps.string(md, "end");
        String replicas = Maps.string(md, "desiredReplicas");
        if (start == null || end == null || replicas == null) {
            return null;
        }
        String[] s = start.trim().split("\\s+");
        String[] e = end.trim().split("\\s+");
        try {
            if (s.length != 5 || e.length != 5 || !s[2].equals("*") || !s[3].equals("*")) {
                return null;
            }
            java.util.Set<java.time.DayOfWeek> days = java.util.EnumSet.noneOf(java.time.DayOfWeek.class);
            if (s[4].equals("*")) {
                days = java.util.EnumSet.allOf(java.time.DayOfWeek.class);
            } else {
                for (String d : s[4].split(",")) {
                    String[] range = d.trim().split("-");
                    int from = Integer.parseInt(range[0]);
                    int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                    for (int v = from; v <= to; v++) {
                        days.add(java.time.DayOfWeek.of(v % 7 == 0 ? 7 : v % 7));
                    }
                }
            }
            return new io.headroom.decision.ScheduledFloor(days,
                    java.time.LocalTime.of(Integer.parseInt(s[1]), Integer.parseInt(s[0])),
                    java.time.LocalTime.of(Integer.parseInt(e[1]), Integer.parseInt(e[0])), Integer.parseInt(replicas.trim()));
        } catch (RuntimeException ex) {
            return null; // ranges, steps, names: not a simple daily window
        }
    }

    /** One direction of HPA behaviour; absent parts keep the HPA defaults (which are Headroom's). */
    static ScalingBehavior behavior(Map<String, Object> m, ScalingBehavior base) {
        if (m.isEmpty()) {
            return base;
        }
        Integer window = Maps.integer(m, "stabilizationWindowSeconds");
        String select = Maps.string(m, "selectPolicy");
        ScalingBehavior.SelectPolicy sel = select == null ? ScalingBehavior.SelectPolicy.MAX
                : ScalingBehavior.SelectPolicy.valueOf(select.toUpperCase(Locale.ROOT));
        List<ScalingRule> rules = base.rules();
        if (!Maps.list(m, "policies").isEmpty()) {
            rules = new ArrayList<>();
            for (Object p : Maps.list(m, "policies")) {
                String type = String.valueOf(Maps.string(p, "type"));
                rules.add(new ScalingRule("pods".equalsIgnoreCase(type) ? ScalingRule.Type.PODS : ScalingRule.Type.PERCENT,
                        Maps.integer(p, "value"), Maps.integer(p, "periodSeconds")));
            }
        }
        return new ScalingBehavior(window == null ? base.stabilizationWindowSeconds() : window, rules, sel);
    }
}
