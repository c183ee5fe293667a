package io.headroom.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.NodePod;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.drain.NodeDrain;
import io.headroom.drain.NodeDrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node drain without a cluster: the sandbox has three nodes, places a class's pods two to a node, and
 * guards payments-steady with a PodDisruptionBudget (maxUnavailable 1). Draining sandbox-node-1 marks
 * every class's pods there, evicts each once idle, and the budget refuses payments-steady's second pod
 * (a 429 with the budget's name) until the first one's replacement, placed on another node, is ready.
 */
class SandboxNodeDrainTest {
    final Instant start = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(start);
    final SandboxWorld world = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, start);
    final io.headroom.cluster.ClusterPorts cluster = new SandboxCluster(world, clock).ports();
    final SandboxMetrics metrics = new SandboxMetrics(world, clock);
    final List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream().map(SandboxCatalog.Entry::workloadClass)
            .toList();
    final MemoryJournal journal = new MemoryJournal();
    final Supervisor supervisor = new Supervisor(classes, cluster, journal, clock, Runnable::run, "ana",
            Duration.ofMinutes(5));
    final ControlLoop loop = new ControlLoop(classes, cluster, metrics, supervisor, clock);
    final NodeRef node1 = new NodeRef("sandbox", "sandbox-node-1");

    NodeState node1() {
        return cluster.nodes().node(node1).orElseThrow();
    }

    void run(Duration span) {
        Instant end = clock.instant().plus(span);
        while (clock.instant().isBefore(end)) {
            clock.advance(Duration.ofSeconds(5));
            loop.tick();
        }
    }

    @Test
    void aNodeDrainMeetsTheBudgetRetriesAndCompletesWithReplacementsElsewhere() throws Exception {
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setDrainNoticeGrace(Duration.ofSeconds(10));
        run(Duration.ofSeconds(60));
        List<String> before = node1().pods().stream().map(NodePod::name).toList();
        assertTrue(before.containsAll(List.of("payments-steady-00001", "payments-steady-00002")), before.toString());

        Outcome o = supervisor.startNodeDrain(node1, Duration.ofMinutes(10), "kernel upgrade").get();
        assertTrue(o.ok(), o.message());
        assertTrue(node1().unschedulable());
        NodeDrain d = supervisor.nodeDrains().get(0);
        assertEquals(List.of("kube-system/sandbox-proxy-1 (DaemonSet sandbox-proxy: it runs on every node)"), d.left());
        assertTrue(d.pods().stream().allMatch(p -> p.headroom()), "every pod but the DaemonSet's is a class's");

        Instant deadline = clock.instant().plus(Duration.ofMinutes(10));
        while (supervisor.nodeDrains().get(0).active() && clock.instant().isBefore(deadline)) {
            run(Duration.ofSeconds(5));
        }
        d = supervisor.nodeDrains().get(0);
        assertEquals(NodeDrainPhase.COMPLETED, d.phase(), d.detail());
        assertTrue(d.refusals().stream().anyMatch(r -> SandboxCatalog.PAYMENTS_BUDGET.equals(r.budget())
                        && r.pod().startsWith("sandbox/payments-steady-")
                        && r.message().startsWith("The disruption budget payments-steady-pdb needs 2 healthy pods")),
                d.refusals().toString());
        assertEquals(List.of("sandbox-proxy-1"), node1().pods().stream().map(NodePod::name).toList(),
                "only the DaemonSet's pod is left");
        for (NodeState n : cluster.nodes().nodes("sandbox")) {
            if (!n.ref().equals(node1)) {
                assertFalse(n.unschedulable());
            }
        }
        assertEquals(3, world.workload("payments-steady").orElseThrow().pods().stream()
                .filter(p -> !p.terminating()).count(), "the ReplicaSet replaced the evicted pods");
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.EVICTION_REFUSED
                && ("PodDisruptionBudget " + SandboxCatalog.PAYMENTS_BUDGET).equals(r.reason())));

        assertTrue(supervisor.uncordon(node1, "upgrade done").get().ok());
        assertFalse(node1().unschedulable());
    }
}
