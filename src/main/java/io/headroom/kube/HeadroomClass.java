package io.headroom.kube;

import io.headroom.decision.SignalName;
import tools.jackson.core.JacksonException;
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
 * A Headroom export's {@value ScaledObjectImport#CLASS_ANNOTATION}: the class's standard signals and the policy fields
 * KEDA has no place for. Null when absent; when it cannot be read, a note says so and it is ignored.
 */
record HeadroomClass(String className, Map<SignalName, String> signals, Map<SignalName, GroupedQuery> grouped,
                     Policy policy) {
    static HeadroomClass of(String json, List<String> notes) {
        if (json == null) {
            return null;
        }
        try {
            Map<?, ?> root = ScaledObjectImport.JSON.readValue(json, Map.class);
            Map<SignalName, String> signals = new LinkedHashMap<>();
            Map<SignalName, GroupedQuery> grouped = new LinkedHashMap<>();
            if (root.get("signals") instanceof Map<?, ?> s) {
                for (Map.Entry<?, ?> e : s.entrySet()) {
                    SignalName k = SignalName.of(String.valueOf(e.getKey()));
                    boolean standard = WorkloadsFile.REQUIRED_SIGNALS.contains(k)
                            || WorkloadsFile.OPTIONAL_SIGNALS.contains(k);
                    if (!standard) {
                        continue;
                    }
                    if (e.getValue() instanceof String q) {
                        signals.put(k, SlotsQuery.normalize(q));
                    } else if (e.getValue() instanceof Map<?, ?> g && g.get("grouped") instanceof String promql
                            && g.get("by") instanceof String by && g.get("value") instanceof String value) {
                        GroupedQuery gq = new GroupedQuery(promql, by, value);
                        grouped.put(k, gq);
                        signals.put(k, gq.perClass());
                    }
                }
            }
            Object p = root.get("policy");
            Policy policy = PolicyReader.read(ConfigTree.parse(ScaledObjectImport.CLASS_ANNOTATION,
                    ScaledObjectImport.JSON.writeValueAsString(p instanceof Map<?, ?> ? p : Map.of()), ConfigTree.Format.JSON));
            notes.add("annotation " + ScaledObjectImport.CLASS_ANNOTATION + " (a Headroom export): the class's own signals and the"
                    + " policy fields KEDA has no place for were restored from it; the ScaledObject's own fields"
                    + " win where both say something.");
            // An export whose class name could not be the object's name keeps the class's own here.
            String className = root.get("class") instanceof String c && !c.isBlank()
                    && UntrustedText.firstUnsafe(c) < 0 ? c : null;
            return new HeadroomClass(className, signals, grouped, policy);
        } catch (ConfigException | RuntimeException e) {
            notes.add("annotation " + ScaledObjectImport.CLASS_ANNOTATION + " could not be read (" + UntrustedText.line(
                    e instanceof ConfigException c ? c.problems().get(0).message() : "not the JSON an export writes",
                    200) + "): Headroom's own settings were not restored.");
            return null;
        }
    }
}
