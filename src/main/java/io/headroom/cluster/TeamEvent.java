package io.headroom.cluster;

import java.time.Instant;
import java.util.Objects;

/**
 * An operator action as a Kubernetes Event on its workload: {@code reason} such as
 * {@code HeadroomApproved}, a message with actor, before → after and the reason (never secrets),
 * Normal or Warning, and when it happened.
 */
public record TeamEvent(String reason, String message, boolean warning, Instant at, String actor) {
    public TeamEvent {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(at, "at");
    }
}
