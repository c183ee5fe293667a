package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.CordonMark;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.ui.nodes.NodeDrainViewModel;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import io.headroom.testing.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15 / brief item 4: a node Headroom cordons says who, when and why on the node itself, so a console
 * that dies mid-drain leaves a trace the next console finds and offers to uncordon. The crash is real: a
 * second JVM ({@link NodeDrainCrashProbe}) starts the drain against fabric8's mock API server and is killed
 * with {@link Process#destroyForcibly()} while the drain runs.
 */
class LeftCordonedTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final NodeRef node1 = new NodeRef("dev", "node-1");

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 2);
        cluster.node("node-1");
        cluster.node("node-2");
        pod("worker-a", "node-1");
        pod("worker-b", "node-2");
    }

    void pod(String name, String node) {
        cluster.newPod("payments", name).app("worker").onNode(node).ownedBy("ReplicaSet", "worker-7d4f")
                .created("2026-12-01T09:00:00Z").create();
    }

    Map<String, String> nodeAnnotations() {
        Map<String, String> a = cluster.admin.nodes().withName("node-1").get().getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    boolean cordoned() {
        return cluster.cordoned("node-1");
    }

    Supervisor console(KubeClusterGateway gateway, String user) {
        WorkloadClass cls = new WorkloadClass("payments", ref, Policy.builder().pollIntervalSeconds(1).build());
        Supervisor s = new Supervisor(List.of(cls), gateway.ports(), new MemoryJournal(), Clock.systemUTC(), Runnable::run, user,
                Duration.ofMinutes(5));
        s.setPodLoad(c -> Map.of("worker-a", 2.0, "worker-b", 0.0));
        return s;
    }

    @Test
    void theCordonSaysWhoWhenAndWhyAndUncordonTakesItOff() throws Exception {
        KubeClusterGateway gateway = cluster.openGateway(dir, ref);
        Supervisor s = console(gateway, "ana");
        Instant before = Instant.now().minusSeconds(1);
        Outcome o = s.startNodeDrain(node1, Duration.ofMinutes(10), "kernel upgrade").get(30, TimeUnit.SECONDS);
        assertTrue(o.ok(), o.message());
        assertTrue(cordoned());
        Map<String, String> ann = nodeAnnotations();
        assertEquals("ana", ann.get(CordonMark.BY_ANNOTATION));
        assertEquals("kernel upgrade", ann.get(CordonMark.WHY_ANNOTATION));
        assertEquals(s.nodeDrains().get(0).id(), ann.get(CordonMark.DRAIN_ANNOTATION));
        Instant at = Instant.parse(ann.get(CordonMark.AT_ANNOTATION));
        assertFalse(at.isBefore(before), at.toString());
        // The expiry rides in the cordon's own write: when the drain that cordoned it is over (its deadline + grace).
        Instant expires = Instant.parse(ann.get(CordonMark.EXPIRES_ANNOTATION));
        assertEquals(s.nodeDrains().get(0).marksExpireAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                expires.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        NodeState n = gateway.nodes().node(node1).orElseThrow();
        assertEquals(new CordonMark("ana", at, "kernel upgrade", s.nodeDrains().get(0).id(), expires), n.headroomCordon());
        assertFalse(n.headroomCordon().expiredAt(Instant.now()));
        assertEquals(List.of(), s.leftCordoned("dev").get(30, TimeUnit.SECONDS), "its own running drain: not left");

        assertTrue(s.cancelNodeDrain(node1, "done").get(30, TimeUnit.SECONDS).ok());
        assertEquals(List.of("node-1"), s.leftCordoned("dev").get(30, TimeUnit.SECONDS).stream()
                .map(x -> x.ref().name()).toList(), "the drain ended with the node cordoned: offered to uncordon");
        assertTrue(s.uncordon(node1, "back to work").get(30, TimeUnit.SECONDS).ok());
        assertFalse(cordoned());
        assertTrue(nodeAnnotations().keySet().stream().noneMatch(k -> k.startsWith("headroom.io/cordon")),
                nodeAnnotations().toString());
        assertNull(gateway.nodes().node(node1).orElseThrow().headroomCordon());
    }

    @Test
    void aConsoleKilledMidDrainLeavesATraceTheNextConsoleFindsAndOffersToUncordon() throws Exception {
        try (ChildJvm probe = ChildJvm.start(NodeDrainCrashProbe.class, cluster.url(), dir.toString(), "node-1")) {
            String line = probe.readLine(); // blocks until the probe prints (or dies: null)
            assertEquals("CORDONED", line);
            assertTrue(cordoned(), "mid-drain: the node is cordoned");
            probe.process().destroyForcibly();
            assertTrue(probe.process().waitFor(30, TimeUnit.SECONDS), "the probe is gone");
        }
        assertTrue(cordoned(), "the crash left the node cordoned");
        assertEquals("probe", nodeAnnotations().get(CordonMark.BY_ANNOTATION));
        assertEquals("kernel upgrade", nodeAnnotations().get(CordonMark.WHY_ANNOTATION));

        // The next console: a fresh gateway and supervisor, no memory of that drain.
        KubeClusterGateway gateway = cluster.openGateway(dir, ref);
        Supervisor next = console(gateway, "ben");
        List<NodeState> left = next.leftCordoned("dev").get(30, TimeUnit.SECONDS);
        assertEquals(List.of("node-1"), left.stream().map(n -> n.ref().name()).toList());
        CordonMark m = left.get(0).headroomCordon();
        assertEquals("probe", m.by());
        assertTrue(m.describe().contains("kernel upgrade") && m.describe().contains(m.drainId()), m.describe());

        // The Nodes window says so and offers Uncordon.
        NodeDrainViewModel vm = new NodeDrainViewModel(next, "dev", Runnable::run);
        vm.refresh().get(30, TimeUnit.SECONDS);
        assertTrue(vm.leftCordonedProperty().get().contains("node-1 cordoned by probe"), vm.leftCordonedProperty().get());
        vm.selectedProperty().set(vm.nodes().stream().filter(r -> r.name().equals("node-1")).findFirst().orElseThrow());
        assertNotNull(vm.selectedProperty().get().headroomCordon());
        assertTrue(vm.drainStateProperty().get().contains("cordoned by probe"), vm.drainStateProperty().get());
        Outcome o = vm.uncordon().get(30, TimeUnit.SECONDS);
        assertTrue(o.ok(), o.message());
        assertFalse(cordoned());
        vm.refresh().get(30, TimeUnit.SECONDS);
        assertEquals("", vm.leftCordonedProperty().get());
        vm.dispose();
    }
}
