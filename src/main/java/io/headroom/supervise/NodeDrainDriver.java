package io.headroom.supervise;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.EvictionResult;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.PodState;
import io.headroom.drain.NodeDrain;
import io.headroom.drain.NodeDrainAction;
import io.headroom.drain.NodeDrainPod;
import io.headroom.drain.NodeDrainStep;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalException;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Carries out what node drain steps ask ({@link NodeDrainAction}s) against the cluster and feeds the
 * results back into {@link NodeDrainStep}; journals the start, the cordon, each eviction and each new
 * refusal, the end and an uncordon. Loop thread only, like the supervisor that owns it: a drain moves
 * on at most once per {@link #LOOK_EVERY} of the supervisor's clock, and a refused eviction is asked
 * again on the first look after its back-off.
 */
final class NodeDrainDriver {
    /** How often a running node drain looks at its node (the supervisor's ticks call more often). */
    static final Duration LOOK_EVERY = Duration.ofSeconds(2);

    private final ClusterPorts cluster;
    private final Journal journal;
    private final String user;
    private final Supplier<Collection<WorkloadClass>> classes;
    private final Function<String, Map<String, Double>> load;
    private final Function<String, Freeze> freezeOf;
    private final Map<NodeRef, NodeDrain> drains = new LinkedHashMap<>();
    /** Per running drain and pod, the last refusal journaled ("budget|message"): a new one only when it changes. */
    private final Map<String, String> refusalJournaled = new HashMap<>();
    private volatile List<NodeDrain> snapshot = List.of();
    private Instant lastLook;
    private long counter;
    /** Per drain id, the operator's reason: written on the node with the cordon. */
    private final Map<String, String> reasons = new HashMap<>();

    NodeDrainDriver(ClusterPorts cluster, Journal journal, String user, Supplier<Collection<WorkloadClass>> classes,
                    Function<String, Map<String, Double>> load, Function<String, Freeze> freezeOf) {
        this.cluster = cluster;
        this.journal = journal;
        this.user = user;
        this.classes = classes;
        this.load = load;
        this.freezeOf = freezeOf;
    }

    /** Every node drain this console ran, running or the last one per node; any thread. */
    List<NodeDrain> drains() {
        return snapshot;
    }

    boolean anyActive() {
        return drains.values().stream().anyMatch(NodeDrain::active);
    }

    Outcome start(NodeRef node, Duration deadline, Duration noticeGrace, String reason, String tag, Instant now) {
        NodeDrain running = drains.get(node);
        if (running != null && running.active()) {
            return Outcome.refused(Outcome.Why.HELD, node.name() + " is already draining (" + running.id() + ")");
        }
        Freeze all = freezeOf.apply(null);
        if (all != null) {
            return Outcome.refused(Outcome.Why.HELD, "everything is frozen (" + all.reason() + "); unfreeze first");
        }
        Optional<NodeState> n;
        try {
            n = cluster.nodes().node(node);
        } catch (RuntimeException e) {
            return Outcome.refused(Outcome.Why.CLUSTER, "could not read node " + node.name() + ": " + e.getMessage());
        }
        if (n.isEmpty()) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, "no node " + node.name() + " in " + node.context());
        }
        String id = "node-" + node.name() + "-" + (counter + 1) + "-" + tag;
        NodeDrainStep.Planned planned = NodeDrainStep.plan(id, n.get(), classOfPods(node.context()), deadline,
                noticeGrace, now);
        if (planned instanceof NodeDrainStep.Refused r) {
            return Outcome.refused(Outcome.Why.CLUSTER, node.name() + ": " + r.reason());
        }
        NodeDrain d = ((NodeDrainStep.Plan) planned).drain();
        reasons.put(id, reason == null || reason.isBlank() ? "node drain" : reason);
        if (!append(record(now, Kind.NODE_DRAIN_STARTED, node, null).proposal(id).until(d.deadline())
                .reason(reason == null || reason.isBlank() ? null : reason)
                .detail(classesOf(d) + "; taking " + (d.pods().isEmpty() ? "no pod" : String.join(", ", d.pods().stream()
                        .map(p -> p.key() + (p.headroom() ? " (" + p.className() + ", drained first)" : "")).toList()))
                        + (d.left().isEmpty() ? "" : "; leaving " + String.join(", ", d.left()))))) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, node.name() + ": drain not started, not journaled"
                    + journal.failure().map(f -> " (" + f + ")").orElse(""));
        }
        counter++;
        d = carryOut(null, new NodeDrainStep.Step(d, List.of(((NodeDrainStep.Plan) planned).cordon())), now);
        return d.active() ? Outcome.ok("draining " + node.name() + " (" + classesOf(d) + "): " + d.detail())
                : Outcome.refused(Outcome.Why.CLUSTER, node.name() + ": drain " + d.phase().name().toLowerCase() + ": " + d.detail());
    }

    /**
     * What draining {@code node} would do, for the confirmation before it starts: the node read now, the
     * budgets covering its pods, each class's ready pods and {@code need} (its last decision's replicas).
     */
    io.headroom.drain.NodeDrainPreview preview(NodeRef node, Function<String, Integer> need) {
        NodeState n = cluster.nodes().node(node).orElseThrow(() ->
                new IllegalStateException("no node " + node.name() + " in " + node.context()));
        Map<String, String> classOf = classOfPods(node.context());
        List<io.headroom.cluster.DisruptionBudget> budgets;
        try {
            budgets = cluster.nodes().budgets(node.context(), n.pods().stream().map(io.headroom.cluster.NodePod::key)
                    .toList());
        } catch (RuntimeException e) {
            budgets = List.of(); // the confirmation says so: the drain still meets each budget's refusal
        }
        Map<String, io.headroom.drain.NodeDrainPreview.Capacity> capacity = new HashMap<>();
        for (WorkloadClass c : classes.get()) {
            Integer wanted = need.apply(c.name());
            if (wanted == null || !node.context().equals(c.target().context())) {
                continue;
            }
            try {
                int ready = 0;
                boolean seen = false;
                for (io.headroom.cluster.WorkloadRef ref : workloadsOf(c)) { // a pooled class: its pools together
                    Optional<io.headroom.cluster.WorkloadState> w = cluster.workloads().workload(ref);
                    seen |= w.isPresent();
                    ready += w.map(io.headroom.cluster.WorkloadState::readyReplicas).orElse(0);
                }
                if (seen) {
                    capacity.put(c.name(), new io.headroom.drain.NodeDrainPreview.Capacity(ready, wanted));
                }
            } catch (RuntimeException e) {
                // not judged: the confirmation lists its pods all the same
            }
        }
        return io.headroom.drain.NodeDrainPreview.of(n, classOf, budgets, capacity);
    }

    Outcome cancel(NodeRef node, String why, Instant now) {
        NodeDrain d = drains.get(node);
        if (d == null || !d.active()) {
            return Outcome.refused(Outcome.Why.NOT_FOUND, node.name() + " has no running drain");
        }
        NodeDrain next = carryOut(d, NodeDrainStep.cancel(d, why, now), now);
        return Outcome.ok(node.name() + ": " + next.detail());
    }

    /**
     * The nodes Headroom cordoned ({@link io.headroom.cluster.CordonMark}) that no drain of this console is
     * running on: left by a console that stopped mid-drain (this one before a restart, or another), or by a
     * drain that ended with the node cordoned. The operator may uncordon each or drain it again.
     */
    List<NodeState> leftCordoned(List<NodeState> nodes) {
        return nodes.stream().filter(n -> n.headroomCordon() != null)
                .filter(n -> drains.get(n.ref()) == null || !drains.get(n.ref()).active()).toList();
    }

    /** Uncordons a node (journaled first); refused while a drain of it runs: cancel that first. */
    Outcome uncordon(NodeRef node, String reason, Instant now) {
        NodeDrain d = drains.get(node);
        if (d != null && d.active()) {
            return Outcome.refused(Outcome.Why.HELD, node.name() + " is draining (" + d.id() + "); cancel the drain first");
        }
        if (!append(record(now, Kind.NODE_UNCORDONED, node, null).reason(reason))) {
            return Outcome.refused(Outcome.Why.UNJOURNALED, node.name() + ": not uncordoned, not journaled"
                    + journal.failure().map(f -> " (" + f + ")").orElse(""));
        }
        NodeResult r;
        try {
            r = cluster.nodes().cordon(node, false, null);
        } catch (RuntimeException e) {
            r = NodeResult.failed(String.valueOf(e.getMessage()));
        }
        if (!r.ok()) {
            append(record(now, Kind.FAILED, node, null).reason("uncordon").detail(r.message()));
            return Outcome.failed(node.name() + ": uncordon failed: " + r.message());
        }
        return Outcome.ok(node.name() + " uncordoned: new pods may be placed on it again");
    }

    /** One look at each running drain, at most once per {@link #LOOK_EVERY}. */
    void advance(Instant now) {
        if (!anyActive() || lastLook != null && now.isBefore(lastLook.plus(LOOK_EVERY))) {
            return;
        }
        lastLook = now;
        for (NodeDrain d : List.copyOf(drains.values())) {
            if (!d.active()) {
                continue;
            }
            NodeState n;
            try {
                n = cluster.nodes().node(d.node()).orElse(null);
            } catch (RuntimeException e) {
                n = null;
            }
            Map<String, Map<String, Double>> inFlight = new HashMap<>();
            d.pods().stream().filter(NodeDrainPod::headroom).map(NodeDrainPod::className).distinct()
                    .forEach(c -> inFlight.put(c, load.apply(c)));
            Set<String> frozen = new java.util.HashSet<>();
            d.pods().stream().filter(NodeDrainPod::headroom).map(NodeDrainPod::className).distinct()
                    .filter(c -> freezeOf.apply(c) != null).forEach(frozen::add);
            carryOut(d, NodeDrainStep.observe(d, n, inFlight, frozen, now), now);
        }
    }

    private NodeDrain carryOut(NodeDrain previous, NodeDrainStep.Step step, Instant now) {
        NodeDrain d = step.drain();
        Deque<NodeDrainAction> todo = new ArrayDeque<>(step.actions());
        while (!todo.isEmpty()) {
            NodeDrainAction a = todo.poll();
            if (a instanceof NodeDrainAction.Cordon) {
                NodeResult r;
                try {
                    r = cluster.nodes().cordon(d.node(), true, new io.headroom.cluster.CordonMark(user, now,
                            reasons.getOrDefault(d.id(), "node drain"), d.id(), d.marksExpireAt()));
                } catch (RuntimeException e) {
                    r = NodeResult.failed(String.valueOf(e.getMessage()));
                }
                if (r.ok()) {
                    append(record(now, Kind.NODE_CORDONED, d.node(), null).proposal(d.id()).detail(r.message()));
                }
                NodeDrainStep.Step next = NodeDrainStep.cordoned(d, r, now);
                d = next.drain();
                todo.addAll(next.actions());
            } else if (a instanceof NodeDrainAction.Mark m) {
                PodMarks.Result r = target(m.className()).map(t -> {
                    List<String> done = new java.util.ArrayList<>();
                    List<String> failed = new java.util.ArrayList<>();
                    byWorkload(t, m.pods()).forEach((ref, pods) -> {
                        PodMarks.Result one;
                        try {
                            one = cluster.drainMarks().markForDrain(ref, pods, m.drainId(), m.expiresAt());
                        } catch (RuntimeException e) {
                            one = PodMarks.Result.refused(pods, String.valueOf(e.getMessage()));
                        }
                        done.addAll(one.done());
                        failed.addAll(one.failed());
                    });
                    return new PodMarks.Result(done, failed);
                }).orElse(PodMarks.Result.refused(m.pods(), "class " + m.className() + " is gone"));
                NodeDrainStep.Step next = NodeDrainStep.marked(d, m.className(), r, now);
                d = next.drain();
                todo.addAll(next.actions());
            } else if (a instanceof NodeDrainAction.Unmark u) {
                target(u.className()).ifPresent(t -> byWorkload(t, u.pods()).forEach((ref, pods) -> {
                    try {
                        cluster.drainMarks().unmarkDrain(ref, pods, u.drainId());
                    } catch (RuntimeException e) {
                        // Left for the marks' expiry: any console clears expired marks (DrainDriver).
                    }
                }));
            } else if (a instanceof NodeDrainAction.Evict e) {
                d = evict(d, e, now);
            }
        }
        if (!d.active() && (previous == null || previous.active())) {
            append(record(now, Kind.NODE_DRAIN_ENDED, d.node(), null).proposal(d.id()).reason(d.phase().name())
                    .detail(d.detail()));
            String prefix = d.id() + "|";
            refusalJournaled.keySet().removeIf(k -> k.startsWith(prefix));
        }
        drains.put(d.node(), d);
        snapshot = List.copyOf(drains.values());
        return d;
    }

    private NodeDrain evict(NodeDrain d, NodeDrainAction.Evict e, Instant now) {
        String key = e.namespace() + "/" + e.pod();
        String cls = d.pods().stream().filter(p -> p.key().equals(key)).findFirst().map(NodeDrainPod::className)
                .orElse(null);
        EvictionResult r;
        try {
            r = cluster.nodes().evict(d.node().context(), e.namespace(), e.pod());
        } catch (RuntimeException ex) {
            r = EvictionResult.failed(String.valueOf(ex.getMessage()));
        }
        NodeDrain next = NodeDrainStep.evicted(d, key, r, now).drain();
        switch (r.outcome()) {
            case EVICTED -> append(record(now, Kind.POD_EVICTED, d.node(), cls).proposal(d.id()).detail(key));
            case GONE -> { }
            default -> {
                String what = r.budget() + "|" + r.message();
                if (!what.equals(refusalJournaled.put(d.id() + "|" + key, what))) {
                    append(record(now, Kind.EVICTION_REFUSED, d.node(), cls).proposal(d.id())
                            .reason(r.budget() == null ? r.outcome().name() : "PodDisruptionBudget " + r.budget())
                            .detail(key + ": " + r.message()));
                }
            }
        }
        return next;
    }

    /** "classes payments-steady, search-interactive" (Headroom's classes whose pods it takes), or "no Headroom class". */
    static String classesOf(NodeDrain d) {
        List<String> names = d.pods().stream().filter(NodeDrainPod::headroom).map(NodeDrainPod::className).distinct()
                .toList();
        return names.isEmpty() ? "no Headroom class" : (names.size() == 1 ? "class " : "classes ")
                + String.join(", ", names);
    }

    /** "ns/name" → class, for the classes whose workloads live in {@code context} (cache reads). */
    private Map<String, String> classOfPods(String context) {
        Map<String, String> out = new HashMap<>();
        for (WorkloadClass c : classes.get()) {
            if (!context.equals(c.target().context())) {
                continue;
            }
            for (io.headroom.cluster.WorkloadRef ref : workloadsOf(c)) {
                try {
                    cluster.workloads().workload(ref).ifPresent(w -> {
                        for (PodState p : w.pods()) {
                            out.put(ref.namespace() + "/" + p.name(), c.name());
                        }
                    });
                } catch (RuntimeException e) {
                    // A workload that cannot be read now: its pods are evicted as any other's (kubectl's way).
                }
            }
        }
        return out;
    }

    /** The workloads a class's pods belong to: every pool's, for a class placed across pools (decision 0029). */
    private static List<io.headroom.cluster.WorkloadRef> workloadsOf(WorkloadClass c) {
        return c.pooled() ? c.pools().targets() : List.of(c.target());
    }

    /**
     * A class's pods grouped by the workload that runs them (cache reads), so each mark is set on, fenced and
     * gated by, its own pool's Deployment; a pod found in none stays with the class's target, as before pools.
     */
    private Map<io.headroom.cluster.WorkloadRef, List<String>> byWorkload(WorkloadClass c, List<String> pods) {
        Map<io.headroom.cluster.WorkloadRef, List<String>> out = new LinkedHashMap<>();
        List<String> left = new java.util.ArrayList<>(pods);
        if (c.pooled()) {
            for (io.headroom.cluster.WorkloadRef ref : workloadsOf(c)) {
                Set<String> here;
                try {
                    here = cluster.workloads().workload(ref).map(w -> w.pods().stream().map(PodState::name)
                            .collect(java.util.stream.Collectors.toSet())).orElse(Set.of());
                } catch (RuntimeException e) {
                    continue;
                }
                List<String> mine = left.stream().filter(here::contains).toList();
                if (!mine.isEmpty()) {
                    out.put(ref, new java.util.ArrayList<>(mine));
                    left.removeAll(mine);
                }
            }
        }
        if (!left.isEmpty()) {
            out.computeIfAbsent(c.target(), k -> new java.util.ArrayList<>()).addAll(left);
        }
        return out;
    }

    private Optional<WorkloadClass> target(String className) {
        return classes.get().stream().filter(c -> c.name().equals(className)).findFirst();
    }

    private JournalRecord record(Instant at, Kind kind, NodeRef node, String className) {
        return JournalRecord.of(at, kind, user, node.context(), className).node(node.name());
    }

    private boolean append(JournalRecord r) {
        try {
            journal.append(r);
            return true;
        } catch (JournalException e) {
            return false;
        }
    }
}
