package io.headroom.cluster;

/** Whether a write to a node (cordon, uncordon) landed, and why not. */
public record NodeResult(boolean ok, String message) {
    public static NodeResult ok(String message) {
        return new NodeResult(true, message);
    }

    public static NodeResult failed(String message) {
        return new NodeResult(false, message);
    }
}
