package io.headroom.drain;

import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodePod;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodMarks;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A node drain's plan and transitions, as pure functions (design.md §5): cordon the node; mark
 * Headroom's pods and wait for their jobs in flight to reach 0; evict every pod through the Eviction
 * API, a refusal (a PodDisruptionBudget's 429) retried with back-off; end completed, timed out
 * (naming the pods still there) or interrupted. Nothing here talks to a cluster: the supervisor's
 * driver carries the actions out and feeds their results back.
 */
public final class NodeDrainStep {

    /** The first retry after a refusal waits this long; each further one twice as long, up to {@link #MAX_BACKOFF}. */
    public static final Duration FIRST_BACKOFF = Duration.ofSeconds(5);
    public static final Duration MAX_BACKOFF = Duration.ofSeconds(60);

    private NodeDrainStep() {
    }

    /** The next state and what to do. */
    public record Step(NodeDrain drain, List<NodeDrainAction> actions) {
        public Step {
            actions = List.copyOf(actions);
        }

        static Step stay(NodeDrain d) {
            return new Step(d, List.of());
        }
    }

    /** A plan, or why there is none. */
    public sealed interface Planned permits Plan, Refused {
    }

    /** The drain to start, in phase CORDONING, and its first action (the cordon). */
    public record Plan(NodeDrain drain, NodeDrainAction.Cordon cordon) implements Planned {
    }

    public record Refused(String reason) implements Planned {
    }

    /**
     * Plans a drain of {@code node}: every pod but DaemonSet, static and finished ones (left, with why);
     * refused when a pod has no controller (evicting it would lose it for good: kubectl wants --force)
     * or is already marked by another drain.
     *
     * @param classOfPod "ns/name" → the Headroom class owning the pod; other pods are absent
     */
    public static Planned plan(String id, NodeState node, Map<String, String> classOfPod, Duration deadline,
                               Duration noticeGrace, Instant now) {
        List<NodeDrainPod> pods = new ArrayList<>();
        List<String> left = new ArrayList<>();
        List<String> unmanaged = new ArrayList<>();
        for (NodePod p : node.pods()) {
            if (p.finished()) {
                left.add(p.key() + " (finished)");
            } else if (p.daemonSet()) {
                left.add(p.key() + " (DaemonSet " + p.ownerName() + ": it runs on every node)");
            } else if (p.mirror()) {
                left.add(p.key() + " (static pod: the kubelet owns it)");
            } else if (p.ownerKind() == null && !p.terminating()) {
                unmanaged.add(p.key());
            } else if (p.drainId() != null) {
                return new Refused("pod " + p.key() + " is already marked by drain " + p.drainId()
                        + "; let it end, or cancel it, before draining " + node.ref().name());
            } else {
                String cls = classOfPod.get(p.key());
                NodeDrainPod.State s = p.terminating() ? NodeDrainPod.State.EVICTED
                        : cls != null ? NodeDrainPod.State.FINISHING_WORK : NodeDrainPod.State.TO_EVICT;
                pods.add(new NodeDrainPod(p.namespace(), p.name(), cls, s, Double.NaN, 0, null, null, null));
            }
        }
        if (!unmanaged.isEmpty()) {
            return new Refused("no controller would recreate " + String.join(", ", unmanaged)
                    + ": evicting them would lose them for good (kubectl drain wants --force for that);"
                    + " move or delete them yourself, then drain " + node.ref().name());
        }
        NodeDrain d = new NodeDrain(id, node.ref(), pods, left, now, now.plus(deadline), noticeGrace,
                NodeDrainPhase.CORDONING, "cordoning " + node.ref().name(), List.of(), null);
        return new Plan(d, new NodeDrainAction.Cordon());
    }

    /** After the cordon: Headroom's pods are marked, every other pod's eviction is asked for at once. */
    public static Step cordoned(NodeDrain d, NodeResult r, Instant now) {
        if (d.phase() != NodeDrainPhase.CORDONING) {
            return Step.stay(d);
        }
        if (!r.ok()) {
            return new Step(d.with(NodeDrainPhase.FAILED, d.pods(), "could not cordon " + d.node().name() + ": "
                    + r.message() + "; nothing evicted", now), List.of());
        }
        List<NodeDrainAction> actions = new ArrayList<>();
        byClass(d.pods(), NodeDrainPod.State.FINISHING_WORK).forEach((cls, names) ->
                actions.add(new NodeDrainAction.Mark(cls, names, d.id(), d.marksExpireAt())));
        actions.addAll(evictionsDue(d.pods(), Set.of(), now));
        NodeDrain next = d.with(NodeDrainPhase.DRAINING, d.pods(), "cordoned " + d.node().name() + "; "
                + summary(d.pods()), now);
        return new Step(next, actions);
    }

    /**
     * After marking a class's pods: the ones that could not be marked are evicted as {@code kubectl drain}
     * would, without waiting for their work (said in the detail).
     */
    public static Step marked(NodeDrain d, String className, PodMarks.Result r, Instant now) {
        if (r.ok() || !d.active()) {
            return Step.stay(d);
        }
        List<String> notMarked = r.failed().stream().map(f -> f.contains(":") ? f.substring(0, f.indexOf(':')) : f)
                .toList();
        List<NodeDrainPod> next = new ArrayList<>();
        for (NodeDrainPod p : d.pods()) {
            boolean failed = className.equals(p.className()) && p.state() == NodeDrainPod.State.FINISHING_WORK
                    && notMarked.contains(p.name());
            next.add(failed ? p.with(NodeDrainPod.State.TO_EVICT) : p);
        }
        NodeDrain nd = d.with(NodeDrainPhase.DRAINING, next, "could not mark " + String.join("; ", r.failed())
                + ": evicted without waiting for their work, as kubectl drain would", now);
        return new Step(nd, evictionsDue(next.stream().filter(p -> notMarked.contains(p.name())
                && className.equals(p.className())).toList(), Set.of(), now));
    }

    /** After one eviction request. A refusal waits {@link #backoff} before the next (a Retry-After, if longer). */
    public static Step evicted(NodeDrain d, String podKey, EvictionResult r, Instant now) {
        if (!d.active()) {
            return Step.stay(d);
        }
        List<NodeDrainPod> next = new ArrayList<>();
        NodeDrain.Refusal refusal = null;
        for (NodeDrainPod p : d.pods()) {
            if (!p.key().equals(podKey)) {
                next.add(p);
                continue;
            }
            switch (r.outcome()) {
                case EVICTED -> next.add(p.with(NodeDrainPod.State.EVICTED));
                case GONE -> next.add(p.with(NodeDrainPod.State.GONE));
                default -> {
                    Instant retry = now.plus(backoff(p.attempts() + 1, r.retryAfterSeconds()));
                    NodeDrainPod q = p.refused(retry, r.budget(), r.message());
                    next.add(q);
                    refusal = new NodeDrain.Refusal(now, podKey, r.budget(), r.message(), q.attempts(), retry);
                }
            }
        }
        NodeDrain nd = d.with(NodeDrainPhase.DRAINING, next, refusal == null ? summary(next)
                : "eviction of " + podKey + " refused" + (r.budget() == null ? "" : " by PodDisruptionBudget "
                + r.budget()) + ": " + r.message() + "; retrying in "
                + Duration.between(now, refusal.retryAt()).toSeconds() + " s", now);
        return Step.stay(refusal == null ? nd : nd.refused(refusal));
    }

    /**
     * A look at the node and at the jobs in flight on Headroom's pods ({@code inFlight}: class → pod →
     * jobs; absent is unknown). {@code node} null: it could not be read, or is gone. Pods of a class in
     * {@code frozen} are not evicted while the freeze lasts.
     */
    public static Step observe(NodeDrain d, NodeState node, Map<String, Map<String, Double>> inFlight,
                               Set<String> frozen, Instant now) {
        if (d.phase() != NodeDrainPhase.DRAINING) {
            return Step.stay(d);
        }
        if (node == null) {
            return now.isBefore(d.deadline()) ? Step.stay(d) : end(d, NodeDrainPhase.TIMED_OUT, d.pods(),
                    "node " + d.node().name() + " could not be read before the deadline; marks removed", now);
        }
        if (!node.unschedulable()) {
            return end(d, NodeDrainPhase.INTERRUPTED, d.pods(), "someone uncordoned " + d.node().name()
                    + " during the drain; nothing more evicted, marks removed", now);
        }
        Map<String, NodePod> there = new LinkedHashMap<>();
        node.pods().forEach(p -> there.put(p.key(), p));
        boolean noticed = !now.isBefore(d.startedAt().plus(d.noticeGrace()));
        List<NodeDrainPod> next = new ArrayList<>();
        for (NodeDrainPod p : d.pods()) {
            NodePod s = there.get(p.key());
            if (s == null) {
                next.add(p.with(NodeDrainPod.State.GONE));
                continue;
            }
            NodeDrainPod q = p;
            if (s.terminating() && q.state() != NodeDrainPod.State.GONE) {
                q = q.with(NodeDrainPod.State.EVICTED);
            }
            if (q.headroom()) {
                Double jobs = inFlight.getOrDefault(q.className(), Map.of()).get(q.name());
                q = q.inFlight(jobs == null || !Double.isFinite(jobs) ? Double.NaN : jobs);
                if (q.state() == NodeDrainPod.State.FINISHING_WORK && noticed && q.inFlight() == 0) {
                    q = q.with(NodeDrainPod.State.TO_EVICT);
                }
            }
            next.add(q);
        }
        if (next.stream().noneMatch(NodeDrainPod::present)) {
            List<String> evicted = next.stream().map(NodeDrainPod::key).toList();
            return end(d, NodeDrainPhase.COMPLETED, next, "drained " + d.node().name() + ": "
                    + (evicted.isEmpty() ? "no pod to evict" : String.join(", ", evicted) + " gone")
                    + (d.left().isEmpty() ? "" : "; left " + String.join(", ", d.left()))
                    + "; it stays cordoned until uncordoned", now);
        }
        if (!now.isBefore(d.deadline())) {
            return end(d, NodeDrainPhase.TIMED_OUT, next, "still on " + d.node().name() + " at the deadline: "
                    + String.join(", ", next.stream().filter(NodeDrainPod::present).map(NodeDrainPod::describe)
                    .toList()) + "; marks removed, the node stays cordoned", now);
        }
        List<String> held = next.stream().filter(p -> p.headroom() && frozen.contains(p.className())
                && p.state() == NodeDrainPod.State.TO_EVICT).map(NodeDrainPod::key).toList();
        String why = summary(next) + (held.isEmpty() ? "" : "; not evicting " + String.join(", ", held)
                + " while its class is frozen");
        if (!noticed && next.stream().anyMatch(p -> p.state() == NodeDrainPod.State.FINISHING_WORK)) {
            why += "; Headroom's workers get until " + d.startedAt().plus(d.noticeGrace()) + " to see their marks";
        }
        return new Step(d.with(NodeDrainPhase.DRAINING, next, why, now), evictionsDue(next, frozen, now));
    }

    /** The operator stops the drain: nothing more is evicted, marks come off, the node stays cordoned. */
    public static Step cancel(NodeDrain d, String why, Instant now) {
        if (!d.active()) {
            return Step.stay(d);
        }
        return end(d, NodeDrainPhase.INTERRUPTED, d.pods(), why + "; nothing more evicted, marks removed"
                + (d.phase() == NodeDrainPhase.CORDONING ? "" : ", the node stays cordoned"), now);
    }

    /** 5 s, 10 s, 20 s, … up to 60 s; never sooner than the server's Retry-After. */
    public static Duration backoff(int attempt, long retryAfterSeconds) {
        long seconds = FIRST_BACKOFF.toSeconds() << Math.min(Math.max(attempt - 1, 0), 10);
        Duration d = Duration.ofSeconds(Math.min(seconds, MAX_BACKOFF.toSeconds()));
        Duration server = Duration.ofSeconds(Math.max(0, retryAfterSeconds));
        return server.compareTo(d) > 0 ? server : d;
    }

    private static Step end(NodeDrain d, NodeDrainPhase phase, List<NodeDrainPod> pods, String why, Instant now) {
        List<NodeDrainAction> unmark = new ArrayList<>();
        if (d.phase() != NodeDrainPhase.CORDONING) {
            // Marks come off every Headroom pod that is still there and not already going.
            List<NodeDrainPod> marked = pods.stream().filter(p -> p.headroom() && (p.state()
                    == NodeDrainPod.State.FINISHING_WORK || p.state() == NodeDrainPod.State.TO_EVICT)).toList();
            byClass(marked, null).forEach((cls, names) -> unmark.add(new NodeDrainAction.Unmark(cls, names, d.id())));
        }
        return new Step(d.with(phase, pods, why, now), unmark);
    }

    private static Map<String, List<String>> byClass(List<NodeDrainPod> pods, NodeDrainPod.State only) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (NodeDrainPod p : pods) {
            if (p.headroom() && (only == null || p.state() == only)) {
                out.computeIfAbsent(p.className(), k -> new ArrayList<>()).add(p.name());
            }
        }
        return out;
    }

    private static List<NodeDrainAction> evictionsDue(List<NodeDrainPod> pods, Set<String> frozen, Instant now) {
        List<NodeDrainAction> out = new ArrayList<>();
        for (NodeDrainPod p : pods) {
            if (p.state() == NodeDrainPod.State.TO_EVICT && (p.nextAttemptAt() == null || !now.isBefore(p.nextAttemptAt()))
                    && !(p.headroom() && frozen.contains(p.className()))) {
                out.add(new NodeDrainAction.Evict(p.namespace(), p.name()));
            }
        }
        return out;
    }

    private static String summary(List<NodeDrainPod> pods) {
        long gone = pods.stream().filter(p -> p.state() == NodeDrainPod.State.GONE).count();
        long going = pods.stream().filter(p -> p.state() == NodeDrainPod.State.EVICTED).count();
        long finishing = pods.stream().filter(p -> p.state() == NodeDrainPod.State.FINISHING_WORK).count();
        long refused = pods.stream().filter(p -> p.state() == NodeDrainPod.State.TO_EVICT && p.attempts() > 0).count();
        long toEvict = pods.stream().filter(p -> p.state() == NodeDrainPod.State.TO_EVICT && p.attempts() == 0).count();
        List<String> parts = new ArrayList<>();
        parts.add(gone + " of " + pods.size() + " pods gone");
        if (going > 0) {
            parts.add(going + " terminating");
        }
        if (finishing > 0) {
            parts.add(finishing + " finishing their jobs");
        }
        if (toEvict > 0) {
            parts.add(toEvict + " to evict");
        }
        if (refused > 0) {
            parts.add(refused + " refused, retrying");
        }
        return String.join(", ", parts);
    }
}
