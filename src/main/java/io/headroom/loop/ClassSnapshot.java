package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import java.time.Instant;

/**
 * One class at one tick: what was observed, what was decided and what was done. When the class
 * could not be decided at all (workload gone, cluster unreachable), {@code decision} is null and
 * {@code problem} says why; {@code signals} still holds what the metrics source read at that tick,
 * so its figures can be shown while the cluster cannot be read.
 */
public record ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                            Decision decision, Actuation actuation, String problem,
                            java.util.Map<String, io.headroom.decision.Signal> signals) {

    public ClassSnapshot {
        signals = signals == null ? java.util.Map.of() : java.util.Map.copyOf(signals);
    }

    /** The signals are the observation's (none without one). */
    public ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                         Decision decision, Actuation actuation, String problem) {
        this(cls, at, observation, workload, decision, actuation, problem,
                observation == null ? null : observation.signals());
    }

    public String name() {
        return cls.name();
    }

    public boolean decided() {
        return decision != null;
    }
}
