package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Observe mode for a whole loop (design.md §4, "shadow: compute and chart, never act"): every change a
 * decision wants is withheld and remembered, and the cluster is never touched. {@code headroom plan}
 * runs the control loop with it. Called on the loop's thread only.
 */
public final class ObserveOnlyActuator implements Actuator {
    private final Map<String, Actuation> wouldDo = new LinkedHashMap<>();

    @Override
    public Actuation handle(WorkloadClass cls, Decision d, WorkloadState state) {
        if (!d.wantsChange()) {
            wouldDo.remove(cls.name());
            return Actuation.none(d.currentReplicas());
        }
        Actuation a = new Actuation(Actuation.Kind.WITHHELD, d.currentReplicas(), d.desiredReplicas(),
                "observe only: would scale " + d.currentReplicas() + " → " + d.desiredReplicas());
        wouldDo.put(cls.name(), a);
        return a;
    }

    @Override
    public Actuation handlePools(WorkloadClass cls, Decision d, WorkloadState state, PoolPlacement placed) {
        if (!placed.wantsChange()) {
            wouldDo.remove(cls.name());
            return Actuation.none(placed.current());
        }
        int to = PoolPlacement.asked(placed.result());
        Actuation a = new Actuation(Actuation.Kind.WITHHELD, placed.current(), to,
                "observe only: would place " + placed.result().explanation());
        wouldDo.put(cls.name(), a);
        return a;
    }

    @Override
    public void unobserved(WorkloadClass cls, String problem) {
        wouldDo.remove(cls.name());
    }

    /** Class name → the change its latest decision wanted and was withheld, for classes that want one now. */
    public Map<String, Actuation> wouldDo() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(wouldDo));
    }
}
