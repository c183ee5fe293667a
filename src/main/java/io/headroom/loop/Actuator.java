package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;

/**
 * The seam between deciding and acting. The direct actuator applies every change; the
 * supervised flow turns changes into proposals instead. Called on the loop's thread.
 */
public interface Actuator {

    /** Handles one class's decision for this tick and says what happened. */
    Actuation handle(WorkloadClass cls, Decision decision, WorkloadState state);

    /**
     * This tick could not read the class's workload ({@code problem} says why), so there is no
     * decision; an actuator with work in progress (a drain) still gets to move it on, e.g. to time out.
     */
    default void unobserved(WorkloadClass cls, String problem) {
    }
}
