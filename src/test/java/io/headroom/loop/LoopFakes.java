package io.headroom.loop;

import io.headroom.decision.SignalName;
import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.PodState;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.metrics.MetricsSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Small, scriptable ports for the loop's tests: a cluster and a metrics source held in maps. */
final class LoopFakes {
    static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");

    private LoopFakes() {
    }

    /** The brief's worked example (12 slots): far more than one replica of one slot can take. */
    static Map<SignalName, Signal> busy(Instant at) {
        return Map.of(Signals.QUEUE_LENGTH, Signal.of(30, at), Signals.OLDEST_AGE, Signal.of(10, at),
                Signals.ARRIVAL_RATE, Signal.of(0.5, at), Signals.MEAN_SERVICE, Signal.of(8, at),
                Signals.QUEUED_SERVICE, Signal.of(240, at), Signals.IN_FLIGHT, Signal.of(1, at));
    }

    /** Workloads by target; scales are recorded and applied unless {@link #refuse} is set. */
    static final class Cluster extends FakeCluster {
        final Map<WorkloadRef, WorkloadState> workloads = new HashMap<>();
        final List<String> scales = new ArrayList<>();
        RuntimeException readFailure;
        ScaleResult.Outcome refuse;

        void put(WorkloadRef ref, int replicas, List<PodState> pods) {
            workloads.put(ref, new WorkloadState(ref, replicas, replicas, "rv-" + replicas, pods, T0));
        }

        @Override
        public String contextName() {
            return "fake-context";
        }

        @Override
        public java.util.Optional<WorkloadState> workload(WorkloadRef ref) {
            if (readFailure != null) {
                throw readFailure;
            }
            return java.util.Optional.ofNullable(workloads.get(ref));
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            scales.add(ref.name() + "→" + replicas + "@" + expectedResourceVersion);
            if (refuse != null) {
                return ScaleResult.of(refuse, replicas, "refused for the test");
            }
            put(ref, replicas, workloads.get(ref).pods());
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled to " + replicas);
        }
    }

    /** Signals by class; every read is recorded with its time. */
    static final class Metrics implements MetricsSource {
        final Map<String, Map<SignalName, Signal>> signals = new HashMap<>();
        final List<Instant> reads = new ArrayList<>();
        RuntimeException failure;

        @Override
        public String name() {
            return "fake-metrics";
        }

        @Override
        public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
            reads.add(now);
            if (failure != null) {
                throw failure;
            }
            Map<String, Map<SignalName, Signal>> out = new HashMap<>();
            for (String c : classNames) {
                if (signals.containsKey(c)) {
                    out.put(c, signals.get(c));
                }
            }
            return out;
        }
    }
}
