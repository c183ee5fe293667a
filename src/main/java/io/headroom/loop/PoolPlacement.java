package io.headroom.loop;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Placement;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.Signal;
import io.headroom.decision.SignalName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;

/**
 * One tick's placement of a pooled class (decision 0029), handed to the actuator: each pool's workload as
 * read, the split of the class's decided replicas, and the split of any other count (an override, an
 * approval) under the same observation and memory. What each pool's Deployment is to be asked for is
 * {@link #changes}; the actuator writes them (supervised: fenced, journaled, proposed).
 *
 * @param states       each pool's workload as read this tick, by pool name, in preference order
 * @param observations what placement saw of each pool (its pods, and its broker's figure when it has one)
 */
public record PoolPlacement(ClassPools pools, Placement.Result result, Map<String, WorkloadState> states,
                            IntFunction<Placement.Result> at, Map<String, Placement.PoolObservation> observations) {

    /** One pool's Deployment, from its replicas now to those its share asks for. */
    public record PoolChange(String pool, WorkloadRef target, int from, int to, String resourceVersion,
                             String words) {
        public boolean changes() {
            return from != to;
        }
    }

    public PoolPlacement {
        Objects.requireNonNull(pools, "pools");
        Objects.requireNonNull(result, "result");
        states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
        Objects.requireNonNull(at, "at");
        observations = Collections.unmodifiableMap(new LinkedHashMap<>(observations));
    }

    /** Each pool's change (every pool, in preference order; {@link PoolChange#changes} says which move). */
    public List<PoolChange> changes(Placement.Result r) {
        List<PoolChange> out = new ArrayList<>();
        for (ClassPools.Pool p : pools.pools()) {
            WorkloadState w = states.get(p.name());
            Placement.PoolShare s = r.share(p.name());
            out.add(new PoolChange(p.name(), p.target(), w.specReplicas(), s.specReplicas(), w.resourceVersion(),
                    s.words()));
        }
        return out;
    }

    /** This tick's changes. */
    public List<PoolChange> changes() {
        return changes(result);
    }

    /** The changes that move, the pools that grow first: capacity is asked for before any is taken away. */
    public static List<PoolChange> growFirst(List<PoolChange> changes) {
        List<PoolChange> out = new ArrayList<>();
        changes.stream().filter(c -> c.to() > c.from()).forEach(out::add);
        changes.stream().filter(c -> c.to() < c.from()).forEach(out::add);
        return out;
    }

    /** The pool each pod runs in, by pod name: its pool's Deployment owns it (read with that pool's workload). */
    public Map<String, String> podPools() {
        Map<String, String> out = new LinkedHashMap<>();
        states.forEach((pool, w) -> w.pods().forEach(p -> out.put(p.name(), pool)));
        return out;
    }

    /** The pools' replicas now, summed (probe pods included). */
    public int current() {
        int n = 0;
        for (WorkloadState w : states.values()) {
            n += w.specReplicas();
        }
        return n;
    }

    /** What the pools' Deployments are asked for in {@code r}, summed (probe pods included). */
    public static int asked(Placement.Result r) {
        int n = 0;
        for (Placement.PoolShare s : r.shares()) {
            n += s.specReplicas();
        }
        return n;
    }

    /** Whether any pool's Deployment is to change. */
    public boolean wantsChange() {
        return changes().stream().anyMatch(PoolChange::changes);
    }

    /**
     * Reads every pool's workload; null (with the problem in {@code problem}) when one cannot be read.
     * A pool's workload not found is a problem: its class is not decided from half its pools.
     */
    static Map<String, WorkloadState> read(io.headroom.cluster.Workloads workloads, ClassPools pools,
                                           StringBuilder problem) {
        Map<String, WorkloadState> out = new LinkedHashMap<>();
        for (ClassPools.Pool p : pools.pools()) {
            var w = workloads.workload(p.target());
            if (w.isEmpty()) {
                problem.append("workload ").append(p.target()).append(" (pool ").append(p.name())
                        .append(") not found");
                return null;
            }
            out.put(p.name(), w.get());
        }
        return out;
    }

    /**
     * The class's workload as the decision reads it: its pools' replicas, ready replicas and pods together,
     * under the class's target; its resourceVersion is the first pool's (writes use each pool's own).
     */
    static WorkloadState combined(WorkloadRef target, Map<String, WorkloadState> states) {
        int spec = 0;
        int ready = 0;
        List<PodState> pods = new ArrayList<>();
        Instant observed = null;
        WorkloadState first = null;
        for (WorkloadState w : states.values()) {
            first = first == null ? w : first;
            spec += w.specReplicas();
            ready += w.readyReplicas();
            pods.addAll(w.pods());
            if (w.observedAt() != null && (observed == null || w.observedAt().isBefore(observed))) {
                observed = w.observedAt();
            }
        }
        return new WorkloadState(target, spec, ready, first == null ? null : first.resourceVersion(), pods, observed,
                first == null ? 0 : first.generation());
    }

    /**
     * What placement sees of a pool: its replicas, the pods the scheduler says it cannot place (and since when
     * the oldest has been so) and when one of its pods was last placed on a node.
     */
    static Placement.PoolObservation observe(String pool, WorkloadState w) {
        int stuck = 0;
        Instant since = null;
        Instant lastScheduled = null;
        for (PodState p : w.pods()) {
            if (p.terminating()) {
                continue;
            }
            if (p.unschedulable()) {
                stuck++;
                since = since == null || p.unschedulableSince().isBefore(since) ? p.unschedulableSince() : since;
            }
            if (p.scheduledAt() != null && (lastScheduled == null || p.scheduledAt().isAfter(lastScheduled))) {
                lastScheduled = p.scheduledAt();
            }
        }
        return new Placement.PoolObservation(pool, w.specReplicas(), w.readyReplicas(), stuck, since, lastScheduled);
    }

    /** What placement saw of each pool this tick, by pool name in preference order (the console's spec / ready). */
    public Map<String, Placement.PoolObservation> observed() {
        return observations;
    }

    /** Places {@code replicas} across the pools as observed in {@code states}, remembering {@code memory}. */
    public static PoolPlacement place(ClassPools pools, Map<String, WorkloadState> states, int replicas,
                               Placement.Memory memory, Instant now) {
        return place(pools, states, replicas, memory, now, Map.of(), ScalingBehavior.defaultUp());
    }

    /**
     * Places {@code replicas} across the pools as observed in {@code states} and, for a pool with a broker
     * figure, in the class's {@code signals} this tick (absent: no figure); a pool whose capacity is back takes
     * back at most its ready pods and one step of the class's scale-up behaviour {@code up}.
     */
    static PoolPlacement place(ClassPools pools, Map<String, WorkloadState> states, int replicas,
                               Placement.Memory memory, Instant now, Map<SignalName, Signal> signals,
                               ScalingBehavior up) {
        Map<String, Placement.PoolObservation> observed = new LinkedHashMap<>();
        states.forEach((name, w) -> {
            Placement.PoolObservation o = observe(name, w);
            ClassPools.Pool pool = pools.pool(name);
            if (pool != null && pool.failedAcquisitions() != null) {
                Signal figure = signals.get(pool.failedAcquisitions());
                o = o.withFailedAcquisitions(figure == null || figure.notCollected()
                        ? Signal.missing("not read this tick") : figure);
            }
            observed.put(name, o);
        });
        Placement.Memory before = memory == null ? Placement.Memory.EMPTY : memory;
        IntFunction<Placement.Result> at = n -> Placement.place(pools.specs(), n, observed, before, now,
                pools.timing(), up);
        return new PoolPlacement(pools, at.apply(replicas), states, at, observed);
    }
}
