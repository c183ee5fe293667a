package io.headroom.sim;

import io.headroom.config.ConfigNode;
import io.headroom.config.Fields;
import io.headroom.decision.Placement;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.sandbox.SandboxClassSpec.Window;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A scenario's {@code placement: {unschedulableDeadlineSeconds?, recoverySeconds?, pools: [{class, name,
 * maxReplicas, ceiling?, costWeight?, dependsOn?, noCapacity?: [{from, to}], acquireFails?: [{from, to}]}]}}:
 * pools in preference order per class, each of whose nodes may have no room, or whose broker may fail every
 * acquisition, for windows of the run. Problems located as the rest of the scenario file.
 */
final class ScenarioPlacementReader {

    static final double MAX_TIMING_SECONDS = 3600;

    private ScenarioPlacementReader() {
    }

    /** The scenario's placement, or null when it has none (or its problems were recorded). */
    static ScenarioPlacement read(Fields f, List<ScenarioClass> classes, double duration) {
        Fields p = f.object("placement");
        if (p == null) {
            return null;
        }
        int before = p.errors().count();
        Placement.Timing defaults = Placement.Timing.DEFAULT;
        double deadline = p.number("unschedulableDeadlineSeconds", defaults.unschedulableDeadline().toSeconds());
        p.within("unschedulableDeadlineSeconds", deadline, 1, MAX_TIMING_SECONDS);
        double recovery = p.number("recoverySeconds", defaults.recovery().toSeconds());
        p.within("recoverySeconds", recovery, 0, MAX_TIMING_SECONDS);
        Set<String> names = new HashSet<>();
        classes.forEach(c -> names.add(c.name()));
        Map<String, List<SimPool>> pools = new LinkedHashMap<>();
        if (!p.has("pools")) {
            p.missing("pools");
        }
        for (ConfigNode n : p.list("pools", ScenarioReader.MAX_CLASSES * 8)) {
            Fields o = Fields.of(n, p.errors());
            SimPool pool = pool(o, duration);
            String cls = o.requiredString("class");
            o.finish();
            if (cls != null && !names.contains(cls)) {
                o.error("class", "no class '" + cls + "' in this scenario");
            } else if (cls != null && pool != null) {
                List<SimPool> of = pools.computeIfAbsent(cls, k -> new ArrayList<>());
                if (of.stream().anyMatch(q -> q.spec().name().equals(pool.spec().name()))) {
                    o.error("name", "pool '" + pool.spec().name() + "' of class '" + cls + "' is listed twice");
                }
                of.add(pool);
            }
        }
        p.finish();
        if (p.errors().count() > before) {
            return null;
        }
        Placement.Timing timing = new Placement.Timing(Duration.ofMillis(Math.round(deadline * 1000)),
                Duration.ofMillis(Math.round(recovery * 1000)));
        return new ScenarioPlacement(timing, pools);
    }

    private static SimPool pool(Fields o, double duration) {
        int before = o.errors().count();
        String name = o.requiredString("name");
        Integer max = o.requiredInteger("maxReplicas");
        o.within("maxReplicas", max, 1, ScenarioReader.MAX_REPLICAS);
        Integer ceiling = o.integer("ceiling");
        o.within("ceiling", ceiling, 0, ScenarioReader.MAX_REPLICAS);
        double weight = o.number("costWeight", 1);
        o.within("costWeight", weight, 0, 1_000_000);
        String dependsOn = o.string("dependsOn");
        List<Window> windows = windows(o, "noCapacity", duration);
        List<Window> fails = windows(o, "acquireFails", duration);
        if (o.errors().count() > before || name == null || max == null) {
            return null;
        }
        return o.build(() -> new SimPool(new PoolSpec(name, max, ceiling, weight, dependsOn), windows, fails));
    }

    /** A pool's windows under {@code key}, each {@code {from, to}} within the run. */
    private static List<Window> windows(Fields o, String key, double duration) {
        List<Window> windows = new ArrayList<>();
        for (ConfigNode n : o.list(key, ScenarioReader.MAX_WINDOWS)) {
            Fields w = Fields.of(n, o.errors());
            Double from = w.requiredNumber("from");
            Double to = w.requiredNumber("to");
            w.finish();
            if (from == null || to == null) {
                continue;
            }
            Window window = w.build(() -> new Window(from, to));
            if (window != null && to > duration) {
                w.error("to", "must be within the run (" + ScenarioReader.num(duration) + " s), got "
                        + ScenarioReader.num(to));
            } else if (window != null) {
                windows.add(window);
            }
        }
        return windows;
    }
}
