package io.headroom.sandbox;

/** A pod of a sandbox class: where it runs, its readiness, its work and Headroom's marks on it. */
final class SandboxPod {
    final String name;
    final String node;
    final double createdAt;
    boolean ready;
    double readyAt = Double.NaN;
    double deletedAt = Double.NaN;
    int inFlight;
    boolean gone;
    /** controller.kubernetes.io/pod-deletion-cost; null when unset (0 for ordering). */
    Integer deletionCost;
    /** The drain that marked the pod: its worker takes no new work. */
    String drainId;
    /** Alive and ready, but its jobs never finish (a deadlocked worker). */
    boolean hung;
    double hungAt = Double.NaN;
    /** Jobs this pod has finished, as a per-pod counter would report. */
    long completed;

    SandboxPod(String name, String node, double createdAt) {
        this.name = name;
        this.node = node;
        this.createdAt = createdAt;
    }

    boolean terminating() {
        return !Double.isNaN(deletedAt);
    }
}
