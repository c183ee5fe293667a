package io.headroom.sim;

import io.headroom.decision.Policy;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import java.util.Objects;

/** One class of a scenario: how the sandbox simulates it and the policy that scales it. */
public record ScenarioClass(SandboxClassSpec sandbox, Policy policy) {
    public ScenarioClass {
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(policy, "policy");
    }

    public String name() {
        return sandbox.name();
    }

    /** The class as the control loop knows it. */
    public WorkloadClass workloadClass() {
        return new WorkloadClass(sandbox.name(), sandbox.target(), policy);
    }
}
