package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import java.time.Instant;

/**
 * One class at one tick: what was observed, what was decided and what was done. When the class
 * could not be decided at all (workload gone, cluster unreachable), {@code decision} is null and
 * {@code problem} says why.
 */
public record ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                            Decision decision, Actuation actuation, String problem) {

    public String name() {
        return cls.name();
    }

    public boolean decided() {
        return decision != null;
    }
}
