package io.headroom.cluster;

import java.util.List;
import java.util.Map;

/**
 * Another autoscaler that manages a workload, in its own terms: an HPA, or a KEDA ScaledObject
 * (which drives an HPA of its own). {@link Kind#NONE} when nothing else scales the workload.
 *
 * @param name            the HPA's or ScaledObject's name (null for NONE)
 * @param minReplicas     null when unknown
 * @param maxReplicas     null when unknown
 * @param currentReplicas what the autoscaler last saw (HPA status), null when unknown
 * @param desiredReplicas what the autoscaler wants now (HPA status), null when unknown
 * @param pausedReplicas  KEDA's {@code autoscaling.keda.sh/paused-replicas} when set: KEDA holds this count
 * @param triggers        KEDA triggers or HPA metrics, credentials-free
 * @param hpaName         the HPA doing the work (KEDA's {@code keda-hpa-*} for a ScaledObject)
 */
public record AutoscalerView(Kind kind, WorkloadRef target, String name, Integer minReplicas, Integer maxReplicas,
                             Integer currentReplicas, Integer desiredReplicas, Integer pausedReplicas,
                             List<Trigger> triggers, String hpaName) {

    /** Who manages the workload besides Headroom. */
    public enum Kind { NONE, HPA, KEDA }

    public AutoscalerView {
        triggers = triggers == null ? List.of() : List.copyOf(triggers);
    }

    public static AutoscalerView none(WorkloadRef target) {
        return new AutoscalerView(Kind.NONE, target, null, null, null, null, null, null, List.of(), null);
    }

    public boolean managed() {
        return kind != Kind.NONE;
    }

    /** One trigger (KEDA) or metric (HPA): its type, name and settings, with secret-looking values redacted. */
    public record Trigger(String type, String name, Map<String, String> metadata) {
        public Trigger {
            metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
        }
    }
}
