package io.headroom.drain;

import io.headroom.cluster.DisruptionBudget;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a node drain would do, shown before it starts (issue 28): the pods it would evict grouped by class
 * (Headroom's classes first, then other pods by namespace), the PodDisruptionBudgets that cover them with what
 * each allows now, and what will wait: pods a budget holds back until replacements are ready, and classes whose
 * ready pods drop below what they need while theirs are placed elsewhere. Pure: the same classification as
 * {@link NodeDrainStep#plan}, so the confirmation lists exactly what the drain takes.
 *
 * @param groups  the pods to evict, by class
 * @param budgets one line per budget: what it asks, what it allows now, how many of its pods are on the node
 * @param waits   what will wait, in a sentence each; empty when nothing does
 * @param left    pods the drain leaves alone, with why
 * @param refused why the drain would be refused (then nothing else matters); null when it may start
 */
public record NodeDrainPreview(NodeRef node, List<Group> groups, List<String> budgets, List<String> waits,
                               List<String> left, String refused) {

    /** The pods of one class on the node. {@code className} is a Headroom class, or null for other pods. */
    public record Group(String className, String namespace, List<String> pods) {
        public Group {
            pods = List.copyOf(pods);
        }

        /** "payments-steady" or "other pods in kube-system". */
        public String title() {
            return className != null ? className : "other pods in " + namespace;
        }
    }

    /** A Headroom class's ready pods and what its last decision needs. */
    public record Capacity(int ready, int need) {
    }

    public NodeDrainPreview {
        groups = List.copyOf(groups);
        budgets = List.copyOf(budgets);
        waits = List.copyOf(waits);
        left = List.copyOf(left);
    }

    public int podCount() {
        return groups.stream().mapToInt(g -> g.pods().size()).sum();
    }

    /** The Headroom classes it touches, in order. */
    public List<String> classes() {
        return groups.stream().map(Group::className).filter(java.util.Objects::nonNull).toList();
    }

    /**
     * The preview of draining {@code node}.
     *
     * @param classOfPod "ns/name" → Headroom class
     * @param capacity   Headroom class → its ready pods and need; a class absent is not judged
     */
    public static NodeDrainPreview of(NodeState node, Map<String, String> classOfPod, List<DisruptionBudget> budgets,
                                      Map<String, Capacity> capacity) {
        NodeDrainStep.Planned planned = NodeDrainStep.plan("preview", node, classOfPod, Duration.ofMinutes(1),
                Duration.ZERO, Instant.EPOCH);
        if (planned instanceof NodeDrainStep.Refused r) {
            return new NodeDrainPreview(node.ref(), List.of(), List.of(), List.of(), List.of(), r.reason());
        }
        NodeDrain d = ((NodeDrainStep.Plan) planned).drain();
        Map<String, List<String>> headroom = new LinkedHashMap<>();
        Map<String, List<String>> others = new LinkedHashMap<>();
        for (NodeDrainPod p : d.pods()) {
            (p.headroom() ? headroom.computeIfAbsent(p.className(), k -> new ArrayList<>())
                    : others.computeIfAbsent(p.namespace(), k -> new ArrayList<>())).add(p.key());
        }
        List<Group> groups = new ArrayList<>();
        headroom.forEach((c, pods) -> groups.add(new Group(c, null, pods)));
        others.forEach((ns, pods) -> groups.add(new Group(null, ns, pods)));

        List<String> keys = d.pods().stream().map(NodeDrainPod::key).toList();
        List<String> budgetLines = new ArrayList<>();
        List<String> waits = new ArrayList<>();
        for (DisruptionBudget b : budgets) {
            List<String> here = keys.stream().filter(b::covers).toList();
            if (here.isEmpty()) {
                continue;
            }
            int allowed = Math.max(0, b.disruptionsAllowed());
            budgetLines.add(b.namespace() + "/" + b.name() + ": " + b.asks() + " (" + b.currentHealthy() + " healthy, "
                    + b.desiredHealthy() + " needed), allows " + allowed + (allowed == 1 ? " eviction" : " evictions")
                    + " now; " + here.size() + " of its pods " + (here.size() == 1 ? "is" : "are") + " on this node");
            if (here.size() > allowed) {
                List<String> held = here.subList(allowed, here.size());
                waits.add(String.join(", ", held) + (held.size() == 1 ? " waits" : " wait") + " for " + b.name()
                        + ": it allows " + allowed + " now; the drain retries until replacements are ready elsewhere");
            }
        }
        headroom.forEach((c, pods) -> {
            Capacity cap = capacity.get(c);
            if (cap != null && cap.ready() - pods.size() < cap.need()) {
                waits.add(c + " drops to " + Math.max(0, cap.ready() - pods.size()) + " ready of the " + cap.need()
                        + " it needs (" + pods.size() + " of its " + cap.ready() + " leave this node) until they are"
                        + " placed elsewhere");
            }
        });
        return new NodeDrainPreview(node.ref(), groups, budgetLines, waits, d.left(), null);
    }
}
