package io.headroom.sim;

import io.headroom.decision.Placement;
import io.headroom.decision.Placement.PoolObservation;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.decision.ScalingBehavior;
import io.headroom.decision.Signal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pools of one simulated class: per pool, the pods asked for, those the scheduler placed and those
 * Pending (Unschedulable, since when). Each tick it observes the pools, runs {@link Placement} on the
 * class's decided replicas and applies the shares; the simulated world runs the scheduled pods that can work
 * ({@link #working}). A pool without capacity keeps the pods it runs; its new pods pend until capacity
 * returns. A pool whose broker fails acquisitions runs its pods, which do no work, and reports one failed
 * acquisition per pod per second.
 */
final class PoolLedger {

    private final List<SimPool> pools;
    private final List<PoolSpec> specs;
    private final Placement.Timing timing;
    private final ScalingBehavior up;
    private final Map<String, int[]> pods = new LinkedHashMap<>(); // {scheduled, pending}
    private final Map<String, Instant> pendingSince = new LinkedHashMap<>();
    private final Map<String, Instant> lastScheduled = new LinkedHashMap<>();
    private Placement.Memory memory = Placement.Memory.EMPTY;

    PoolLedger(List<SimPool> pools, Placement.Timing timing) {
        this(pools, timing, ScalingBehavior.defaultUp());
    }

    /** The pools of a class scaling up by {@code up} (a pool whose capacity is back takes back one step of it). */
    PoolLedger(List<SimPool> pools, Placement.Timing timing, ScalingBehavior up) {
        this.up = up;
        if (pools.isEmpty()) {
            throw new IllegalArgumentException("a pooled class needs at least one pool");
        }
        this.pools = List.copyOf(pools);
        this.timing = timing;
        List<PoolSpec> s = new ArrayList<>();
        for (SimPool p : pools) {
            s.add(p.spec());
            pods.put(p.spec().name(), new int[2]);
        }
        this.specs = List.copyOf(s);
    }

    List<PoolSpec> specs() {
        return specs;
    }

    /** Starts the class with {@code replicas} running in its preferred pools (the scenario's initial replicas). */
    void start(int replicas) {
        int left = replicas;
        for (PoolSpec p : specs) {
            int n = Math.min(left, p.maxReplicas());
            pods.get(p.name())[0] = n;
            left -= n;
        }
    }

    /** Places {@code replicas} at {@code now}, {@code t} seconds into the run; the world then runs {@link #scheduled()}. */
    Placement.Result place(int replicas, Instant now, double t) {
        schedule(now, t);
        Map<String, PoolObservation> observed = new LinkedHashMap<>();
        for (SimPool p : pools) {
            String name = p.spec().name();
            int[] n = pods.get(name);
            Signal figure = p.hasBroker() ? Signal.of(p.acquisitionsFail(t) ? n[0] : 0, now) : null;
            observed.put(name, new PoolObservation(name, n[0] + n[1], n[0], n[1], pendingSince.get(name),
                    lastScheduled.get(name), figure));
        }
        Placement.Result r = Placement.place(specs, replicas, observed, memory, now, timing, up);
        memory = r.memory();
        for (Placement.PoolShare s : r.shares()) {
            resize(s.pool(), s.specReplicas(), now);
        }
        schedule(now, t);
        return r;
    }

    /** Pods the scheduler placed, over every pool: what the world runs. */
    int scheduled() {
        int sum = 0;
        for (int[] n : pods.values()) {
            sum += n[0];
        }
        return sum;
    }

    /** Pods placed on a node whose broker lets them work at {@code t} seconds into the run: what the world runs. */
    int working(double t) {
        int sum = 0;
        for (SimPool p : pools) {
            if (!p.acquisitionsFail(t)) {
                sum += pods.get(p.spec().name())[0];
            }
        }
        return sum;
    }

    /** Per pool with Pending pods, since when the oldest of them has waited. */
    Map<String, Instant> pendingSince() {
        return Map.copyOf(pendingSince);
    }

    int pending(String pool) {
        return pods.get(pool)[1];
    }

    /** Pending pods of pools with capacity find their node. */
    private void schedule(Instant now, double t) {
        for (SimPool p : pools) {
            int[] n = pods.get(p.spec().name());
            if (n[1] > 0 && p.hasCapacity(t)) {
                n[0] += n[1];
                n[1] = 0;
                pendingSince.remove(p.spec().name());
                lastScheduled.put(p.spec().name(), now);
            }
        }
    }

    /** Asks a pool for {@code spec} pods: more pend (until scheduled); fewer remove Pending pods first. */
    private void resize(String pool, int spec, Instant now) {
        int[] n = pods.get(pool);
        int diff = spec - (n[0] + n[1]);
        if (diff > 0) {
            n[1] += diff;
            pendingSince.putIfAbsent(pool, now);
        } else if (diff < 0) {
            int fromPending = Math.min(n[1], -diff);
            n[1] -= fromPending;
            n[0] -= -diff - fromPending;
            if (n[1] == 0) {
                pendingSince.remove(pool);
            }
        }
    }
}
