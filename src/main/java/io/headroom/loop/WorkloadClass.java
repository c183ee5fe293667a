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
 * @param pools            the pools its replicas are placed across (decision 0029), the first one's workload
 *                         its target; null for a class with one pool, its target
 */
public record WorkloadClass(String name, WorkloadRef target, Policy policy, Duration drainOnScaleDown,
                            ClassPools pools) {
    public WorkloadClass {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a class needs a name");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(policy, "policy");
        if (drainOnScaleDown != null && (drainOnScaleDown.isNegative() || drainOnScaleDown.isZero())) {
            throw new IllegalArgumentException("a drain deadline must be positive, got " + drainOnScaleDown);
        }
        if (pools != null && !pools.pools().get(0).target().equals(target)) {
            throw new IllegalArgumentException("the first pool's workload is the class's target");
        }
    }

    /** A class with one pool, its target. */
    public WorkloadClass(String name, WorkloadRef target, Policy policy, Duration drainOnScaleDown) {
        this(name, target, policy, drainOnScaleDown, null);
    }

    /** A class that scales down directly. */
    public WorkloadClass(String name, WorkloadRef target, Policy policy) {
        this(name, target, policy, null);
    }

    public WorkloadClass withDrainOnScaleDown(Duration deadline) {
        return new WorkloadClass(name, target, policy, deadline, pools);
    }

    /** The same class with another policy (an operator's edit); its pools stay. */
    public WorkloadClass withPolicy(Policy next) {
        return new WorkloadClass(name, target, next, drainOnScaleDown, pools);
    }

    /** The same class placed across {@code next} (null: one pool). */
    public WorkloadClass withPools(ClassPools next) {
        return new WorkloadClass(name, target, policy, drainOnScaleDown, next);
    }

    /** Whether its replicas are placed across several workloads. */
    public boolean pooled() {
        return pools != null;
    }

    /** Whether {@code ref} is one of the workloads this class scales (its target, or a pool's). */
    public boolean scales(WorkloadRef ref) {
        return target.equals(ref) || pools != null && pools.poolOf(ref) != null;
    }
}
