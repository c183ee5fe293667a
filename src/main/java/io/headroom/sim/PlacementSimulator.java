package io.headroom.sim;

import io.headroom.decision.Decider;
import io.headroom.decision.Placement;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A scenario run with some classes placed across pools (decision 0029): the same world, loop and decision
 * as {@link Simulator}, with {@link PoolLedger}s between the decided replicas and the pods the world runs.
 * A pool without capacity (a {@link SimPool#noCapacity()} window) keeps what it runs; its new pods pend.
 */
public final class PlacementSimulator {

    /** One pooled class's placement at one tick, and since when each pool's oldest Pending pod had waited. */
    public record PlacementLine(double t, String className, Placement.Result result, Map<String, Instant> pendingSince) {
        public PlacementLine {
            pendingSince = Map.copyOf(pendingSince);
        }

        /** What the split is, without the times in its words: equal keys, the same split for the same reasons. */
        public String key() {
            StringBuilder b = new StringBuilder();
            for (Placement.PoolShare s : result.shares()) {
                b.append(s.pool()).append(' ').append(s.replicas()).append('/').append(s.specReplicas())
                        .append(s.available()).append(s.reasons().stream().map(r -> r.code().name()).toList());
            }
            return b.append(result.unplaced()).toString();
        }
    }

    private PlacementSimulator() {
    }

    /** Runs {@code scenario} under Headroom's decision, its {@code placement:} classes placed across their pools. */
    public static List<Simulator.ClassSummary> run(Scenario scenario, Consumer<Simulator.TickLine> onTick,
                                                   Consumer<PlacementLine> onPlacement) {
        return run(scenario, Decider.HEADROOM, onTick, onPlacement);
    }

    /** The same with {@code decider} choosing the class's replicas (Headroom's decision or a baseline). */
    public static List<Simulator.ClassSummary> run(Scenario scenario, Decider decider,
                                                   Consumer<Simulator.TickLine> onTick,
                                                   Consumer<PlacementLine> onPlacement) {
        if (scenario.placement() == null) {
            throw new IllegalArgumentException("scenario " + scenario.name() + " places no class across pools");
        }
        return Simulator.run(scenario, decider, onTick, r -> { }, (t, name, truth) -> { },
                actuator(scenario, onPlacement));
    }

    /**
     * Runs {@code scenario} with the classes named in {@code pools} placed across theirs (in preference order),
     * whatever its own {@code placement:} says; {@code onPlacement} sees every placement in order.
     */
    public static List<Simulator.ClassSummary> run(Scenario scenario, Map<String, List<SimPool>> pools,
                                                   Placement.Timing timing, Consumer<Simulator.TickLine> onTick,
                                                   Consumer<PlacementLine> onPlacement) {
        return run(scenario.withPlacement(new ScenarioPlacement(timing, pools)), onTick, onPlacement);
    }

    /** The pools in front of the world for a run of {@code scenario} (its {@code placement:}). */
    static Simulator.ActuatorFactory actuator(Scenario scenario, Consumer<PlacementLine> onPlacement) {
        ScenarioPlacement placement = scenario.placement();
        Map<String, PoolLedger> ledgers = new LinkedHashMap<>();
        for (ScenarioClass c : scenario.classes()) {
            List<SimPool> p = placement.pools().get(c.name());
            if (p != null) {
                PoolLedger ledger = new PoolLedger(p, placement.timing(), c.policy().scaleUp());
                ledger.start(c.sandbox().initialReplicas());
                ledgers.put(c.name(), ledger);
            }
        }
        for (String name : placement.pools().keySet()) {
            if (!ledgers.containsKey(name)) {
                throw new IllegalArgumentException("no class '" + name + "' in scenario " + scenario.name());
            }
        }
        PoolActuator.Listener listener = (t, name, result, since) ->
                onPlacement.accept(new PlacementLine(t, name, result, since));
        return (world, cluster) -> new PoolActuator(cluster, ledgers, scenario.start(), listener);
    }
}
