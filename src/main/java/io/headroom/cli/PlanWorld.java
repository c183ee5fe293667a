package io.headroom.cli;

import io.headroom.decision.SignalName;
import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.config.ClassConfig;
import io.headroom.config.PolicyReader;
import io.headroom.config.WorkloadsFile;
import io.headroom.decision.Signal;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The world {@code headroom plan} runs the control loop on: the classes' signals from a metrics
 * source, and each class's current replicas from {@code --replicas class=N} or else the class's own
 * {@code replicas} signal of the same tick. Plan never connects to a cluster, so its "cluster" is
 * those numbers and it cannot scale. Both ports read one state, on the loop's thread only.
 */
final class PlanWorld {

    /** A class's current replicas this tick and where they came from, or (replicas null) why they are unknown. */
    record Current(Integer replicas, String from, String unknown) {
    }

    private final MetricsSource source;
    private final List<ClassConfig> configs;
    private final List<WorkloadClass> classes = new ArrayList<>();
    private final Map<String, Integer> given;
    /**
     * The loop asks for a class's workload by its target; two classes of one file may name the same
     * target, so each class gets its own target instance and is found by identity.
     */
    private final Map<WorkloadRef, String> classByTarget = new IdentityHashMap<>();
    private final Map<String, Current> current = new HashMap<>();
    private Instant readAt;

    /** @param given class name → replicas given with {@code --replicas} (they win over the signal) */
    PlanWorld(MetricsSource source, List<ClassConfig> configs, Map<String, Integer> given) {
        this.source = source;
        this.configs = List.copyOf(configs);
        this.given = Map.copyOf(given);
        for (ClassConfig c : this.configs) {
            WorkloadRef t = c.target();
            WorkloadRef own = new WorkloadRef(t.context(), t.namespace(), t.kind(), t.name());
            classByTarget.put(own, c.name());
            classes.add(new WorkloadClass(c.name(), own, c.policy(), c.drainOnScaleDown()));
        }
    }

    /** The classes for the control loop, in file order. */
    List<WorkloadClass> classes() {
        return List.copyOf(classes);
    }

    /** The class's current replicas as of the last read, or why there are none. */
    Current current(String className) {
        Current c = current.get(className);
        return c != null ? c : new Current(null, null, "no reading this tick");
    }

    /** The metrics port: the source's signals; reading them also settles every class's current replicas. */
    MetricsSource metrics() {
        return metrics;
    }

    /** The cluster port: the current replicas as read, and no writes. */
    ClusterPorts cluster() {
        return cluster;
    }

    private final MetricsSource metrics = new MetricsSource() {
        @Override
        public String name() {
            return source.name();
        }

        @Override
        public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
            return PlanWorld.this.read(classNames, now);
        }
    };

    /** The plan's cluster: the replicas read this tick, and no write (every other port is the unsupported one). */
    private final io.headroom.cluster.Workloads workloads = new io.headroom.cluster.Workloads() {
        @Override
        public Optional<WorkloadState> workload(WorkloadRef ref) {
            return PlanWorld.this.workload(ref);
        }

        @Override
        public Optional<WorkloadState> freshWorkload(WorkloadRef ref) {
            return workload(ref);
        }

        @Override
        public io.headroom.cluster.AutoscalerView autoscaler(WorkloadRef ref) {
            return io.headroom.cluster.AutoscalerView.none(ref);
        }
    };

    private final ClusterPorts cluster = ClusterPorts.builder("none (plan reads no cluster)").workloads(workloads)
            .scaling(new io.headroom.cluster.PlainScaling(workloads) {
                @Override
                public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
                    return ScaleResult.of(ScaleResult.Outcome.REFUSED, replicas, "headroom plan never scales");
                }
            }).build();

    private Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
        current.clear();
        readAt = now;
        Map<String, Map<SignalName, Signal>> readings = source.read(classNames, now);
        for (ClassConfig c : configs) {
            current.put(c.name(), resolve(c, readings.getOrDefault(c.name(), Map.of())));
        }
        return readings;
    }

    private Current resolve(ClassConfig c, Map<SignalName, Signal> signals) {
        Integer n = given.get(c.name());
        if (n != null) {
            return new Current(n, "--replicas", null);
        }
        Signal r = signals.getOrDefault(WorkloadsFile.REPLICAS, Signal.missing("no replicas query"));
        String why;
        if (c.query(WorkloadsFile.REPLICAS) == null) {
            why = "no 'replicas' signal in the config and no --replicas " + c.name() + "=N";
        } else if (!r.present()) {
            why = "the 'replicas' signal has no value (" + r.missingReason() + "); pass --replicas "
                    + c.name() + "=N";
        } else if (r.partial()) {
            // A count from an answer missing some of its data could be any lower count: no decision from it.
            why = "the 'replicas' signal came from a partial answer (" + String.join("; ", r.annotations().warnings())
                    + "); pass --replicas " + c.name() + "=N";
        } else if (!PlanCommand.isReplicaCount(r.value())) {
            // Never cast blindly: 4294967296 would wrap to 0 and 3e9 to a negative count.
            why = "replicas signal " + PlanCommand.number(r.value()) + " is not a replica count (a whole number in 0.."
                    + PolicyReader.MAX_REPLICAS + "); pass --replicas " + c.name() + "=N";
        } else {
            return new Current((int) r.value(), "signal", null);
        }
        return new Current(null, null, why);
    }

    /** The replicas of the class this target belongs to, as read this tick; empty when unknown. */
    private Optional<WorkloadState> workload(WorkloadRef ref) {
        String cls = classByTarget.get(ref);
        Integer n = cls == null ? null : current(cls).replicas();
        if (n == null) {
            return Optional.empty();
        }
        return Optional.of(new WorkloadState(ref, n, n, null, List.of(), readAt));
    }
}
