package io.headroom.cluster;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * How a drain marks the pods it takes out (design.md §5): the lowest
 * {@code controller.kubernetes.io/pod-deletion-cost}, so the ReplicaSet removes exactly those pods
 * when replicas are lowered, and {@value #DRAIN_ANNOTATION} with the drain's id, which a worker
 * can watch (downward API) to stop taking new work.
 *
 * <p>Nothing is left behind for ever: each mark also names its owner ({@value #OWNER_ANNOTATION}, the
 * console that set it), when it expires ({@value #EXPIRES_ANNOTATION}, an ISO-8601 instant) and the
 * deletion cost it replaced ({@value #PRIOR_COST_ANNOTATION}, absent when there was none). Any console
 * that sees an expired mark, its own or another's, clears it and restores the prior cost.
 */
public final class PodMarks {
    /** Kubernetes' annotation; among ready pods, the lowest cost is deleted first on scale-down. */
    public static final String DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
    /** Headroom's annotation: the id of the drain taking the pod out. Workers stop accepting work when set. */
    public static final String DRAIN_ANNOTATION = "headroom.io/drain";
    /** Who set the mark: the console's identity, e.g. {@code ana@desk-1/5f3a9c01}. */
    public static final String OWNER_ANNOTATION = "headroom.io/drain-owner";
    /** When the mark may be cleared by anyone: an ISO-8601 instant, by the owner's clock. */
    public static final String EXPIRES_ANNOTATION = "headroom.io/drain-expires";
    /** The deletion cost the mark replaced; absent when the pod had none. */
    public static final String PRIOR_COST_ANNOTATION = "headroom.io/prior-deletion-cost";
    /** The deletion cost a drain sets: the lowest an int32 annotation can hold. */
    public static final int DRAIN_DELETION_COST = Integer.MIN_VALUE;
    /** How long a mark set without a drain's deadline lasts. */
    public static final Duration DEFAULT_TTL = Duration.ofMinutes(30);
    /**
     * How long a drain's marks outlive the drain's own end: room for ticks, a slow API and clocks that
     * disagree by minutes, so a live console's marks are never cleared under it.
     */
    public static final Duration EXPIRY_GRACE = Duration.ofMinutes(5);

    private PodMarks() {
    }

    /**
     * What marking or unmarking pods did.
     *
     * @param done    the pods that now carry (or no longer carry) the marks
     * @param failed  the pods that could not be changed, each "name: why"
     */
    public record Result(List<String> done, List<String> failed) {
        public Result {
            done = List.copyOf(done);
            failed = List.copyOf(failed);
        }

        public static Result refused(List<String> pods, String why) {
            return new Result(List.of(), pods.stream().map(p -> p + ": " + why).toList());
        }

        public boolean ok() {
            return failed.isEmpty();
        }
    }

    /**
     * A drain mark found on a pod of a workload.
     *
     * @param owner     the console that set it; null when the mark does not say (set by hand, or an older console)
     * @param expiresAt null when the mark carries no (readable) expiry: then it never expires, nobody can
     *                  tell whose it is
     */
    public record Found(String pod, String drainId, String owner, Instant expiresAt) {
        /** True once the mark's expiry has passed by the given (local) time. */
        public boolean expiredAt(Instant now) {
            return expiresAt != null && !now.isBefore(expiresAt);
        }
    }
}
