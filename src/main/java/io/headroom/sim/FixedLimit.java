package io.headroom.sim;

import io.headroom.sandbox.SandboxClassSpec;

/**
 * The fixed concurrency limit admission is measured against (issue 30): producers refuse a job while the
 * class's jobs in flight plus waiting reach {@code N}, whatever the capacity does. {@code N} is the class's
 * steady capacity: the slots of the replicas its base load needs, {@code ceil(ceil(λ × S / u) / k) × k}
 * (the decision's plan at the base rate and mean service time). A limit sized for the steady state does not
 * grow when capacity does, which is what a limit set once in a producer's config does.
 */
public final class FixedLimit {
    private FixedLimit() {
    }

    /** The class's steady capacity in jobs (at least one). */
    public static int of(ScenarioClass c) {
        double s = meanService(c.sandbox());
        int k = c.policy().slotsPerReplica();
        double slots = Math.ceil(c.sandbox().baseRate() * s / c.policy().targetUtilization() - 1e-9);
        int replicas = (int) Math.max(1, Math.ceil(slots / k - 1e-9));
        return replicas * k;
    }

    /**
     * A limit that gives the steady capacity the age objective's room as well: its slots plus the jobs they
     * serve within the objective, {@code N + N / S × objective} (Little's law: the last job let in waits about
     * the objective). The fairer baseline: the same protection as admission, as long as capacity is steady.
     */
    public static int withObjective(ScenarioClass c) {
        int n = of(c);
        Double objective = c.policy().maxAgeSeconds();
        double room = objective != null ? objective : c.policy().drainTargetSeconds();
        return n + (int) Math.floor(n / meanService(c.sandbox()) * room);
    }

    /** The mean of a class's service time. */
    static double meanService(SandboxClassSpec spec) {
        SandboxClassSpec.ServiceTime st = spec.service();
        return st.distribution() == SandboxClassSpec.Distribution.UNIFORM
                ? (st.minSeconds() + st.maxSeconds()) / 2 : st.meanSeconds();
    }
}
