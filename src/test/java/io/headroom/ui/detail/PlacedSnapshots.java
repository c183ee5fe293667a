package io.headroom.ui.detail;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A class placed across two pools, spot then on-demand, built as the loop would: the decision from the engine,
 * the split from {@link Placement#place} (decision 0029), spot's new pods unschedulable past the deadline.
 */
final class PlacedSnapshots {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180));
    static final Placement.PoolSpec SPOT = new Placement.PoolSpec("spot", 20, null, 1, null);
    static final Placement.PoolSpec ON_DEMAND = new Placement.PoolSpec("on-demand", 20, 12, 3, null);
    static final List<Placement.PoolSpec> POOLS = List.of(SPOT, ON_DEMAND);

    private PlacedSnapshots() {
    }

    /** Spot runs 5, 3 more of its pods unschedulable for 75 s: the class's replicas beyond 5 move to on-demand. */
    static Map<String, Placement.PoolObservation> spotGone() {
        return Map.of("spot", new Placement.PoolObservation("spot", 8, 5, 3, T0.minusSeconds(75)),
                "on-demand", new Placement.PoolObservation("on-demand", 0, 0, 0, null));
    }

    /** The placement of {@code replicas} with spot's capacity gone (first call: it becomes unavailable now). */
    static Placement.Result spotGonePlacement(int replicas) {
        return Placement.place(POOLS, replicas, spotGone(), Placement.Memory.EMPTY, T0, TIMING);
    }

    static ClassSnapshot placed(String name, int replicas, Placement.Result placement) {
        Policy p = Policy.builder().slotsPerReplica(4).maxReplicas(40).maxAgeSeconds(60.0).build();
        Map<SignalName, Signal> signals = Map.of(Signals.QUEUE_LENGTH, Signal.of(200, T0),
                Signals.OLDEST_AGE, Signal.of(90, T0), Signals.ARRIVAL_RATE, Signal.of(4, T0),
                Signals.MEAN_SERVICE, Signal.of(10, T0), Signals.IN_FLIGHT, Signal.of(20, T0),
                Signals.COMPLETION_RATE, Signal.of(2, T0));
        Observation o = new Observation(8, 5, signals);
        Decision d = DecisionEngine.decide(name, p, o, ClassMemory.initial(), T0);
        return new ClassSnapshot(new WorkloadClass(name, new WorkloadRef("dev", "ns", "Deployment", name), p), T0, o,
                null, d, null, null, signals, null, placement);
    }

    static PoolBreakdown.Facts facts() {
        return new PoolBreakdown.Facts(POOLS, spotGone());
    }
}
