package io.headroom.config;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.decision.Signals;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A class's {@code pools:} (decision 0029): Deployments consuming the class's queue, in preference order,
 * each {@code {name, target: {kind?, name}, maxReplicas, ceiling?, costWeight?, dependsOn?,
 * failedAcquisitions?}} (the last a PromQL giving its broker's failed acquisitions per second). Every
 * problem is recorded at its line, as the rest of the workloads file.
 */
final class PoolsReader {

    static final double MAX_COST_WEIGHT = 1_000_000;

    private PoolsReader() {
    }

    /** The pools, or an empty list when the class has none (or every problem was recorded). */
    static List<ClassPool> read(Fields c, String context, String namespace) {
        if (!c.has("pools")) {
            return List.of();
        }
        int before = c.errors().count();
        List<ClassPool> pools = c.namedList("pools", "pool", 32, p -> pool(p, context, namespace),
                pool -> pool.spec().name());
        if (c.errors().count() > before) {
            return List.of();
        }
        List<ConfigNode> items = c.list("pools");
        Map<String, Integer> index = new HashMap<>();
        Map<WorkloadRef, String> targets = new HashMap<>();
        for (int i = 0; i < pools.size(); i++) {
            index.put(pools.get(i).spec().name(), i);
        }
        for (int i = 0; i < pools.size(); i++) {
            ClassPool p = pools.get(i);
            Fields f = Fields.of(items.get(i), c.errors());
            String first = targets.putIfAbsent(p.target(), p.spec().name());
            if (first != null) {
                f.error("target", "pool '" + first + "' already scales " + p.target());
            }
            String on = p.spec().dependsOn();
            if (on == null) {
                continue;
            }
            Integer j = index.get(on);
            if (on.equals(p.spec().name())) {
                f.error("dependsOn", "a pool cannot depend on itself");
            } else if (j == null) {
                f.error("dependsOn", "no pool '" + on + "' in this class");
            } else if (j < i && p.spec().name().equals(pools.get(j).spec().dependsOn())) {
                f.error("dependsOn", "'" + p.spec().name() + "' and '" + on + "' depend on each other");
            }
        }
        return c.errors().count() > before ? List.of() : List.copyOf(pools);
    }

    private static ClassPool pool(Fields p, String context, String namespace) {
        int before = p.errors().count();
        String name = p.requiredString("name");
        if (name != null && name.isBlank()) {
            p.error("name", "must not be blank");
        }
        WorkloadRef target = null;
        Fields t = p.object("target");
        if (t == null) {
            if (!p.has("target")) {
                p.missing("target");
            }
        } else {
            target = WorkloadsFile.target(t, context, namespace);
        }
        Integer max = p.requiredInteger("maxReplicas");
        if (max != null && (max < 1 || max > PolicyReader.MAX_REPLICAS)) {
            p.error("maxReplicas", "must be in [1, " + PolicyReader.MAX_REPLICAS + "], got " + max);
        }
        Integer ceiling = p.integer("ceiling");
        if (ceiling != null && max != null && (ceiling < 0 || ceiling > max)) {
            p.error("ceiling", "must be in [0, " + max + "] (at most maxReplicas), got " + ceiling);
        }
        Double weight = p.number("costWeight");
        if (weight != null && !(weight >= 0 && weight <= MAX_COST_WEIGHT)) {
            p.error("costWeight", "must be in [0, " + Fields.plain(MAX_COST_WEIGHT) + "], got " + Fields.plain(weight));
        }
        String dependsOn = p.string("dependsOn");
        String failed = null;
        if (p.get(Signals.FAILED_ACQUISITIONS).orElse(null) instanceof ConfigNode.MapNode) {
            p.error(Signals.FAILED_ACQUISITIONS, "give its PromQL (one number: failed acquisitions per second),"
                    + " not a grouped query");
        } else {
            failed = PolicyReader.query(p, Signals.FAILED_ACQUISITIONS);
        }
        p.finish();
        if (p.errors().count() > before || target == null) {
            return null;
        }
        WorkloadRef w = target;
        String q = failed;
        return p.build(() -> new ClassPool(new PoolSpec(name, max, ceiling, weight == null ? 1 : weight, dependsOn),
                w, q));
    }

    /** A class without {@code pools:} is one pool: its target, bounded by the class's maxReplicas. */
    static List<ClassPool> single(WorkloadRef target, int maxReplicas) {
        List<ClassPool> one = new ArrayList<>();
        one.add(new ClassPool(new PoolSpec(target.name(), maxReplicas, null, 1, null), target));
        return List.copyOf(one);
    }
}
