package io.headroom.cluster;

import java.util.List;

/**
 * How a drain marks the pods it takes out (DESIGN §5): the lowest
 * {@code controller.kubernetes.io/pod-deletion-cost}, so the ReplicaSet removes exactly those pods
 * when replicas are lowered, and {@value #DRAIN_ANNOTATION} with the drain's id, which a worker
 * can watch (downward API) to stop taking new work.
 */
public final class PodMarks {
    /** Kubernetes' annotation; among ready pods, the lowest cost is deleted first on scale-down. */
    public static final String DELETION_COST_ANNOTATION = "controller.kubernetes.io/pod-deletion-cost";
    /** Headroom's annotation: the id of the drain taking the pod out. Workers stop accepting work when set. */
    public static final String DRAIN_ANNOTATION = "headroom.io/drain";
    /** The deletion cost a drain sets: the lowest an int32 annotation can hold. */
    public static final int DRAIN_DELETION_COST = Integer.MIN_VALUE;

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
}
