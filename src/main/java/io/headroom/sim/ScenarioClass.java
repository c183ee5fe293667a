package io.headroom.sim;

import io.headroom.decision.Policy;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import java.util.Objects;

/**
 * One class of a scenario: how the sandbox simulates it, the policy that scales it and what its producers
 * obey before they submit ({@link ScenarioProducers#FREE} unless told otherwise).
 */
public record ScenarioClass(SandboxClassSpec sandbox, Policy policy, ScenarioProducers producers) {
    public ScenarioClass {
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(policy, "policy");
        producers = producers == null ? ScenarioProducers.FREE : producers;
    }

    public ScenarioClass(SandboxClassSpec sandbox, Policy policy) {
        this(sandbox, policy, ScenarioProducers.FREE);
    }

    public String name() {
        return sandbox.name();
    }

    /** The same class with other producers. */
    public ScenarioClass withProducers(ScenarioProducers p) {
        return new ScenarioClass(sandbox, policy, p);
    }

    /** The class as the control loop knows it. */
    public WorkloadClass workloadClass() {
        return new WorkloadClass(sandbox.name(), sandbox.target(), policy);
    }
}
