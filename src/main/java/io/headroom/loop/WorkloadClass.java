package io.headroom.loop;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import java.util.Objects;

/** A workload class: a named queue, the workload that serves it, and its scaling policy. */
public record WorkloadClass(String name, WorkloadRef target, Policy policy) {
    public WorkloadClass {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a class needs a name");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(policy, "policy");
    }
}
