package io.headroom.cluster;

import java.time.Instant;

/**
 * Port: the team timeline as Kubernetes Events ({@code kubectl describe}, k9s and Lens show them). Best
 * effort: every answer says what was (not) done, nothing throws. A freeze does not stop an event.
 */
public interface TeamEvents {

    /** Posts an Event on the workload. */
    EventResult postEvent(WorkloadRef ref, TeamEvent event);

    /** Posts an Event on a node (a node drain's timeline). */
    EventResult postNodeEvent(NodeRef ref, TeamEvent event);

    /**
     * The Headroom events (reason {@code Headroom…}, posted by any console) the cluster holds from {@code since}
     * on (all when null), oldest first. May ask the API server: never call it on the FX thread.
     */
    TimelineRead teamEvents(Instant since);
}
