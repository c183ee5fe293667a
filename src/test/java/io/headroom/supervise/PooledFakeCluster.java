package io.headroom.supervise;

import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A fake cluster holding each pool's Deployment at a count, read as the informer cache would; tests add writes. */
class PooledFakeCluster extends FakeCluster {
    final Map<WorkloadRef, WorkloadState> workloads = new HashMap<>();
    private final Clock clock;

    PooledFakeCluster(Clock clock) {
        this.clock = clock;
    }

    /** The pool's Deployment at {@code replicas}, ready, with a resourceVersion of its own for that count. */
    void put(WorkloadRef ref, int replicas) {
        workloads.put(ref, new WorkloadState(ref, replicas, replicas, "rv-" + ref.name() + "-" + replicas,
                List.of(), clock.instant()));
    }

    @Override
    public Optional<WorkloadState> workload(WorkloadRef ref) {
        return Optional.ofNullable(workloads.get(ref));
    }
}
