package io.headroom.sandbox;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sandbox's nodes as a drain sees them: pods placed two at a time on each node, cordons, disruption
 * budgets and the Eviction API's answers. Called only from {@link SandboxWorld}'s synchronized methods.
 */
final class SandboxNodes {
    private final SandboxWorld world;
    private final java.util.Set<String> cordoned = new java.util.TreeSet<>();
    /** PodDisruptionBudgets by class: name and maxUnavailable. */
    final Map<String, Map.Entry<String, Integer>> budgets = new LinkedHashMap<>();

    SandboxNodes(SandboxWorld world) {
        this.world = world;
    }

    /** Two pods at a time on each node in turn (so a node holds more than one pod of a class), skipping cordoned ones. */
    String place(int podNumber) {
        int first = ((podNumber - 1) / 2) % SandboxWorld.NODES.size();
        for (int i = 0; i < SandboxWorld.NODES.size(); i++) {
            String n = SandboxWorld.NODES.get((first + i) % SandboxWorld.NODES.size());
            if (!cordoned.contains(n)) {
                return n;
            }
        }
        return SandboxWorld.NODES.get(first); // every node cordoned: the pod stays Pending in a real cluster; here it runs
    }

    /** Cordons or uncordons a node: new pods (scale-ups, replacements) are placed elsewhere. */
    boolean cordon(String node, boolean unschedulable) {
        if (!SandboxWorld.NODES.contains(node)) {
            return false;
        }
        if (unschedulable) {
            cordoned.add(node);
        } else {
            cordoned.remove(node);
        }
        return true;
    }
    List<SandboxWorld.NodeView> nodes(java.util.Collection<SandboxWorld.ClassSim> classes) {
        List<SandboxWorld.NodeView> out = new ArrayList<>();
        for (String n : SandboxWorld.NODES) {
            List<SandboxWorld.NodePodView> pods = new ArrayList<>();
            pods.add(new SandboxWorld.NodePodView("kube-system", "sandbox-proxy-" + n.substring(n.lastIndexOf('-') + 1),
                    "DaemonSet", "sandbox-proxy", true, null, null));
            for (SandboxWorld.ClassSim c : classes) {
                for (SandboxPod p : c.pods) {
                    if (n.equals(p.node)) {
                        pods.add(new SandboxWorld.NodePodView(c.spec.target().namespace(), p.name, "ReplicaSet",
                                c.spec.target().name() + "-rs", p.ready, p.terminating() ? world.toInstant(p.deletedAt) : null,
                                p.drainId));
                    }
                }
            }
            out.add(new SandboxWorld.NodeView(n, cordoned.contains(n), pods));
        }
        return out;
    }

    /**
     * Evicts a pod as the Eviction API does: refused (the budget named) when it would leave fewer ready
     * pods than the class's budget needs; otherwise the pod terminates (finishing its jobs, killed after
     * the grace period) and its ReplicaSet creates a replacement on a node that is not cordoned.
     */
    SandboxWorld.Eviction evict(java.util.Collection<SandboxWorld.ClassSim> classes, String namespace, String podName) {
        for (SandboxWorld.ClassSim c : classes) {
            if (!c.spec.target().namespace().equals(namespace)) {
                continue;
            }
            for (SandboxPod p : c.pods) {
                if (!p.name.equals(podName)) {
                    continue;
                }
                if (p.terminating()) {
                    return new SandboxWorld.Eviction(true, true, null, "already terminating");
                }
                Map.Entry<String, Integer> b = budgets.get(c.spec.name());
                if (b != null && p.ready) {
                    int healthy = c.readyReplicas();
                    int desired = Math.max(0, c.specReplicas - b.getValue());
                    if (healthy - 1 < desired) {
                        return new SandboxWorld.Eviction(false, true, b.getKey(), "The disruption budget " + b.getKey() + " needs "
                                + desired + " healthy pods and has " + healthy + " currently");
                    }
                }
                c.evict(p);
                return new SandboxWorld.Eviction(true, true, null, "evicted");
            }
        }
        return new SandboxWorld.Eviction(false, false, null, "pods \"" + podName + "\" not found");
    }

    /** Each class's budget as the API server would show it: max unavailable, and what it allows now (as {@link #evict}). */
    List<io.headroom.cluster.DisruptionBudget> budgets(java.util.Collection<SandboxWorld.ClassSim> classes) {
        List<io.headroom.cluster.DisruptionBudget> out = new ArrayList<>();
        for (SandboxWorld.ClassSim c : classes) {
            Map.Entry<String, Integer> b = budgets.get(c.spec.name());
            if (b == null) {
                continue;
            }
            int healthy = c.readyReplicas();
            int desired = Math.max(0, c.specReplicas - b.getValue());
            List<String> pods = new ArrayList<>();
            for (SandboxPod p : c.pods) {
                pods.add(c.spec.target().namespace() + "/" + p.name);
            }
            out.add(new io.headroom.cluster.DisruptionBudget(c.spec.target().namespace(), b.getKey(), null,
                    Integer.toString(b.getValue()), Math.max(0, healthy - desired), healthy, desired, pods));
        }
        return out;
    }
}
