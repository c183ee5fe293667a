package io.headroom.kube;

import io.headroom.decision.SignalName;
import tools.jackson.core.JacksonException;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLGenerator;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.YamlQuoting;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PolicyWriter;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Policy;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload class proposed from an existing autoscaler (a KEDA ScaledObject), for the operator to
 * review and save: its target, a policy in Headroom's fields, the signals it would read (name →
 * PromQL), notes on everything that did not map one to one, and KEDA's pause when one is set.
 *
 * @param grouped the signals written as a grouped query shared with other imported classes (each is
 *                also in {@code signals} as the ScaledObject's own query)
 * @param pause   KEDA's pause annotations on the ScaledObject, or null when KEDA autoscales it
 * @param ownExport the ScaledObject is Headroom's own export: its signals, grouped ones included, are
 *                  the class's as it was written, and are not grouped again with other classes
 */
public record ImportedClass(String name, WorkloadRef target, Policy policy, Map<SignalName, String> signals,
                            List<String> notes, Map<SignalName, GroupedQuery> grouped, KedaPause pause, boolean ownExport) {
    public ImportedClass {
        signals = Map.copyOf(signals);
        notes = List.copyOf(notes);
        grouped = Map.copyOf(grouped);
    }

    /** A class KEDA is not pausing, from a ScaledObject Headroom did not write. */
    public ImportedClass(String name, WorkloadRef target, Policy policy, Map<SignalName, String> signals,
                         List<String> notes, Map<SignalName, GroupedQuery> grouped) {
        this(name, target, policy, signals, notes, grouped, null, false);
    }

    /** A class whose signals are all its own PromQL. */
    public ImportedClass(String name, WorkloadRef target, Policy policy, Map<SignalName, String> signals,
                         List<String> notes) {
        this(name, target, policy, signals, notes, Map.of(), null, false);
    }

    /** The signals a workloads file requires of every class. */
    static final List<SignalName> REQUIRED_SIGNALS = WorkloadsFile.REQUIRED_SIGNALS;

    /** Stands for a required signal to fill in until the YAML is written; it becomes a comment line. */
    private static final String FILL = "__headroom_fill_in__";

    /**
     * The class as an entry of a workloads file's {@code classes:} list (the format
     * {@code WorkloadsFile} reads): notes as comments, then name, context, namespace, target,
     * signals and policy. Signals come in one fixed order (the required ones, then the optional), and
     * a required signal KEDA has no counterpart for is a comment in its place, to fill in: the file
     * does not load until the operator has reviewed them, and once filled the entry reads exactly as
     * an import of the class's own export does.
     */
    public String toYaml() {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("context", target.context());
        entry.put("namespace", target.namespace());
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("kind", target.kind());
        t.put("name", target.name());
        entry.put("target", t);
        Map<String, Object> sig = new LinkedHashMap<>();
        for (SignalName s : signalOrder()) {
            GroupedQuery g = grouped.get(s);
            if (g != null) {
                Map<String, Object> form = new LinkedHashMap<>();
                form.put("grouped", g.promql());
                form.put("by", g.by());
                form.put("value", g.value());
                sig.put(s.id(), form);
            } else if (signals.containsKey(s)) {
                sig.put(s.id(), signals.get(s));
            } else if (REQUIRED_SIGNALS.contains(s)) {
                sig.put(s.id(), FILL);
            }
        }
        entry.put("signals", sig);
        entry.put("policy", policyMap(policy));
        StringBuilder sb = new StringBuilder();
        for (String n : notes) {
            sb.append("# ").append(n.replace("\n", " ")).append('\n');
        }
        String body;
        try {
            ObjectMapper yaml = YAMLMapper.builder(YamlQuoting.factory())
                    .disable(YAMLWriteFeature.WRITE_DOC_START_MARKER)
                    .enable(YAMLWriteFeature.MINIMIZE_QUOTES).configureForJackson2().build();
            body = yaml.writeValueAsString(List.of(entry));
        } catch (JacksonException e) {
            throw new UncheckedIOException(new java.io.IOException(e));
        }
        // Mark where the operator must add what KEDA does not know, in the signal's own place.
        body = body.replaceAll("(?m)^(\\s+)(\\w+): " + FILL + "$",
                "$1# $2: <PromQL>   # required; KEDA has no counterpart");
        return sb.append(body).toString();
    }

    /** The required signals, then the optional ones, then any other (none today), each once. */
    private List<SignalName> signalOrder() {
        List<SignalName> order = new ArrayList<>(REQUIRED_SIGNALS);
        order.addAll(WorkloadsFile.OPTIONAL_SIGNALS);
        signals.keySet().stream().filter(s -> !order.contains(s)).sorted().forEach(order::add);
        return order;
    }

    /** The fields KEDA holds, always; every other policy field where it is not the default. */
    private static final List<String> KEDA_FIELDS = List.of("minReplicas", "maxReplicas", "cooldownSeconds",
            "pollIntervalSeconds", "scaleUp", "scaleDown", "fallback");

    /**
     * The policy fields an import writes, in {@code PolicyReader}'s names (as {@link PolicyWriter} writes
     * them): those a ScaledObject holds, and any other that differs from Headroom's default (scheduled
     * floors with their time zone, and whatever a Headroom export carried back).
     */
    static Map<String, Object> policyMap(Policy p) {
        Map<String, Object> all = PolicyWriter.toMap(p);
        Map<String, Object> defaults = PolicyWriter.toMap(Policy.defaults());
        Map<String, Object> m = new LinkedHashMap<>();
        all.forEach((k, v) -> {
            if (KEDA_FIELDS.contains(k) || !v.equals(defaults.get(k))) {
                m.put(k, v);
            }
        });
        return m;
    }
}
