package io.headroom.cluster;

/**
 * What to do after a scale hit a workload that moved since it was read: propose a (possibly new)
 * replica count against the fresh state, or give up with the reason.
 */
public record Redecision(Integer replicas, String giveUpReason) {

    public static Redecision propose(int replicas) {
        return new Redecision(replicas, null);
    }

    public static Redecision giveUp(String reason) {
        return new Redecision(null, reason);
    }

    public boolean givesUp() {
        return replicas == null;
    }

    /** Re-decides from the fresh state; called on the caller's thread, never the FX thread. */
    @FunctionalInterface
    public interface Redecider {
        Redecision redecide(WorkloadState fresh);
    }
}
