package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.session.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A console whose workloads file names a cluster that does not answer: the reachable cluster's
 * classes are decided at once, the other context connects in the background and its classes are
 * observe-only, saying why, until it answers. Nothing waits on fabric8's retries.
 */
class UnreachableAtStartTest extends MockSessionFixture {
    final WorkloadRef down = new WorkloadRef("down", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() {
        cluster.deployment("search", "indexer", 2);
    }

    @Test
    void theReachableClustersClassesAreDecidedWhileTheOtherConnects() throws Exception {
        String closed = MockCluster.unreachableUrl(); // nothing listens there
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "up", "t0ken-for-the-test",
                "down", closed, "payments", "up", cluster.url(), "search");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, MockCluster.workloads(MockCluster.unreachableUrl(),
                "payments", "down", "payments", "worker", "indexing", "up", "search", "indexer"));

        session = Session.connect(WorkloadsFile.read(workloads), Contexts.load(List.of(kubeconfig)),
                new MemoryJournal());
        io.headroom.cluster.ClusterPorts routing = session.loop().cluster();
        KubeClusterGateway unreachable = routing.byContext().get("down").adapter(KubeClusterGateway.class).orElseThrow();
        long attempts = unreachable.connection().requests().count();
        assertTrue(attempts <= 2, "opening does not wait on retries against the unreachable cluster: "
                + attempts + " requests before it returned");

        // The very first tick: the reachable cluster's first contact and sync are waited for (briefly,
        // at start only); the unreachable one's refused connection is not.
        TickResult first = session.loop().tick();
        Map<String, ClassSnapshot> byName = first.classes().stream()
                .collect(Collectors.toMap(ClassSnapshot::name, Function.identity()));
        assertNotNull(byName.get("indexing").decision(), "decided in the first tick: " + byName.get("indexing").problem());
        assertNull(byName.get("indexing").problem());
        assertNull(byName.get("payments").decision());
        String problem = byName.get("payments").problem();
        assertTrue(problem.contains("connecting") || problem.contains("unreachable"), problem);

        ActionCheck check = routing.scaling().canScale(down);
        assertFalse(check.allowed(), "observe-only until connected");
        assertTrue(check.reason().contains("connecting") || check.reason().contains("unreachable"), check.reason());
        ScaleResult scale = routing.scaling().scale(down, 3, null);
        assertEquals(ScaleResult.Outcome.REFUSED, scale.outcome(), scale.message());

        // The connection attempt fails in the background; the reason reaches the classes and the health.
        MockCluster.await("the unreachable reason", Duration.ofSeconds(20), () -> {
            ClusterHealth h = unreachable.health();
            return !h.connected() && h.lastError() != null && h.lastError().contains("unreachable");
        });
        String reason = unreachable.health().lastError();
        assertTrue(reason.contains("connection refused"), reason);
        assertFalse(reason.matches("(?s).*[A-Z][a-z]+Exception.*"), "in words, no class name: " + reason);
        String later = session.loop().tick().classes().stream().filter(c -> c.name().equals("payments"))
                .findFirst().orElseThrow().problem();
        assertTrue(later.contains("unreachable"), later);
        assertEquals(List.of(), session.loop().tick().classes().stream().filter(c -> c.name().equals("indexing"))
                .filter(c -> c.decision() == null).map(ClassSnapshot::problem).toList());
    }
}
