package io.headroom.loop;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import java.time.Duration;
import java.util.Objects;

/**
 * A workload class: a named queue, the workload that serves it, its scaling policy, and how it
 * scales down.
 *
 * @param drainOnScaleDown when set, an approved or automatic scale-down drains (design.md §5) with this
 *                         deadline instead of lowering replicas at once; null to scale down directly
 */
public record WorkloadClass(String name, WorkloadRef target, Policy policy, Duration drainOnScaleDown) {
    public WorkloadClass {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a class needs a name");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(policy, "policy");
        if (drainOnScaleDown != null && (drainOnScaleDown.isNegative() || drainOnScaleDown.isZero())) {
            throw new IllegalArgumentException("a drain deadline must be positive, got " + drainOnScaleDown);
        }
    }

    /** A class that scales down directly. */
    public WorkloadClass(String name, WorkloadRef target, Policy policy) {
        this(name, target, policy, null);
    }

    public WorkloadClass withDrainOnScaleDown(Duration deadline) {
        return new WorkloadClass(name, target, policy, deadline);
    }
}
