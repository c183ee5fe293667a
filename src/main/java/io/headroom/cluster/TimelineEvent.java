package io.headroom.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * A Headroom event as the cluster holds it (reason {@code Headroom…}), whichever console posted it:
 * the read side of {@link TeamEvent}. Every text is the cluster's, made safe to show on one line.
 *
 * @param actor      who acted, as the event's message names them; null when it names no one
 * @param console    the console that posted it (the event's reporting instance); null when unknown
 * @param objectKind what the event is on: Deployment, StatefulSet, Node, ScaledObject…
 */
public record TimelineEvent(Instant at, String reason, String message, boolean warning, String actor,
                            String console, String context, String objectKind, String namespace,
                            String objectName) {
    public TimelineEvent {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
    }

    /** Whether the event is on this workload. */
    public boolean isOn(WorkloadRef ref) {
        return ref.name().equals(objectName) && ref.namespace().equals(namespace)
                && (context == null || ref.context() == null || ref.context().equals(context))
                && (objectKind == null || ref.kind().equalsIgnoreCase(objectKind));
    }

    /** The actor a Headroom event's message begins with ({@code "ana: frozen …"}), or null. */
    public static String actorOf(String message) {
        if (message == null) {
            return null;
        }
        int colon = message.indexOf(": ");
        return colon > 0 && colon <= 64 ? message.substring(0, colon) : null;
    }
}
