package io.headroom.config;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.loop.WorkloadClass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One class of a workloads file: its scale target, the PromQL for each signal it reads (standard
 * signals, {@code replicas}, and the signals its ceilings' queries became) and its policy.
 *
 * @param queries signal name → PromQL, in file order
 */
public record ClassConfig(String name, WorkloadRef target, Map<String, String> queries, Policy policy) {

    public ClassConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a class needs a name");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(policy, "policy");
        queries = Collections.unmodifiableMap(new LinkedHashMap<>(queries));
    }

    /** The class as the control loop knows it. */
    public WorkloadClass workloadClass() {
        return new WorkloadClass(name, target, policy);
    }

    /** The PromQL of a signal, or null when the class does not read it. */
    public String query(String signal) {
        return queries.get(signal);
    }
}
