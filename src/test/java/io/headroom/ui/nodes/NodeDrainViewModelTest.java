package io.headroom.ui.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The node drain window's view model, without the toolkit, on the sandbox: what the operator sees and does. */
class NodeDrainViewModelTest {
    final Instant start = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(start);
    final SandboxWorld world = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, start);
    final SandboxCluster cluster = new SandboxCluster(world, clock);
    final SandboxMetrics metrics = new SandboxMetrics(world, clock);
    final List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream()
            .map(SandboxCatalog.Entry::workloadClass).toList();
    final Supervisor supervisor = new Supervisor(classes, cluster.ports(), new MemoryJournal(), clock, Runnable::run, "ana",
            Duration.ofMinutes(5));
    final ControlLoop loop = new ControlLoop(classes, cluster.ports(), metrics, supervisor, clock);

    void run(int seconds) {
        for (int i = 0; i < seconds / 5; i++) {
            clock.advance(Duration.ofSeconds(5));
            loop.tick();
        }
    }

    @Test
    void fromAClassItsNodesThenADrainWithItsRefusalsThenUncordon() throws Exception {
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setDrainNoticeGrace(Duration.ofSeconds(10));
        run(30);
        NodeDrainViewModel vm = new NodeDrainViewModel(supervisor, "sandbox", Runnable::run);
        vm.classFilterProperty().set("payments-steady");
        vm.refresh().get();
        assertEquals(List.of("sandbox-node-1", "sandbox-node-2"), vm.nodes().stream().map(r -> r.name()).toList(),
                "the nodes payments-steady's three pods run on");
        vm.classFilterProperty().set(null);
        vm.refresh().get();
        assertEquals(3, vm.nodes().size(), "every node");

        vm.selectedProperty().set(vm.nodes().get(0));
        assertEquals("sandbox-node-1 is schedulable; no drain from this console", vm.drainStateProperty().get());
        vm.reasonProperty().set("kernel upgrade");
        Outcome o = vm.drain().get();
        assertTrue(o.ok(), o.message());
        assertTrue(vm.drainingProperty().get());
        assertEquals("cordoned", vm.selectedProperty().get().cordoned() ? "cordoned" : "schedulable");
        assertTrue(vm.pods().stream().anyMatch(l -> l.startsWith("[payments-steady] sandbox/payments-steady-00001")),
                vm.pods().toString());
        assertTrue(vm.pods().contains("left: kube-system/sandbox-proxy-1 (DaemonSet sandbox-proxy: it runs on every node)"));

        for (int i = 0; i < 60 && vm.refusals().isEmpty(); i++) {
            run(5);
        }
        assertTrue(vm.refusals().get(0).contains("refused by PodDisruptionBudget payments-steady-pdb: The disruption"
                + " budget payments-steady-pdb needs 2 healthy pods"), vm.refusals().toString());
        assertEquals("draining", vm.selectedProperty().get().drain());

        assertTrue(vm.cancel().get().ok());
        assertFalse(vm.drainingProperty().get());
        assertTrue(vm.drainStateProperty().get().contains("interrupted"), vm.drainStateProperty().get());
        assertTrue(vm.uncordon().get().ok());
        assertFalse(vm.selectedProperty().get().cordoned(), "one action: uncordoned, and the row says so");
        vm.dispose();
    }

    /**
     * Opened from a class, the window lists the nodes that class runs on; a node this console drains or cordoned
     * stays listed (and selected) after the class's pods have left it, so Cancel and Uncordon stay in reach. It
     * vanished once its last pod of the class was evicted (NodeDrainUiTest, under load: "Uncordon stayed
     * disabled; … node: sandbox-node-2").
     */
    @Test
    void aNodeDrainedFromAClassStaysListedAfterTheClassHasLeftIt() throws Exception {
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setDrainNoticeGrace(Duration.ofSeconds(10));
        run(30);
        NodeDrainViewModel vm = new NodeDrainViewModel(supervisor, "sandbox", Runnable::run);
        vm.classFilterProperty().set("payments-steady");
        vm.refresh().get();
        vm.selectedProperty().set(vm.nodes().get(0));
        assertEquals("sandbox-node-1", vm.selectedProperty().get().name());
        assertTrue(vm.drain().get().ok());
        for (int i = 0; i < 120 && !supervisor.nodesOf("payments-steady").get().stream()
                .noneMatch(n -> n.name().equals("sandbox-node-1")); i++) {
            run(5);
        }
        assertTrue(supervisor.nodesOf("payments-steady").get().stream().noneMatch(n -> n.name().equals("sandbox-node-1")),
                "the class's pods have all left the drained node");
        vm.refresh().get();
        assertTrue(vm.nodes().stream().anyMatch(r -> r.name().equals("sandbox-node-1")),
                "the node being drained is still listed: " + vm.nodes());
        assertEquals("sandbox-node-1", vm.selectedProperty().get() == null ? null : vm.selectedProperty().get().name(),
                "and still selected");
        assertTrue(vm.cancel().get().ok() || !vm.drainingProperty().get());
        assertTrue(vm.uncordon().get().ok(), "Uncordon reaches the node the operator drained");
        vm.dispose();
    }
}
