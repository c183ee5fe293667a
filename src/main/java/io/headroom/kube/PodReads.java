package io.headroom.kube;

import static io.headroom.kube.KubeClusterGateway.deletionCost;
import static io.headroom.kube.KubeClusterGateway.instant;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import java.time.Instant;
import java.util.Map;

/** A pod from the informer cache as the cluster port has it: ready, drain marks, and what the scheduler said. */
final class PodReads {

    private PodReads() {
    }

    static PodState pod(Pod p) {
        boolean ready = false;
        Instant unschedulableSince = null;
        Instant scheduledAt = null;
        if (p.getStatus() != null && p.getStatus().getConditions() != null) {
            for (PodCondition c : p.getStatus().getConditions()) {
                if ("Ready".equals(c.getType()) && "True".equals(c.getStatus())) {
                    ready = true;
                }
                if ("PodScheduled".equals(c.getType())) {
                    // The scheduler's own word (decision 0029): False/Unschedulable means no node can take it.
                    Instant at = instant(c.getLastTransitionTime());
                    if ("False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
                        unschedulableSince = at != null ? at : instant(p.getMetadata().getCreationTimestamp());
                    } else if ("True".equals(c.getStatus())) {
                        scheduledAt = at;
                    }
                }
            }
        }
        Map<String, String> ann = p.getMetadata().getAnnotations() == null ? Map.of() : p.getMetadata().getAnnotations();
        return new PodState(p.getMetadata().getName(), p.getStatus() == null ? "Unknown" : p.getStatus().getPhase(),
                ready, instant(p.getMetadata().getCreationTimestamp()), instant(p.getMetadata().getDeletionTimestamp()),
                p.getSpec() == null ? null : p.getSpec().getNodeName(),
                deletionCost(ann.get(PodMarks.DELETION_COST_ANNOTATION)), ann.get(PodMarks.DRAIN_ANNOTATION), null,
                ann.get(PodMarks.OWNER_ANNOTATION), deletionCost(ann.get(PodMarks.PRIOR_COST_ANNOTATION)),
                unschedulableSince, scheduledAt);
    }
}
