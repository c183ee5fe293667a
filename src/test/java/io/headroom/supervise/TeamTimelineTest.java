package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.KubeConnection;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * One team timeline: each operator action is journaled, then posted as a Kubernetes Event on the
 * workload (actor, before → after, reason), so kubectl describe and other consoles see it; an event
 * the API server refuses never blocks or undoes the action, and is said.
 */
class TeamTimelineTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final WorkloadClass cls = new WorkloadClass("payments", ref, Policy.defaults());

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 3);
    }

    List<Event> events() {
        return cluster.events("payments");
    }

    @Test
    void everyActionIsAnEventOnTheWorkloadWithActorChangeAndReason() throws Exception {
        ManualClock clock = new ManualClock(T0);
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock, null);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        List<String> problems = new CopyOnWriteArrayList<>();
        MemoryJournal journal = new MemoryJournal();
        TeamTimeline timeline = new TeamTimeline(journal, g.ports().events(), Map.of("payments", ref), Runnable::run, problems::add);
        Supervisor s = new Supervisor(List.of(cls), g.ports(), timeline, clock, Runnable::run, "ana", Duration.ofMinutes(5));

        Outcome frozen = s.freeze("payments", Duration.ofMinutes(30), "incident 4711").get();
        assertTrue(frozen.ok(), frozen.message());
        Outcome override = s.setOverride("payments", 5, T0.plus(Duration.ofHours(1)), "hold for the batch").get();
        assertTrue(override.ok(), override.message());

        List<Event> events = events();
        assertEquals(List.of("HeadroomFrozen", "HeadroomOverride"), events.stream().map(Event::getReason).toList());
        Event f = events.get(0);
        assertEquals("Deployment", f.getInvolvedObject().getKind());
        assertEquals("worker", f.getInvolvedObject().getName());
        assertEquals("Warning", f.getType(), "a freeze stops the autoscaler: not routine");
        assertEquals("headroom", f.getSource().getComponent());
        assertTrue(f.getMessage().startsWith("ana: frozen") && f.getMessage().contains("reason: incident 4711"),
                f.getMessage());
        assertTrue(events.get(1).getMessage().contains("→ 5") && events.get(1).getMessage().contains("hold for the batch"),
                events.get(1).getMessage());
        assertEquals(List.of(), problems);
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.FROZEN));
    }

    @Test
    void aRefusedEventNeitherBlocksNorUndoesTheActionAndIsSaid() throws Exception {
        cluster.server.expect().post().withPath("/api/v1/namespaces/payments/events")
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
                        + "\"message\":\"events is forbidden: User \\\"ana\\\" cannot create resource\",\"code\":403}")
                .always();
        ManualClock clock = new ManualClock(T0);
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock, null);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        List<String> problems = new CopyOnWriteArrayList<>();
        MemoryJournal journal = new MemoryJournal();
        Supervisor s = new Supervisor(List.of(cls), g.ports(), new TeamTimeline(journal, g.ports().events(), Map.of("payments", ref),
                Runnable::run, problems::add), clock, Runnable::run, "ana", Duration.ofMinutes(5));

        Outcome frozen = s.freeze("payments", Duration.ofMinutes(30), "incident").get();
        assertTrue(frozen.ok(), frozen.message());
        assertTrue(s.state().of("payments").freeze() != null, "the freeze holds");
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("event HeadroomFrozen on worker not posted: ") && problems.get(0).contains("403"),
                problems.get(0));
    }

    @Test
    void aNodeDrainsRecordsAreEventsOnTheNodeAndOnTheClassWhosePodWasRefused() throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), new ManualClock(T0), null);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        List<String> problems = new CopyOnWriteArrayList<>();
        TeamTimeline timeline = new TeamTimeline(new MemoryJournal(), g.ports().events(), Map.of("payments", ref), Runnable::run,
                problems::add);
        timeline.append(JournalRecord.of(T0, JournalRecord.Kind.NODE_CORDONED, "ana", "dev", null).node("node-1"));
        timeline.append(JournalRecord.of(T0, JournalRecord.Kind.EVICTION_REFUSED, "ana", "dev", "payments")
                .node("node-1").reason("PodDisruptionBudget worker-pdb").detail("payments/worker-a: needs 2 healthy"));

        List<Event> onNode = cluster.admin.v1().events().inNamespace("default").list().getItems();
        assertEquals(List.of("HeadroomNodeCordoned", "HeadroomEvictionRefused"),
                onNode.stream().map(Event::getReason).toList());
        assertEquals("Node", onNode.get(0).getInvolvedObject().getKind());
        assertEquals("node-1", onNode.get(0).getInvolvedObject().getName());
        assertEquals("Warning", onNode.get(1).getType(), "a refusal needs someone's attention");
        assertTrue(onNode.get(1).getMessage().contains("PodDisruptionBudget worker-pdb")
                && onNode.get(1).getMessage().contains("payments/worker-a"), onNode.get(1).getMessage());
        assertEquals(List.of("HeadroomEvictionRefused"), events().stream().map(Event::getReason).toList(),
                "on the class's workload too; the cordon is not broadcast to every workload");
        assertEquals(List.of(), problems);
    }
}
