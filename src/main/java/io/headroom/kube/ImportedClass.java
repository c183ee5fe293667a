package io.headroom.kube;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.GroupedQuery;
import io.headroom.config.PolicyWriter;
import io.headroom.decision.Policy;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A workload class proposed from an existing autoscaler (a KEDA ScaledObject), for the operator to
 * review and save: its target, a policy in Headroom's fields, the signals it would read (name →
 * PromQL) and notes on everything that did not map one to one.
 *
 * @param grouped the signals written as a grouped query shared with other imported classes (each is
 *                also in {@code signals} as the ScaledObject's own query)
 */
public record ImportedClass(String name, WorkloadRef target, Policy policy, Map<String, String> signals,
                            List<String> notes, Map<String, GroupedQuery> grouped) {
    public ImportedClass {
        signals = Map.copyOf(signals);
        notes = List.copyOf(notes);
        grouped = Map.copyOf(grouped);
    }

    /** A class whose signals are all its own PromQL. */
    public ImportedClass(String name, WorkloadRef target, Policy policy, Map<String, String> signals,
                         List<String> notes) {
        this(name, target, policy, signals, notes, Map.of());
    }

    /** The signals a workloads file requires of every class. */
    static final List<String> REQUIRED_SIGNALS = List.of("queueLength", "oldestAge", "arrivalRate", "meanService");

    /**
     * The class as an entry of a workloads file's {@code classes:} list (the format
     * {@code WorkloadsFile} reads): notes as comments, then name, context, namespace, target,
     * signals and policy. Required signals KEDA has no counterpart for are left as comments to
     * fill in, so the file does not load until the operator has reviewed them.
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
        signals.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            GroupedQuery g = grouped.get(e.getKey());
            if (g == null) {
                sig.put(e.getKey(), e.getValue());
            } else {
                Map<String, Object> form = new LinkedHashMap<>();
                form.put("grouped", g.promql());
                form.put("by", g.by());
                form.put("value", g.value());
                sig.put(e.getKey(), form);
            }
        });
        entry.put("signals", sig);
        entry.put("policy", policyMap(policy));
        StringBuilder sb = new StringBuilder();
        for (String n : notes) {
            sb.append("# ").append(n.replace("\n", " ")).append('\n');
        }
        String body;
        try {
            ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
            body = yaml.writeValueAsString(List.of(entry));
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
        // Mark where the operator must add what KEDA does not know, right under "signals:".
        StringBuilder todo = new StringBuilder();
        for (String required : REQUIRED_SIGNALS) {
            if (!signals.containsKey(required)) {
                todo.append("    # ").append(required).append(": <PromQL>   # required; KEDA has no counterpart\n");
            }
        }
        int at = body.indexOf("  signals:\n");
        if (at >= 0 && todo.length() > 0) {
            int insert = at + "  signals:\n".length();
            body = body.substring(0, insert) + todo + body.substring(insert);
        }
        return sb.append(body).toString();
    }

    /** The policy fields an import sets, in {@code PolicyReader}'s names (as {@link PolicyWriter} writes them). */
    static Map<String, Object> policyMap(Policy p) {
        Map<String, Object> all = PolicyWriter.toMap(p);
        Map<String, Object> m = new LinkedHashMap<>();
        for (String k : List.of("minReplicas", "maxReplicas", "cooldownSeconds", "pollIntervalSeconds", "scaleUp",
                "scaleDown", "fallback")) {
            m.put(k, all.get(k));
        }
        return m;
    }
}
