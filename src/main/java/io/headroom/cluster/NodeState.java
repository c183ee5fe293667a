package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/**
 * A node and the pods bound to it, at one moment.
 *
 * @param unschedulable cordoned: no new pod is placed on it
 * @param ready         the node's Ready condition is True
 */
public record NodeState(NodeRef ref, boolean unschedulable, boolean ready, List<NodePod> pods, Instant observedAt) {
    public NodeState {
        pods = List.copyOf(pods);
    }
}
