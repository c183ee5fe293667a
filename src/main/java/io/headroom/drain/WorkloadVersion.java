package io.headroom.drain;

import io.headroom.cluster.WorkloadState;

/**
 * The version of a workload a drain's own scale was conditioned on, to tell a read that has not seen that write
 * (a watch that lags a poll: a reconnect, a relist, a loaded API server) from a read of someone else's later
 * write. Kubernetes says a resourceVersion is opaque, to be compared for equality only; the generation is an
 * integer the API server raises with every change of the spec and never lowers, so it orders two reads.
 *
 * @param resourceVersion the workload's resourceVersion at the read the scale was conditioned on; null unknown
 * @param generation      its {@code metadata.generation} then; 0 when unknown
 */
public record WorkloadVersion(String resourceVersion, long generation) {

    public static WorkloadVersion of(WorkloadState w) {
        return new WorkloadVersion(w.resourceVersion(), w.generation());
    }

    /**
     * True when {@code read} is provably this version or an older one, so it cannot show a write made on top of
     * this version: a generation not past this one (status updates move the resourceVersion, not the
     * generation), or, where either generation is unknown, this very resourceVersion. A read that carries
     * neither proves nothing and is taken at its word (false).
     */
    public boolean sameOrOlder(WorkloadState read) {
        if (generation > 0 && read.generation() > 0) {
            return read.generation() <= generation;
        }
        return resourceVersion != null && resourceVersion.equals(read.resourceVersion());
    }
}
