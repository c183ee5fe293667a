package io.headroom.cluster;

import java.util.Optional;

/**
 * For tests of what a console writes on its way out or in (hand-back, leftovers): a {@link FakeCluster} on
 * context {@code dev} that reads no workload and applies every scale; a test overrides what else it fakes.
 */
public class WriteOnlyCluster extends FakeCluster {
    @Override
    public String contextName() {
        return "dev";
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef r) {
        return Optional.empty();
    }

    @Override
    public ScaleResult scale(WorkloadRef r, int replicas, String expectedResourceVersion) {
        return ScaleResult.applied(replicas);
    }
}
