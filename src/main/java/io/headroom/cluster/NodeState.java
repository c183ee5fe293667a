package io.headroom.cluster;

import java.time.Instant;
import java.util.List;

/**
 * A node and the pods bound to it, at one moment.
 *
 * @param unschedulable cordoned: no new pod is placed on it
 * @param ready         the node's Ready condition is True
 * @param headroomCordon who cordoned it for Headroom ({@link CordonMark}); null when the node is not cordoned
 *                      or not by Headroom
 */
public record NodeState(NodeRef ref, boolean unschedulable, boolean ready, List<NodePod> pods, Instant observedAt,
                        CordonMark headroomCordon) {
    public NodeState {
        pods = List.copyOf(pods);
        headroomCordon = unschedulable ? headroomCordon : null;
    }

    /** A node that carries no Headroom cordon mark. */
    public NodeState(NodeRef ref, boolean unschedulable, boolean ready, List<NodePod> pods, Instant observedAt) {
        this(ref, unschedulable, ready, pods, observedAt, null);
    }
}
