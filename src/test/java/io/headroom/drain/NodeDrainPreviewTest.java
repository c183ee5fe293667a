package io.headroom.drain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.DisruptionBudget;
import io.headroom.cluster.NodePod;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a node drain's confirmation shows, as data: pods per class, budgets and what they allow, what will wait. */
class NodeDrainPreviewTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static NodePod pod(String ns, String name, String kind) {
        return new NodePod(ns, name, "Running", kind, kind == null ? null : name + "-owner", null, null);
    }

    final NodeState node = new NodeState(new NodeRef("prod", "pool-a-node-17"), false, true, List.of(
            pod("payments", "worker-1", "ReplicaSet"), pod("payments", "worker-2", "ReplicaSet"),
            pod("search", "indexer-1", "ReplicaSet"), pod("web", "api-1", "ReplicaSet"),
            pod("kube-system", "proxy-1", "DaemonSet")), T0);
    final Map<String, String> classes = Map.of("payments/worker-1", "payments", "payments/worker-2", "payments",
            "search/indexer-1", "search");

    @Test
    void podsPerClassTheBudgetsAndWhatWaits() {
        DisruptionBudget pdb = new DisruptionBudget("payments", "payments-pdb", null, "1", 1, 4, 3,
                List.of("payments/worker-1", "payments/worker-2", "payments/worker-3", "payments/worker-4"));
        NodeDrainPreview p = NodeDrainPreview.of(node, classes, List.of(pdb), Map.of(
                "payments", new NodeDrainPreview.Capacity(4, 3), "search", new NodeDrainPreview.Capacity(3, 2)));
        assertNull(p.refused());
        assertEquals(List.of("payments", "search"), p.classes());
        assertEquals(List.of("payments", "search", "other pods in web"), p.groups().stream()
                .map(NodeDrainPreview.Group::title).toList());
        assertEquals(List.of("payments/worker-1", "payments/worker-2"), p.groups().get(0).pods());
        assertEquals(4, p.podCount());
        assertEquals(List.of("payments/payments-pdb: max unavailable 1 (4 healthy, 3 needed), allows 1 eviction now;"
                + " 2 of its pods are on this node"), p.budgets());
        assertEquals(2, p.waits().size(), p.waits().toString());
        assertTrue(p.waits().get(0).startsWith("payments/worker-2 waits for payments-pdb: it allows 1 now"),
                p.waits().get(0));
        assertTrue(p.waits().get(1).startsWith("payments drops to 2 ready of the 3 it needs"), p.waits().get(1));
        assertEquals(1, p.left().size(), "the DaemonSet's pod stays: " + p.left());
    }

    @Test
    void aPodNoControllerWouldRecreateRefusesTheDrainBeforeItStarts() {
        NodeState bare = new NodeState(node.ref(), false, true, List.of(pod("web", "hand-made", null)), T0);
        NodeDrainPreview p = NodeDrainPreview.of(bare, Map.of(), List.of(), Map.of());
        assertTrue(p.refused().contains("no controller would recreate web/hand-made"), p.refused());
    }
}
