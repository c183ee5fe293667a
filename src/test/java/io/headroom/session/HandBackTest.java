package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.headroom.cluster.HeadroomPause;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.Autoscalers;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Handing back on exit and on a later start, against fabric8's CRUD mock API server: a KEDA-managed
 * class (ScaledObject {@code orders-so}) and a plain Deployment, each held by hand. A class handed
 * back loses Headroom's holds and KEDA's pause; a kept pause carries owner and expiry on the workload
 * and the ScaledObject; a console that starts after the expiry finds it and hands it back. Every step
 * is journaled and posted as an Event.
 */
class HandBackTest extends MockSessionFixture {
    static final String SCALED_OBJECT = MockCluster.prometheusScaledObject("shop", "orders-so", "orders", "");

    @BeforeEach
    void setUp() {
        cluster.kedaInstalled();
        cluster.deployment("shop", "orders", 3);
        cluster.deployment("shop", "indexer", 2);
        cluster.scaledObject(SCALED_OBJECT);
    }

    Session connect(String operator) throws Exception {
        return cluster.session(dir, "up", "shop", MockCluster.workloads(MockCluster.unreachableUrl(),
                "orders", "up", "shop", "orders", "indexing", "up", "shop", "indexer"), journal, operator);
    }

    Map<String, String> deploymentAnnotations(String name) {
        return cluster.deploymentAnnotations("shop", name);
    }

    Map<String, String> scaledObjectAnnotations() {
        Map<String, String> a = cluster.scaledObject("shop", "orders-so").getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    void pauseKedaAsAnEarlierScaleDid(int replicas) {
        GenericKubernetesResource so = cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace("shop").withName("orders-so").get();
        so.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of(Autoscalers.PAUSED_REPLICAS,
                Integer.toString(replicas))));
        cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace("shop")
                .resource(so).update();
    }

    List<Event> events(String reason) {
        return cluster.events("shop").stream().filter(e -> reason.equals(e.getReason())).toList();
    }

    List<JournalRecord> journaled(JournalRecord.Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    @Test
    void atExitOneClassIsHandedBackToKedaAndTheOtherKeepsItsPauseWithOwnerAndExpiry() throws Exception {
        session = connect("ana@oncall");
        pauseKedaAsAnEarlierScaleDid(5);
        assertTrue(session.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812")
                .get(15, TimeUnit.SECONDS).ok());
        Instant pinEnd = Instant.now().plus(Duration.ofMinutes(30));
        assertTrue(session.supervisor().setOverride("indexing", 4, pinEnd, "reindex").get(15, TimeUnit.SECONDS).ok());
        MockCluster.await("KEDA's view of orders", Duration.ofSeconds(10), () -> session.loop().cluster()
                .workloads().autoscaler(session.loop().classes().get(0).target()).kind() == io.headroom.cluster.AutoscalerView.Kind.KEDA);

        List<HandBack.Item> items = session.handBack().atExit().get(10, TimeUnit.SECONDS);
        assertEquals(List.of("orders", "indexing"), items.stream().map(HandBack.Item::className).toList());
        assertEquals("KEDA (ScaledObject orders-so)", items.get(0).autoscaler());
        assertTrue(items.get(0).holds().startsWith("frozen until"), items.get(0).holds());
        assertTrue(items.get(1).holds().startsWith("pinned to 4"), items.get(1).holds());
        assertEquals("nothing else scales it", items.get(1).autoscaler());

        HandBack.Report report = session.handBack().finish(items, Map.of("orders", HandBack.Choice.HAND_BACK,
                "indexing", HandBack.Choice.KEEP), HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);
        assertTrue(report.ok(), report.summary());
        assertEquals("1 handed back, 1 kept", report.summary());

        // Handed back: KEDA scales orders again, Headroom's freeze is gone.
        assertFalse(scaledObjectAnnotations().containsKey(Autoscalers.PAUSED_REPLICAS), scaledObjectAnnotations().toString());
        assertNull(session.supervisor().state().of("orders").freeze());
        // Kept: who and until when, on the workload.
        Map<String, String> kept = deploymentAnnotations("indexer");
        assertEquals("ana@oncall", kept.get(HeadroomPause.OWNER));
        assertEquals(pinEnd.truncatedTo(java.time.temporal.ChronoUnit.MILLIS),
                Instant.parse(kept.get(HeadroomPause.UNTIL)).truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        assertTrue(kept.get(HeadroomPause.REASON).contains("pinned to 4"), kept.toString());
        assertTrue(deploymentAnnotations("orders").keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paused")));

        JournalRecord back = journaled(JournalRecord.Kind.HANDED_BACK).get(0);
        assertEquals("orders", back.className());
        assertEquals("ana@oncall", back.user());
        JournalRecord keep = journaled(JournalRecord.Kind.PAUSE_KEPT).get(0);
        assertEquals("indexing", keep.className());
        assertEquals(pinEnd, keep.until());
        List<JournalRecord> all = journal.replay().records();
        int intent = all.indexOf(journaled(JournalRecord.Kind.HANDING_BACK).get(0));
        int lifted = all.indexOf(journaled(JournalRecord.Kind.UNFROZEN).get(0));
        assertTrue(intent < lifted && lifted < all.indexOf(back),
                "the intent first, the freeze lifted once the cluster confirmed, then the outcome: " + all);

        MockCluster.await("the hand-back and the kept pause as events", Duration.ofSeconds(15),
                () -> events("HeadroomHandedBack").stream().anyMatch(e -> "orders".equals(e.getInvolvedObject().getName())
                        && e.getMessage().startsWith("ana@oncall: handed back"))
                        && events("HeadroomPauseKept").stream().anyMatch(e -> "indexer".equals(e.getInvolvedObject().getName())
                        && e.getMessage().contains("until " + pinEnd)));
    }

    @Test
    void aKeptPauseOfAKedaClassPausesKedaAndALaterConsoleHandsItBackOnceItHasExpired() throws Exception {
        session = connect("ana@oncall");
        assertTrue(session.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812")
                .get(15, TimeUnit.SECONDS).ok());
        MockCluster.await("KEDA's view of orders", Duration.ofSeconds(10), () -> session.loop().cluster()
                .workloads().autoscaler(session.loop().classes().get(0).target()).kind() == io.headroom.cluster.AutoscalerView.Kind.KEDA);
        List<HandBack.Item> items = session.handBack().atExit().get(10, TimeUnit.SECONDS);
        HandBack.Report report = session.handBack().finish(items, Map.of("orders", HandBack.Choice.KEEP),
                HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);
        assertTrue(report.ok(), report.summary());
        Map<String, String> so = scaledObjectAnnotations();
        assertEquals("3", so.get(Autoscalers.PAUSED_REPLICAS), "KEDA is paused where the workload stands: " + so);
        assertEquals("ana@oncall", so.get(HeadroomPause.OWNER));
        assertEquals("ana@oncall", deploymentAnnotations("orders").get(HeadroomPause.OWNER));
        session.close();
        session = null;

        // The pause runs out while no console is open (its expiry, moved into the past).
        var d = cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get();
        d.getMetadata().getAnnotations().put(HeadroomPause.UNTIL, "2026-01-01T00:00:00Z");
        cluster.admin.apps().deployments().inNamespace("shop").resource(d).update();

        session = connect("ben@oncall");
        List<Leftover> found = session.leftovers().find().get(15, TimeUnit.SECONDS).leftovers();
        assertEquals(1, found.size(), found.toString());
        Leftover.Pause expired = (Leftover.Pause) found.get(0);
        assertEquals("orders", expired.className());
        assertEquals("ana@oncall", expired.owner());
        assertEquals(Integer.valueOf(3), expired.pause().replicas());
        assertTrue(expired.expiredAt(Instant.now()));
        assertEquals(Leftover.Choice.HAND_BACK, expired.defaultChoice(Instant.now()), "expired: handed back by default");
        assertTrue(expired.pause().describe().startsWith("paused by ana@oncall until 2026-01-01T00:00:00Z"),
                expired.pause().describe());

        Leftovers.Report back = session.leftovers().settle(Map.of(expired, Leftover.Choice.HAND_BACK),
                HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);
        assertTrue(back.ok(), back.summary());
        assertTrue(deploymentAnnotations("orders").keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paused")),
                deploymentAnnotations("orders").toString());
        Map<String, String> after = scaledObjectAnnotations();
        assertFalse(after.containsKey(Autoscalers.PAUSED_REPLICAS), after.toString());
        assertFalse(after.containsKey(HeadroomPause.OWNER), after.toString());
        assertTrue(session.leftovers().find().get(15, TimeUnit.SECONDS).leftovers().isEmpty(), "nothing left to offer");
        assertTrue(journaled(JournalRecord.Kind.HANDED_BACK).stream().anyMatch(r -> r.user().equals("ben@oncall")
                && r.reason().startsWith("leftover handed back at start: left by ana@oncall, expired 2026-01-01T00:00:00Z")));
        MockCluster.await("the hand-back as an event by ben", Duration.ofSeconds(15),
                () -> events("HeadroomHandedBack").stream().anyMatch(e -> e.getMessage().startsWith("ben@oncall: handed back")));
    }

    @Test
    void whileAnotherConsoleHoldsTheLeaseNothingIsWrittenAndTheRefusalIsJournaledAndSaid() throws Exception {
        session = connect("ana@oncall");
        pauseKedaAsAnEarlierScaleDid(5);
        io.headroom.cluster.WorkloadRef orders = session.loop().classes().get(0).target();
        io.headroom.cluster.WorkloadRef indexer = session.loop().classes().get(1).target();
        cluster.otherConsoleHolding(dir, "up", "bob@desk-2/bbbb0002", orders, indexer);
        assertTrue(session.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812")
                .get(15, TimeUnit.SECONDS).ok());
        assertTrue(session.supervisor().freeze("indexing", Duration.ofMinutes(20), "reindex")
                .get(15, TimeUnit.SECONDS).ok());
        MockCluster.await("KEDA's view of orders", Duration.ofSeconds(10), () -> session.loop().cluster()
                .workloads().autoscaler(orders).kind() == io.headroom.cluster.AutoscalerView.Kind.KEDA);
        String ordersVersion = cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get()
                .getMetadata().getResourceVersion();
        String indexerVersion = cluster.admin.apps().deployments().inNamespace("shop").withName("indexer").get()
                .getMetadata().getResourceVersion();
        String soVersion = cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace("shop").withName("orders-so").get().getMetadata().getResourceVersion();

        List<HandBack.Item> items = session.handBack().atExit().get(10, TimeUnit.SECONDS);
        HandBack.Report report = session.handBack().finish(items, Map.of("orders", HandBack.Choice.HAND_BACK,
                "indexing", HandBack.Choice.KEEP), HandBack.EXIT_DEADLINE).get(15, TimeUnit.SECONDS);

        assertFalse(report.ok(), report.summary());
        assertTrue(report.unfinished().isEmpty(), "refused at once, not timed out: " + report.summary());
        HandBack.Result back = report.results().get(0);
        HandBack.Result kept = report.results().get(1);
        assertFalse(back.ok());
        assertFalse(kept.ok());
        for (HandBack.Result r : List.of(back, kept)) {
            assertTrue(r.message().contains("another console (bob@desk-2/bbbb0002) holds the lease"), r.message());
            assertTrue(r.message().contains("nothing was written"), r.message());
        }
        assertTrue(back.message().startsWith("not handed back"), back.message());
        assertTrue(back.message().contains("orders stays frozen"), back.message());
        assertTrue(kept.message().startsWith("pause not kept"), kept.message());
        // Nothing written: KEDA stays paused, no pause annotations, no object changed at all.
        assertEquals("5", scaledObjectAnnotations().get(Autoscalers.PAUSED_REPLICAS));
        assertTrue(deploymentAnnotations("indexer").keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paus")),
                deploymentAnnotations("indexer").toString());
        assertEquals(ordersVersion, cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get()
                .getMetadata().getResourceVersion());
        assertEquals(indexerVersion, cluster.admin.apps().deployments().inNamespace("shop").withName("indexer").get()
                .getMetadata().getResourceVersion());
        assertEquals(soVersion, cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS)
                .inNamespace("shop").withName("orders-so").get().getMetadata().getResourceVersion());

        // Journaled: the intent first, then the refusal, each with the holder's name; and posted for the team.
        List<JournalRecord> refused = journaled(JournalRecord.Kind.HAND_BACK_REFUSED);
        assertEquals(List.of("orders", "indexing"), refused.stream().map(JournalRecord::className).toList());
        assertTrue(refused.stream().allMatch(r -> r.user().equals("ana@oncall")
                && r.reason().contains("bob@desk-2/bbbb0002")), refused.toString());
        assertTrue(journal.replay().records().indexOf(journaled(JournalRecord.Kind.HANDING_BACK).get(0))
                < journal.replay().records().indexOf(refused.get(0)));
        assertTrue(journaled(JournalRecord.Kind.HANDED_BACK).isEmpty(), "nothing claimed handed back");
        assertTrue(journaled(JournalRecord.Kind.UNFROZEN).isEmpty(), "nothing lifted");
        assertTrue(session.supervisor().state().of("orders").freeze() != null, "orders stays frozen");
        MockCluster.await("the refusal as an event", Duration.ofSeconds(15),
                () -> events("HeadroomHandBackRefused").stream().anyMatch(e -> "indexer".equals(e.getInvolvedObject()
                        .getName()) && "Warning".equals(e.getType())));
    }
}
