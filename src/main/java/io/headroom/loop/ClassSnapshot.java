package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import io.headroom.decision.Observation;
import java.time.Instant;

/**
 * One class at one tick: what was observed, what was decided and what was done. When the class
 * could not be decided at all (workload gone, cluster unreachable), {@code decision} is null and
 * {@code problem} says why; {@code signals} still holds what the metrics source read at that tick,
 * so its figures can be shown while the cluster cannot be read. {@code podWork} is each pod's work as the
 * metrics source reported it (the pod panel's figures), empty without per-pod data. {@code placement} is how the
 * class's replicas were split across its pools (decision 0029), null for a class with one pool; {@code pools} is
 * what each of those pools was seen running at this tick (its spec / ready replicas, its unschedulable pods), by
 * pool name in preference order, empty for a class with one pool; {@code podPools} is the pool each of the class's
 * pods runs in (its pool's Deployment owns it), by pod name, empty for a class with one pool.
 */
public record ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                            Decision decision, Actuation actuation, String problem,
                            java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals,
                            java.util.Map<String, PodWork> podWork,
                            io.headroom.decision.Placement.Result placement,
                            java.util.Map<String, io.headroom.decision.Placement.PoolObservation> pools,
                            java.util.Map<String, String> podPools) {

    public ClassSnapshot {
        signals = signals == null ? java.util.Map.of() : java.util.Map.copyOf(signals);
        podWork = podWork == null ? java.util.Map.of() : java.util.Map.copyOf(podWork);
        pools = pools == null ? java.util.Map.of()
                : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(pools));
        podPools = podPools == null ? java.util.Map.of() : java.util.Map.copyOf(podPools);
    }

    /** A placed snapshot without the pool of each pod (not known). */
    public ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                         Decision decision, Actuation actuation, String problem,
                         java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals,
                         java.util.Map<String, PodWork> podWork, io.headroom.decision.Placement.Result placement,
                         java.util.Map<String, io.headroom.decision.Placement.PoolObservation> pools) {
        this(cls, at, observation, workload, decision, actuation, problem, signals, podWork, placement, pools, null);
    }

    /**
     * What a command on one pod scales: the pool whose Deployment runs it and that pool's replicas, for a class
     * placed across pools whose pod's pool was seen at this tick; else null (the class's own workload, whose
     * replicas are {@code workload().specReplicas()}).
     */
    public PodPool podPool(String pod) {
        String pool = podPools.get(pod);
        io.headroom.decision.Placement.PoolObservation seen = pool == null ? null : pools.get(pool);
        return seen == null ? null : new PodPool(pool, seen.specReplicas());
    }

    /** The pool a pod runs in and the replicas its Deployment was seen asked for. */
    public record PodPool(String pool, int replicas) {
    }

    /** A placed snapshot without what each pool was seen running (not known). */
    public ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                         Decision decision, Actuation actuation, String problem,
                         java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals,
                         java.util.Map<String, PodWork> podWork, io.headroom.decision.Placement.Result placement) {
        this(cls, at, observation, workload, decision, actuation, problem, signals, podWork, placement, null);
    }

    /** A snapshot of a class with one pool (no placement across pools). */
    public ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                         Decision decision, Actuation actuation, String problem,
                         java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals,
                         java.util.Map<String, PodWork> podWork) {
        this(cls, at, observation, workload, decision, actuation, problem, signals, podWork, null);
    }

    /** A snapshot without per-pod work (none reported). */
    public ClassSnapshot(WorkloadClass cls, Instant at, Observation observation, WorkloadState workload,
                         Decision decision, Actuation actuation, String problem,
                         java.util.Map<io.headroom.decision.SignalName, io.headroom.decision.Signal> signals) {
        this(cls, at, observation, workload, decision, actuation, problem, signals, null);
    }

    /** A pod's jobs in flight and recent completions at this tick; {@link PodWork#UNKNOWN} when not reported. */
    public PodWork work(String pod) {
        return podWork.getOrDefault(pod, PodWork.UNKNOWN);
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

    /**
     * Whether the workload was read at this tick, within two polling intervals: false without one (the
     * cluster could not be read), and false for what a cluster view whose watches are down still holds
     * (its {@code observedAt} is when it was last live).
     */
    public boolean workloadCurrent() {
        if (workload == null) {
            return false;
        }
        Instant read = workload.observedAt();
        return read == null || !read.isBefore(at.minusMillis(Math.round(2000 * cls.policy().pollIntervalSeconds())));
    }

    public boolean decided() {
        return decision != null;
    }
}
