package io.headroom.loop;

import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Decision;
import java.time.Instant;

/**
 * The seam between deciding and acting. The direct actuator applies every change; the
 * supervised flow turns changes into proposals instead. Called on the loop's thread.
 */
public interface Actuator {

    /** Handles one class's decision for this tick and says what happened. */
    Actuation handle(WorkloadClass cls, Decision decision, WorkloadState state);

    /**
     * Handles the decision of a class placed across pools (decision 0029): {@code placed} says what each
     * pool's Deployment is to be asked for; {@code state} is the pools' workloads together. An actuator that
     * does not place across pools writes nothing and says so.
     */
    default Actuation handlePools(WorkloadClass cls, Decision decision, WorkloadState state, PoolPlacement placed) {
        return new Actuation(Actuation.Kind.WITHHELD, placed.current(), PoolPlacement.asked(placed.result()),
                "not acted on: this actuator does not place across pools");
    }

    /**
     * This tick could not read the class's workload ({@code problem} says why), so there is no
     * decision; an actuator with work in progress (a drain) still gets to move it on, e.g. to time out.
     */
    default void unobserved(WorkloadClass cls, String problem) {
    }

    /**
     * A tick's classes are about to be handled, each once ({@link #handle} or {@link #unobserved}): work
     * that concerns every class (expiries) is done here once, not once per class.
     */
    default void tickStarted(Instant now) {
    }

    /** The tick's classes have all been handled: what they changed is published once, here. */
    default void tickEnded(Instant now) {
    }
}
