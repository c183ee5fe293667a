package io.headroom.cluster;

/**
 * Whether an action (e.g. "scale payments/deployment/worker") may be taken now, and if not, why:
 * RBAC says no, another autoscaler owns the workload, another console holds the actuation lease.
 * The UI disables the action and shows {@code reason}.
 */
public record ActionCheck(String action, boolean allowed, String reason) {

    public static ActionCheck allowed(String action) {
        return new ActionCheck(action, true, "allowed");
    }

    public static ActionCheck denied(String action, String reason) {
        return new ActionCheck(action, false, reason);
    }
}
