package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/**
 * Port: the marks a drain puts on pods ({@link PodMarks}): lowest deletion cost and the drain annotation.
 * Marking is fenced by a freeze; unmarking and clearing expired marks give pods back and are not.
 */
public interface DrainMarks {

    /** Marks pods for drain {@code drainId} with marks that expire after {@link PodMarks#DEFAULT_TTL}. */
    PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId);

    /**
     * Marks pods with marks that expire at {@code expiresAt} (null: {@link PodMarks#DEFAULT_TTL} from now). Pods
     * that are gone or not the workload's fail one by one, with the reason.
     */
    PodMarks.Result markForDrain(WorkloadRef ref, List<String> pods, String drainId, Instant expiresAt);

    /**
     * Removes drain {@code drainId}'s marks from pods and restores the deletion cost they replaced; a pod that
     * is gone, or marked by another drain, counts as done.
     */
    PodMarks.Result unmarkDrain(WorkloadRef ref, List<String> pods, String drainId);

    /** Every drain mark on the workload's pods, as the cluster view shows them (a cache read). */
    List<PodMarks.Found> drainMarks(WorkloadRef ref);

    /**
     * Clears marks found expired ({@link PodMarks.Found#expiredAt}) whoever set them, restoring the prior
     * deletion cost; only where the pod still carries exactly that mark, still expired at {@code now}.
     */
    PodMarks.Result clearExpiredMarks(WorkloadRef ref, List<PodMarks.Found> marks, Instant now);
}
