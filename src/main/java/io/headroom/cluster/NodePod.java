package io.headroom.cluster;

import java.time.Instant;

/**
 * A pod bound to a node, as a node drain sees it (every namespace).
 *
 * @param ownerKind  the kind of its controller (ReplicaSet, StatefulSet, DaemonSet, Job, Node for a
 *                   static pod's mirror); null when no controller would recreate it
 * @param ownerName  that controller's name; null with it
 * @param drainId    the drain that marked it ({@value PodMarks#DRAIN_ANNOTATION}); null when unmarked
 */
public record NodePod(String namespace, String name, String phase, String ownerKind, String ownerName,
                      Instant deletionTimestamp, String drainId) {

    /** "namespace/name": how a drain names a pod across namespaces. */
    public String key() {
        return namespace + "/" + name;
    }

    public boolean terminating() {
        return deletionTimestamp != null;
    }

    /** Finished pods hold nothing: {@code kubectl drain} leaves them, and so do we. */
    public boolean finished() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    /** A DaemonSet's pod is recreated on the same node whatever it does: a drain leaves it, as kubectl's --ignore-daemonsets. */
    public boolean daemonSet() {
        return "DaemonSet".equals(ownerKind);
    }

    /** A static pod's mirror: the API cannot evict it (the kubelet owns it). */
    public boolean mirror() {
        return "Node".equals(ownerKind);
    }
}
