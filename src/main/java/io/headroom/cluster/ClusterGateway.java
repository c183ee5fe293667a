package io.headroom.cluster;

import java.util.Optional;

/**
 * The console's one port to a cluster: read workload state, scale it. The sandbox implements it
 * for real use; the fabric8 adapter implements it against a Kubernetes API.
 */
public interface ClusterGateway extends AutoCloseable {

    /** The kubeconfig context (or "sandbox") this gateway talks to. */
    String contextName();

    /** The workload's current state, or empty when it does not exist. Never blocks the FX thread's caller for long. */
    Optional<WorkloadState> workload(WorkloadRef ref);

    /**
     * Sets the workload's replicas. With a non-null {@code expectedResourceVersion}, a workload that
     * has moved since is not overwritten: the result is {@link ScaleResult.Outcome#CONFLICT}.
     */
    ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion);

    @Override
    default void close() {
    }
}
