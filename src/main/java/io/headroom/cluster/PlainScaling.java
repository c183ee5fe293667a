package io.headroom.cluster;

import java.util.Optional;

/**
 * Scaling for a cluster where Headroom is the only autoscaler and keeps no record of a bump (the sandbox, the
 * test fakes, {@code headroom plan}): an adapter writes one scale, this derives the rest. For leaf adapters
 * only; a wrapper implements {@link Scaling} itself, so the compiler makes it forward every method.
 */
public abstract class PlainScaling implements Scaling {
    private final Workloads workloads;

    protected PlainScaling(Workloads workloads) {
        this.workloads = workloads;
    }

    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                             Redecision.Redecider redecider, int maxAttempts) {
        return Scaling.redecided(workloads, ref, replicas, expectedResourceVersion, redecider, maxAttempts,
                (want, version) -> scale(ref, want, version));
    }

    /** No record is kept: a bump scales as the re-deciding scale does. */
    @Override
    public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                             Redecision.Redecider redecider, int maxAttempts) {
        return scale(ref, replicas, expectedResourceVersion, redecider, maxAttempts);
    }

    @Override
    public Optional<ReplicaBump> replicaBump(WorkloadRef ref) {
        return Optional.empty();
    }

    @Override
    public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
        return workloads.workload(ref).map(w -> ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas,
                        "dry run: would scale " + w.specReplicas() + " → " + replicas))
                .orElse(ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "no workload " + ref));
    }

    @Override
    public ActionCheck canScale(WorkloadRef ref) {
        return ActionCheck.allowed("scale " + ref);
    }
}
