package io.headroom.config;

import io.headroom.decision.SignalName;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.Policy;
import io.headroom.loop.WorkloadClass;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One class of a workloads file: its scale target, the PromQL for each signal it reads (standard
 * signals, {@code replicas}, and the signals its ceilings' queries became) and its policy.
 *
 * @param queries          signal name → PromQL, in file order: every query of a control tick, each
 *                         giving one number
 * @param podInFlightQuery the {@value io.headroom.decision.Signals#POD_IN_FLIGHT} PromQL (one series
 *                         per pod), or null. Kept out of {@code queries} on purpose: it is several
 *                         series, read on demand by drains, never in a tick or its sample-time query
 * @param drainOnScaleDown the drain deadline when the class's scale-downs drain ({@code drain:} in the
 *                         file), or null to scale down directly
 * @param podCompletedQuery the {@value io.headroom.decision.Signals#POD_COMPLETED} PromQL (a completion
 *                         counter, one series per pod), or null; like {@code podInFlightQuery}, not in
 *                         {@code queries}
 * @param configuredPools the class's {@code pools:} in preference order, or empty: see {@link #pools()}
 * @param grouped          signal → its grouped query, for the signals written once for many classes
 *                         ({@link GroupedQuery}). Each is also in {@code queries}, as its
 *                         {@link GroupedQuery#perClass() one-class form}, so whatever asks one class
 *                         at a time (charts, exports, plan) still has one PromQL per signal
 */
public record ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                          String podInFlightQuery, java.time.Duration drainOnScaleDown,
                          Map<SignalName, GroupedQuery> grouped, String podCompletedQuery,
                          AdmissionPolicy admission, List<ClassPool> configuredPools) {

    public ClassConfig {
        admission = admission == null ? AdmissionPolicy.DEFAULT : admission;
        configuredPools = configuredPools == null ? List.of() : List.copyOf(configuredPools);
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a class needs a name");
        }
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(policy, "policy");
        grouped = Collections.unmodifiableMap(new LinkedHashMap<>(grouped == null ? Map.of() : grouped));
        Map<SignalName, String> all = new LinkedHashMap<>(queries);
        grouped.forEach((signal, g) -> all.put(signal, g.perClass()));
        queries = Collections.unmodifiableMap(all);
    }

    /** A class without {@code pools:}: one pool, its target. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                       String podInFlightQuery, java.time.Duration drainOnScaleDown,
                       Map<SignalName, GroupedQuery> grouped, String podCompletedQuery, AdmissionPolicy admission) {
        this(name, target, queries, policy, podInFlightQuery, drainOnScaleDown, grouped, podCompletedQuery, admission,
                null);
    }

    /**
     * The class's pools in preference order (decision 0029): those of its {@code pools:}, or one pool, its
     * target bounded by the class's maxReplicas.
     */
    public List<ClassPool> pools() {
        return configuredPools.isEmpty() ? PoolsReader.single(target, policy.maxReplicas()) : configuredPools;
    }

    /** Whether the class lists pools of its own, so its replicas are placed across them. */
    public boolean placed() {
        return !configuredPools.isEmpty();
    }

    /** A class without an {@code admission:} block. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                       String podInFlightQuery, java.time.Duration drainOnScaleDown,
                       Map<SignalName, GroupedQuery> grouped, String podCompletedQuery) {
        this(name, target, queries, policy, podInFlightQuery, drainOnScaleDown, grouped, podCompletedQuery, null);
    }

    /** A class without a per-pod completion counter. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                       String podInFlightQuery, java.time.Duration drainOnScaleDown,
                       Map<SignalName, GroupedQuery> grouped) {
        this(name, target, queries, policy, podInFlightQuery, drainOnScaleDown, grouped, null);
    }

    /** A class whose signals are all its own PromQL. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                       String podInFlightQuery, java.time.Duration drainOnScaleDown) {
        this(name, target, queries, policy, podInFlightQuery, drainOnScaleDown, Map.of());
    }

    /** A class without a per-pod in-flight query that scales down directly. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy) {
        this(name, target, queries, policy, null, null);
    }

    /** A class that scales down directly. */
    public ClassConfig(String name, WorkloadRef target, Map<SignalName, String> queries, Policy policy,
                       String podInFlightQuery) {
        this(name, target, queries, policy, podInFlightQuery, null);
    }

    /** The class as the control loop knows it. */
    public WorkloadClass workloadClass() {
        if (!placed()) {
            return new WorkloadClass(name, target, policy, drainOnScaleDown);
        }
        java.util.List<io.headroom.loop.ClassPools.Pool> pools = new java.util.ArrayList<>();
        configuredPools.forEach(p -> pools.add(new io.headroom.loop.ClassPools.Pool(p.spec(), p.target(),
                p.failedAcquisitions())));
        return new WorkloadClass(name, target, policy, drainOnScaleDown,
                new io.headroom.loop.ClassPools(pools, io.headroom.decision.Placement.Timing.DEFAULT));
    }

    /** The grouped query of a signal, or null when the signal is the class's own PromQL (or not read). */
    public GroupedQuery groupedQuery(SignalName signal) {
        return grouped.get(signal);
    }

    /** The PromQL of a signal (a grouped signal's one-class form), or null when the class does not read it. */
    public String query(SignalName signal) {
        return queries.get(signal);
    }
}
