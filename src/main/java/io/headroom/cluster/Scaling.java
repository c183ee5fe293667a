package io.headroom.cluster;

import java.util.Optional;

/**
 * Port: scale a workload, with optimistic concurrency, never a blind overwrite. Every method is a write
 * or the check of one; the supervisor's freeze gate wraps this port whole.
 */
public interface Scaling {

    /**
     * Sets the workload's replicas. With a non-null {@code expectedResourceVersion}, a workload that
     * has moved since is not overwritten: the result is {@link ScaleResult.Outcome#CONFLICT}.
     */
    ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion);

    /**
     * Scales with a second opinion: when the workload moved since {@code expectedResourceVersion}, re-reads
     * it and asks {@code redecider} what to do with the fresh state, then re-proposes (up to
     * {@code maxAttempts} writes) or gives up with the reason ({@link #redecided}).
     */
    ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion,
                      Redecision.Redecider redecider, int maxAttempts);

    /**
     * Scales as the re-deciding scale does, with Headroom's record of a bump ({@link ReplicaBump}: a
     * replacement's extra replica) in the same write; {@code bump} null removes any such record in that write.
     * A cluster that keeps no record (the sandbox) scales as the re-deciding scale does.
     */
    ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion, ReplicaBump bump,
                      Redecision.Redecider redecider, int maxAttempts);

    /** The bump Headroom recorded on the workload, read from the API server; empty when none; throws, in words. */
    Optional<ReplicaBump> replicaBump(WorkloadRef ref);

    /** A server-side dry run of {@link #scale(WorkloadRef, int, String)}: would it be accepted? Nothing changes. */
    ScaleResult dryRunScale(WorkloadRef ref, int replicas);

    /** Whether this console may scale the workload now, and why not (RBAC, another autoscaler, the lease). */
    ActionCheck canScale(WorkloadRef ref);

    /** One write of a workload's replicas at an expected resourceVersion. */
    @FunctionalInterface
    interface Write {
        ScaleResult write(int replicas, String expectedResourceVersion);
    }

    /**
     * Writes with optimistic concurrency and a second opinion: on a conflict, re-reads the workload
     * ({@link Workloads#freshWorkload}) and asks {@code redecider}, up to {@code maxAttempts} writes.
     */
    static ScaleResult redecided(Workloads cluster, WorkloadRef ref, int replicas, String expectedResourceVersion,
                                 Redecision.Redecider redecider, int maxAttempts, Write write) {
        int want = replicas;
        String version = expectedResourceVersion;
        ScaleResult last = null;
        for (int attempt = 1; attempt <= Math.max(1, maxAttempts); attempt++) {
            last = write.write(want, version);
            if (last.outcome() != ScaleResult.Outcome.CONFLICT) {
                return last;
            }
            Optional<WorkloadState> fresh;
            try {
                fresh = cluster.freshWorkload(ref);
            } catch (RuntimeException e) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, want, "re-read after a conflict failed: "
                        + e.getMessage());
            }
            if (fresh.isEmpty()) {
                return ScaleResult.of(ScaleResult.Outcome.FAILED, want, "workload " + ref + " disappeared after a conflict");
            }
            Redecision r = redecider.redecide(fresh.get());
            if (r.givesUp()) {
                return ScaleResult.of(ScaleResult.Outcome.CONFLICT, fresh.get().specReplicas(),
                        "workload moved (now " + fresh.get().specReplicas() + " replicas, resourceVersion "
                                + fresh.get().resourceVersion() + "); gave up: " + r.giveUpReason());
            }
            want = r.replicas();
            version = fresh.get().resourceVersion();
        }
        return ScaleResult.of(ScaleResult.Outcome.CONFLICT, want,
                "still conflicting after " + maxAttempts + " attempts (someone else keeps scaling): " + last.message());
    }
}
