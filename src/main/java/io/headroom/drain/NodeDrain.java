package io.headroom.drain;

import io.headroom.cluster.NodeRef;
import io.headroom.cluster.PodMarks;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One node drain, as data (design.md §5, {@code kubectl drain} the Headroom way): the node, the pods it
 * takes off and where each is, the pods it leaves alone and why, every refusal seen, the deadline
 * and where the drain is. Immutable; {@link NodeDrainStep} makes the next one.
 *
 * @param left        pods left on the node on purpose, each "ns/name (why)": DaemonSet pods, static pods, finished pods
 * @param noticeGrace how long a Headroom worker may take to see its mark: its "idle" counts only after it
 * @param refusals    every eviction refusal or failure, oldest first (at most {@link #MAX_REFUSALS})
 * @param detail      the last thing that happened, in a sentence (the end state's reason once ended)
 * @param endedAt     null while running
 */
public record NodeDrain(String id, NodeRef node, List<NodeDrainPod> pods, List<String> left, Instant startedAt,
                        Instant deadline, Duration noticeGrace, NodeDrainPhase phase, String detail,
                        List<Refusal> refusals, Instant endedAt) {

    /** The refusal log keeps this many, the newest. */
    public static final int MAX_REFUSALS = 200;

    /** One eviction the cluster refused: which pod, which budget (null when none was named), what it said. */
    public record Refusal(Instant at, String pod, String budget, String message, int attempt, Instant retryAt) {
    }

    public NodeDrain {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(node, "node");
        pods = List.copyOf(pods);
        left = List.copyOf(left);
        refusals = List.copyOf(refusals);
    }

    public boolean active() {
        return !phase.ended();
    }

    /** When this drain's marks may be cleared by any console (as a class drain's: after its end, with a grace). */
    public Instant marksExpireAt() {
        return deadline.plus(PodMarks.EXPIRY_GRACE);
    }

    /** Pods still on the node, described ("ns/name (2 in flight)"). */
    public List<String> remaining() {
        return pods.stream().filter(NodeDrainPod::present).map(NodeDrainPod::describe).toList();
    }

    NodeDrain with(NodeDrainPhase next, List<NodeDrainPod> nextPods, String why, Instant now) {
        return new NodeDrain(id, node, nextPods, left, startedAt, deadline, noticeGrace, next, why, refusals,
                next.ended() ? now : null);
    }

    NodeDrain withPods(List<NodeDrainPod> nextPods) {
        return new NodeDrain(id, node, nextPods, left, startedAt, deadline, noticeGrace, phase, detail, refusals,
                endedAt);
    }

    NodeDrain refused(Refusal r) {
        List<Refusal> all = new java.util.ArrayList<>(refusals);
        all.add(r);
        if (all.size() > MAX_REFUSALS) {
            all = all.subList(all.size() - MAX_REFUSALS, all.size());
        }
        return new NodeDrain(id, node, pods, left, startedAt, deadline, noticeGrace, phase, detail, all, endedAt);
    }
}
