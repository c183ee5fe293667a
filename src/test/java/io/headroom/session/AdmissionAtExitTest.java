package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Admission from a connected console against fabric8's CRUD mock API server (issue 30): with Prometheus out of
 * reach and {@code onMissingTelemetry: close}, the console proposes CLOSED; approved, it is written into the
 * {@code headroom-admission} ConfigMap under the console's lease, journaled before and after, posted as an
 * Event; at exit it is expired now or set OPEN, journaled as a hand-back.
 */
class AdmissionAtExitTest extends MockSessionFixture {

    @BeforeEach
    void setUp() {
        cluster.deployment("shop", "orders", 3);
        cluster.deployment("shop", "indexer", 2);
    }

    Session connect() throws Exception {
        String yaml = "prometheus: {url: \"" + MockCluster.unreachableUrl() + "\", timeoutSeconds: 1}\nclasses:\n"
                + clazz("orders", "orders", "close") + clazz("indexing", "indexer", "degrade:orders");
        return cluster.session(dir, "up", "shop", yaml, journal, "ana@oncall");
    }

    static String clazz(String name, String deployment, String onMissing) {
        return "  - {name: " + name + ", context: up, namespace: shop, target: {kind: Deployment, name: " + deployment
                + "},\n     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},\n"
                + "     policy: {pollIntervalSeconds: 1},\n     admission: {onMissingTelemetry: \"" + onMissing + "\"}}\n";
    }

    JsonNode entry(String cls) {
        ConfigMap cm = cluster.admin.configMaps().inNamespace("shop").withName("headroom-admission").get();
        String v = cm == null || cm.getData() == null ? null : cm.getData().get(cls);
        return v == null ? null : new ObjectMapper().readTree(v);
    }

    List<Kind> kinds(String cls) {
        return journal.replay().records().stream().filter(r -> cls.equals(r.className())).map(JournalRecord::kind)
                .toList();
    }

    void approveBoth() throws Exception {
        for (String cls : List.of("orders", "indexing")) {
            MockCluster.await("a CLOSED admission proposed for " + cls, Duration.ofSeconds(20), () -> {
                ClassAdmission a = session.supervisor().admission(cls);
                return a != null && a.pending() != null;
            });
            Outcome o = session.supervisor().approveAdmission(cls).get(15, TimeUnit.SECONDS);
            assertTrue(o.ok(), o.message());
        }
    }

    @Test
    void anApprovedClosedIsWrittenUnderTheLeaseJournaledAndPostedThenExpiredAtExit() throws Exception {
        session = connect();
        session.start();
        approveBoth();

        JsonNode orders = entry("orders");
        assertEquals("CLOSED", orders.get("state").asString(), orders.toString());
        assertEquals(0.0, orders.get("rate").asDouble());
        assertTrue(orders.get("reason").asString().startsWith("telemetry missing"), orders.toString());
        assertEquals("ana@oncall", orders.get("owner").asString());
        Instant decided = Instant.parse(orders.get("decidedAt").asString());
        assertEquals(decided.plusSeconds(60), Instant.parse(orders.get("expiresAt").asString()), "TTL: at least 60 s");
        assertEquals("orders", entry("indexing").get("degradeTo").asString());
        assertTrue(cluster.lease(session.loop().classes().get(0).target()).getSpec().getHolderIdentity() != null,
                "written by the console holding the workload's lease");
        List<Kind> k = kinds("orders");
        assertTrue(k.indexOf(Kind.ADMISSION_PUBLISHING) < k.indexOf(Kind.ADMISSION_PUBLISHED), k.toString());
        MockCluster.await("the HeadroomAdmission event", Duration.ofSeconds(10), () -> cluster.events("shop").stream()
                .anyMatch(e -> "HeadroomAdmission".equals(e.getReason()) && e.getMessage().contains("CLOSED")));

        // Each tick refreshes it while the console runs.
        MockCluster.await("a refresh", Duration.ofSeconds(10),
                () -> Instant.parse(entry("orders").get("decidedAt").asString()).isAfter(decided));

        List<AdmissionHandBack.Item> items = session.admissionHandBack().items();
        assertEquals(List.of("orders", "indexing"), items.stream().map(AdmissionHandBack.Item::className).toList());
        List<AdmissionHandBack.Result> results = session.admissionHandBack().finish(items, Map.of(
                "orders", AdmissionHandBack.Choice.EXPIRE_NOW, "indexing", AdmissionHandBack.Choice.SET_OPEN))
                .get(15, TimeUnit.SECONDS);
        assertTrue(results.stream().allMatch(AdmissionHandBack.Result::ok), results.toString());
        Instant now = Instant.now();
        assertFalse(Instant.parse(entry("orders").get("expiresAt").asString()).isAfter(now), "expired now");
        assertEquals("CLOSED", entry("orders").get("state").asString(), "the state stays: only its expiry moved");
        JsonNode open = entry("indexing");
        assertEquals("OPEN", open.get("state").asString());
        assertTrue(Instant.parse(open.get("expiresAt").asString()).isAfter(now.plus(Duration.ofHours(3))));
        assertTrue(kinds("orders").containsAll(List.of(Kind.HANDING_BACK, Kind.HANDED_BACK)), kinds("orders").toString());

        // No tick publishes it again before the console is gone.
        Instant expired = Instant.parse(entry("orders").get("expiresAt").asString());
        java.util.concurrent.atomic.AtomicInteger ticks = new java.util.concurrent.atomic.AtomicInteger();
        session.loop().addListener(t -> ticks.incrementAndGet());
        MockCluster.await("two more ticks", Duration.ofSeconds(10), () -> ticks.get() >= 2);
        assertEquals(expired, Instant.parse(entry("orders").get("expiresAt").asString()));
    }
}
