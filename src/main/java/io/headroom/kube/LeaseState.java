package io.headroom.kube;

import java.time.Instant;

/**
 * Who holds a class's actuation lease, as last seen. {@code mine} means this console may actuate
 * until {@code expiresAt} (unless it renews); otherwise it observes only and the UI shows {@code holder}.
 *
 * @param holder null when nobody holds the lease
 * @param note   what happened at the last attempt, e.g. "held by bob@desk/1a2b until 10:04:15"
 */
public record LeaseState(String namespace, String leaseName, String holder, boolean mine, Instant renewedAt,
                         Instant expiresAt, String note) {
}
