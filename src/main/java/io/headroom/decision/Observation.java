package io.headroom.decision;

import java.time.Instant;
import java.util.Map;

/**
 * What one tick saw of one class: replicas from the cluster and named signals from metrics.
 * Signals absent from the map count as missing.
 *
 * @param startupSeconds     measured pod start-up (creation → ready) of the workload's recent pods,
 *                           NaN when the cluster does not show it
 * @param replicasChangedAt  when the spec replicas last changed, as far as the cluster shows it; null
 *                           when unknown (a change is then counted from the tick that sees it)
 * @param startingSince      when the oldest pod that is still starting (created, not ready) was created;
 *                           null when none is starting or the cluster does not show it
 * @param podsWithoutProgress ready pods holding work whose completion counter has not moved, each with
 *                           the time it last moved (or was first seen); the decision judges how long is STUCK
 * @param forecastFloor      capacity held ahead of a forecast rise (approved or auto), null when none
 */
public record Observation(int currentReplicas, int readyReplicas, Map<SignalName, Signal> signals,
                          double startupSeconds, Instant replicasChangedAt, Instant startingSince,
                          Map<String, Instant> podsWithoutProgress, ForecastFloor forecastFloor) {

    public Observation {
        if (currentReplicas < 0 || readyReplicas < 0) {
            throw new IllegalArgumentException("replicas cannot be negative");
        }
        signals = Map.copyOf(signals);
        podsWithoutProgress = podsWithoutProgress == null ? Map.of() : Map.copyOf(podsWithoutProgress);
        if (!(startupSeconds >= 0) || Double.isInfinite(startupSeconds)) {
            startupSeconds = Double.NaN;
        }
    }

    /** Without a forecast floor. */
    public Observation(int currentReplicas, int readyReplicas, Map<SignalName, Signal> signals,
                       double startupSeconds, Instant replicasChangedAt, Instant startingSince,
                       Map<String, Instant> podsWithoutProgress) {
        this(currentReplicas, readyReplicas, signals, startupSeconds, replicasChangedAt, startingSince,
                podsWithoutProgress, null);
    }

    /** The same observation with a forecast floor held (null for none). */
    public Observation withForecastFloor(ForecastFloor floor) {
        return new Observation(currentReplicas, readyReplicas, signals, startupSeconds, replicasChangedAt,
                startingSince, podsWithoutProgress, floor);
    }

    /** Replicas and signals; start-up and change times unknown. */
    public Observation(int currentReplicas, int readyReplicas, Map<SignalName, Signal> signals) {
        this(currentReplicas, readyReplicas, signals, Double.NaN, null, null, Map.of());
    }

    /** Replicas, signals, measured start-up and when replicas changed; no pod known to be starting. */
    public Observation(int currentReplicas, int readyReplicas, Map<SignalName, Signal> signals, double startupSeconds,
                       Instant replicasChangedAt) {
        this(currentReplicas, readyReplicas, signals, startupSeconds, replicasChangedAt, null, Map.of());
    }

    public Observation(int currentReplicas, int readyReplicas, Map<SignalName, Signal> signals, double startupSeconds,
                       Instant replicasChangedAt, Instant startingSince) {
        this(currentReplicas, readyReplicas, signals, startupSeconds, replicasChangedAt, startingSince, Map.of());
    }

    /** The named signal, or a missing signal saying it was not collected. */
    public Signal signal(SignalName name) {
        Signal s = signals.get(name);
        return s != null ? s : Signal.NOT_COLLECTED;
    }
}
