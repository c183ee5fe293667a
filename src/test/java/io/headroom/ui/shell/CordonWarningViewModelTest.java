package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.CordonMark;
import io.headroom.cluster.NodeRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The top bar's "left cordoned" warning, on the sandbox without the toolkit: a node a crashed console cordoned
 * (its headroom.io/cordoned-by record) is counted and named with who, when and why; a node this console is
 * draining right now is not "left"; uncordoning clears the warning; a context that cannot be read hides nothing.
 */
class CordonWarningViewModelTest {
    final Instant start = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(start);
    final io.headroom.cluster.ClusterPorts cluster = new SandboxCluster(SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, start),
            clock).ports();
    final List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream().map(SandboxCatalog.Entry::workloadClass)
            .toList();
    final Supervisor supervisor = new Supervisor(classes, cluster, new MemoryJournal(), clock, Runnable::run, "ana",
            Duration.ofMinutes(5));
    final CordonWarningViewModel vm = new CordonWarningViewModel();

    void refresh() {
        vm.refresh(List.of("sandbox"), supervisor::leftCordoned, Runnable::run).join();
    }

    @Test
    void aNodeACrashedConsoleLeftCordonedIsShownUntilUncordoned() throws Exception {
        refresh();
        assertEquals("", vm.textProperty().get(), "nothing cordoned: the chip is hidden");
        assertNull(vm.contextProperty().get());

        NodeRef node2 = new NodeRef("sandbox", "sandbox-node-2");
        Instant at = Instant.parse("2026-12-01T09:40:00Z");
        assertTrue(cluster.nodes().cordon(node2, true, new CordonMark("bob@desk/1a2b", at, "kernel upgrade", "n-7")).ok());
        // This console's own running drain of another node is not "left" cordoned.
        supervisor.setPodLoad(c -> java.util.Map.of());
        assertTrue(supervisor.startNodeDrain(new NodeRef("sandbox", "sandbox-node-1"), Duration.ofMinutes(10),
                "test").get().ok());
        refresh();
        assertEquals("1 node left cordoned by Headroom", vm.textProperty().get());
        assertEquals("sandbox", vm.contextProperty().get());
        assertTrue(vm.detailProperty().get().startsWith("sandbox-node-2 (sandbox) is cordoned by bob@desk/1a2b for n-7"
                + " at 2026-12-01T09:40:00Z: kernel upgrade\n"), vm.detailProperty().get());
        assertTrue(vm.detailProperty().get().endsWith("Click to open the Nodes window: Uncordon, or drain again."));

        // A second context that cannot be read: what can be read still shows.
        vm.refresh(List.of("sandbox", "prod"), c -> c.equals("prod")
                ? CompletableFuture.failedFuture(new IllegalStateException("unreachable"))
                : supervisor.leftCordoned(c), Runnable::run).join();
        assertEquals("1 node left cordoned by Headroom", vm.textProperty().get());

        assertTrue(supervisor.uncordon(node2, "done").get().ok());
        refresh();
        assertEquals("", vm.textProperty().get(), "uncordoned: the warning goes");
    }

    @Test
    void severalNodesAreCounted() {
        Instant at = Instant.parse("2026-12-01T09:40:00Z");
        for (String n : List.of("sandbox-node-1", "sandbox-node-3")) {
            assertTrue(cluster.nodes().cordon(new NodeRef("sandbox", n), true, new CordonMark("bob", at, "", "n-1")).ok());
        }
        refresh();
        assertEquals("2 nodes left cordoned by Headroom", vm.textProperty().get());
        assertTrue(vm.detailProperty().get().contains("no drain of this console runs on them"));
    }
}
