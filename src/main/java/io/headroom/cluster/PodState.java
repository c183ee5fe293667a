package io.headroom.cluster;

import java.time.Instant;

/**
 * One pod of a workload as the cluster reports it. {@code deletionTimestamp} is null unless
 * terminating.
 *
 * @param deletionCost the pod's {@code controller.kubernetes.io/pod-deletion-cost}, null when unset
 * @param drainId      the drain that marked the pod ({@value PodMarks#DRAIN_ANNOTATION}), null when unmarked
 * @param readyAt      when the pod last became ready (its Ready condition's transition), null when
 *                     never ready or unknown: creation to ready is the pod's start-up time
 * @param drainOwner   who set the drain mark ({@value PodMarks#OWNER_ANNOTATION}), null when unmarked or
 *                     when the mark does not say
 * @param priorCost    the deletion cost a drain mark replaced ({@value PodMarks#PRIOR_COST_ANNOTATION}), null
 *                     when there was none (or the pod is unmarked)
 * @param unschedulableSince since when the scheduler has said it cannot place the pod (its {@code PodScheduled}
 *                     condition False with reason {@code Unschedulable}, from the condition's transition), null
 *                     when it does not say so: placement's sign that a pool has no capacity (decision 0029)
 * @param scheduledAt  when the pod was placed on a node ({@code PodScheduled=True}'s transition), null when not
 *                     placed or not known
 */
public record PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                       String node, Integer deletionCost, String drainId, Instant readyAt, String drainOwner,
                       Integer priorCost, Instant unschedulableSince, Instant scheduledAt) {

    /** A pod whose scheduling is not known. */
    public PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                    String node, Integer deletionCost, String drainId, Instant readyAt, String drainOwner,
                    Integer priorCost) {
        this(name, phase, ready, createdAt, deletionTimestamp, node, deletionCost, drainId, readyAt, drainOwner,
                priorCost, null, null);
    }

    /** A pod whose drain mark names no owner and no prior cost. */
    public PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                    String node, Integer deletionCost, String drainId, Instant readyAt) {
        this(name, phase, ready, createdAt, deletionTimestamp, node, deletionCost, drainId, readyAt, null, null);
    }

    /** A pod whose ready time is not known. */
    public PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                    String node, Integer deletionCost, String drainId) {
        this(name, phase, ready, createdAt, deletionTimestamp, node, deletionCost, drainId, null);
    }

    /** A pod without drain marks. */
    public PodState(String name, String phase, boolean ready, Instant createdAt, Instant deletionTimestamp,
                    String node) {
        this(name, phase, ready, createdAt, deletionTimestamp, node, null, null, null, null, null);
    }

    /** True when the scheduler says no node can take the pod (PodScheduled=False, reason Unschedulable). */
    public boolean unschedulable() {
        return unschedulableSince != null;
    }

    public boolean terminating() {
        return deletionTimestamp != null;
    }

    /** True when a drain has marked the pod: its worker should stop taking new work. */
    public boolean draining() {
        return drainId != null;
    }
}
