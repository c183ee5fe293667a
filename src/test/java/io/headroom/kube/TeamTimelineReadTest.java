package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.headroom.cluster.RoutingClusterGateway;
import io.headroom.cluster.TimelineEvent;
import io.headroom.cluster.TimelineRead;
import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.supervise.TeamTimeline;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read side of the team timeline against fabric8's mock API server: a console reads back the
 * Headroom events every console posted (its own and another's), with who wrote each, and only those;
 * a namespace whose events it may not read is said, the rest still shown.
 */
class TeamTimelineReadTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 3);
    }

    KubeClusterGateway console() throws Exception {
        return cluster.openGateway(dir, ref);
    }

    @Test
    void aConsoleReadsBackEveryConsolesHeadroomEventsWithTheirAuthor() throws Exception {
        KubeClusterGateway mine = console();
        KubeClusterGateway theirs = console();
        new TeamTimeline(new MemoryJournal(), mine.ports().events(), Map.of("payments", ref), Runnable::run, p -> { })
                .append(JournalRecord.of(T0, Kind.FROZEN, "ana", "dev", "payments").reason("incident 4711"));
        TeamTimeline other = new TeamTimeline(new MemoryJournal(), theirs.ports().events(), Map.of("payments", ref), Runnable::run,
                p -> { });
        other.append(JournalRecord.of(T0.plusSeconds(30), Kind.OVERRIDE_SET, "bo", "dev", "payments").change(3, 5)
                .reason("batch"));
        other.append(JournalRecord.of(T0.plusSeconds(60), Kind.NODE_CORDONED, "bo", "dev", null).node("node-1"));
        // Not Headroom's: another controller's event, and one that carries the label but another reason.
        cluster.admin.v1().events().inNamespace("payments").resource(new EventBuilder().withNewMetadata()
                .withName("worker.scaled").endMetadata().withReason("ScalingReplicaSet").withMessage("Scaled up")
                .withNewInvolvedObject().withKind("Deployment").withName("worker").endInvolvedObject()
                .withLastTimestamp(T0.toString()).build()).create();
        cluster.admin.v1().events().inNamespace("payments").resource(new EventBuilder().withNewMetadata()
                .withName("worker.other").addToLabels("app.kubernetes.io/managed-by", "headroom").endMetadata()
                .withReason("Pulled").withMessage("image").withLastTimestamp(T0.toString()).build()).create();

        TimelineRead read = mine.events().teamEvents(null);

        assertTrue(read.supported());
        assertEquals(List.of(), read.problems());
        assertEquals(List.of("HeadroomFrozen", "HeadroomOverride", "HeadroomNodeCordoned"),
                read.events().stream().map(TimelineEvent::reason).toList(), "Headroom's only, oldest first");
        TimelineEvent frozen = read.events().get(0);
        TimelineEvent override = read.events().get(1);
        assertEquals(T0, frozen.at());
        assertEquals("ana", frozen.actor());
        assertEquals("bo", override.actor());
        assertNotEquals(frozen.console(), override.console(), "each names the console that wrote it");
        assertTrue(override.console() != null && override.console().contains("@"), override.console());
        assertTrue(frozen.warning());
        assertFalse(override.warning());
        assertTrue(override.message().contains("3 → 5") && override.message().contains("batch"), override.message());
        assertTrue(frozen.isOn(ref));
        assertEquals("dev", frozen.context());
        TimelineEvent node = read.events().get(2);
        assertEquals("Node", node.objectKind());
        assertEquals("node-1", node.objectName());

        assertEquals(List.of("HeadroomOverride", "HeadroomNodeCordoned"), mine.events().teamEvents(T0.plusSeconds(1)).events()
                .stream().map(TimelineEvent::reason).toList(), "from a time on");
        assertEquals(read.events(), RoutingClusterGateway.of(Map.of("dev", mine.ports())).events().teamEvents(null).events(),
                "the console's routing gateway reads through");
    }

    @Test
    void aNamespaceWhoseEventsAreForbiddenIsSaidAndTheOthersStillShow() throws Exception {
        cluster.server.expect().get()
                .withPath("/api/v1/namespaces/payments/events?labelSelector=app.kubernetes.io%2Fmanaged-by%3Dheadroom")
                .andReturn(403, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
                        + "\"message\":\"events is forbidden: User \\\"ana\\\" cannot list resource\",\"code\":403}")
                .always();
        KubeClusterGateway g = console();
        new TeamTimeline(new MemoryJournal(), g.ports().events(), Map.of("payments", ref), Runnable::run, p -> { })
                .append(JournalRecord.of(T0, Kind.NODE_CORDONED, "ana", "dev", null).node("node-1"));

        TimelineRead read = g.events().teamEvents(null);

        assertEquals(1, read.problems().size(), read.problems().toString());
        assertTrue(read.problems().get(0).contains("payments") && read.problems().get(0).contains("403"),
                read.problems().get(0));
        assertEquals(List.of("HeadroomNodeCordoned"), read.events().stream().map(TimelineEvent::reason).toList());
    }
}
