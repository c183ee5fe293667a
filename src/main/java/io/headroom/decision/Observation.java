package io.headroom.decision;

import java.util.Map;

/**
 * What one tick saw of one class: replicas from the cluster and named signals from metrics.
 * Signals absent from the map count as missing.
 */
public record Observation(int currentReplicas, int readyReplicas, Map<String, Signal> signals) {

    public Observation {
        if (currentReplicas < 0 || readyReplicas < 0) {
            throw new IllegalArgumentException("replicas cannot be negative");
        }
        signals = Map.copyOf(signals);
    }

    /** The named signal, or a missing signal saying it was not collected. */
    public Signal signal(String name) {
        Signal s = signals.get(name);
        return s != null ? s : Signal.missing("not collected");
    }
}
