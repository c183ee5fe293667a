package io.headroom.drain;

import java.time.Instant;

/**
 * One pod a node drain takes off its node.
 *
 * @param className     the Headroom class whose workload owns it; null for any other pod
 * @param inFlight      jobs in flight at the last look (Headroom pods); NaN when unknown or not one
 * @param attempts      eviction requests refused or failed so far
 * @param nextAttemptAt when the next eviction request may go (back-off after a refusal); null until due
 * @param budget        the PodDisruptionBudget that refused the last request; null when none did
 * @param refusal       the last refusal's sentence, as the API server gave it; null when none
 */
public record NodeDrainPod(String namespace, String name, String className, State state, double inFlight,
                           int attempts, Instant nextAttemptAt, String budget, String refusal) {

    /** Where the pod is in the drain. */
    public enum State {
        /** A Headroom pod, marked: its worker takes no new work; waiting for its jobs in flight to reach 0. */
        FINISHING_WORK,
        /** To be evicted when {@code nextAttemptAt} comes (at once, the first time). */
        TO_EVICT,
        /** The Eviction API accepted: the pod terminates with its grace period. */
        EVICTED,
        /** No longer on the node. */
        GONE
    }

    public String key() {
        return namespace + "/" + name;
    }

    public boolean headroom() {
        return className != null;
    }

    /** Still on the node, by the last look. */
    public boolean present() {
        return state != State.GONE;
    }

    NodeDrainPod with(State s) {
        return new NodeDrainPod(namespace, name, className, s, inFlight, attempts, nextAttemptAt, budget, refusal);
    }

    NodeDrainPod inFlight(double jobs) {
        return new NodeDrainPod(namespace, name, className, state, jobs, attempts, nextAttemptAt, budget, refusal);
    }

    NodeDrainPod refused(Instant retryAt, String byBudget, String why) {
        return new NodeDrainPod(namespace, name, className, State.TO_EVICT, inFlight, attempts + 1, retryAt, byBudget,
                why);
    }

    /** "api-7f9c (refused 3× by PodDisruptionBudget api-pdb: …)" and the like, for end states and the view. */
    public String describe() {
        String what = switch (state) {
            case FINISHING_WORK -> Double.isNaN(inFlight) ? "jobs in flight unknown"
                    : DrainPlanner.jobs(inFlight) + " in flight";
            case TO_EVICT -> attempts == 0 ? "to be evicted"
                    : "refused " + attempts + "×" + (budget == null ? "" : " by PodDisruptionBudget " + budget)
                    + (refusal == null ? "" : ": " + refusal);
            case EVICTED -> "evicted, terminating";
            case GONE -> "gone";
        };
        return key() + " (" + what + ")";
    }
}
