package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.AdmissionWrite;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The admission port on Kubernetes (ADR 0027): one ConfigMap per namespace, {@code headroom-admission}, one key
 * per class holding a small JSON; written only by the console holding the class's workload lease.
 */
class KubeAdmissionsTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final WorkloadRef ref = new WorkloadRef("dev", "payments", "Deployment", "worker");
    final List<KubeClusterGateway> opened = new ArrayList<>();

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        cluster.answerAccessReviews(true, null);
    }

    @AfterEach
    void tearDown() {
        for (KubeClusterGateway g : opened) {
            g.close();
            g.connection().close();
        }
    }

    KubeClusterGateway console(String identity, ManualClock clock) throws Exception {
        KubeConnection c = cluster.connect(dir, "dev");
        KubeClusterGateway g = KubeClusterGateway.open(c, List.of(ref), clock,
                new LeaseKeeper(c.client(), identity, clock, Duration.ofSeconds(15)));
        opened.add(g);
        assertTrue(g.awaitSynced(Duration.ofSeconds(15)));
        return g;
    }

    static AdmissionEntry throttle(String cls, double rate, String owner) {
        return AdmissionEntry.of(cls, new AdmissionVerdict(AdmissionVerdict.State.THROTTLE, rate,
                "throttled while 3 more replicas start", null, 5, 90), T0, T0.plusSeconds(60), owner);
    }

    Map<String, String> data() {
        ConfigMap cm = cluster.admin.configMaps().inNamespace("payments").withName("headroom-admission").get();
        return cm == null ? null : cm.getData();
    }

    @Test
    void theClassKeyHoldsItsAdmissionAsJsonAndReadsBack() throws Exception {
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", new ManualClock(T0));
        AdmissionWrite w = ana.ports().admissions().publish(ref, throttle("payments", 2.5, "ana@desk-1/aaaa0001"));
        assertEquals(AdmissionWrite.Outcome.APPLIED, w.outcome(), w.message());
        JsonNode v = new ObjectMapper().readTree(data().get("payments"));
        assertEquals("THROTTLE", v.get("state").asString());
        assertEquals(2.5, v.get("rate").asDouble(), 1e-9);
        assertEquals("throttled while 3 more replicas start", v.get("reason").asString());
        assertEquals("2026-12-01T10:00:00Z", v.get("decidedAt").asString());
        assertEquals("2026-12-01T10:01:00Z", v.get("expiresAt").asString());
        assertEquals("ana@desk-1/aaaa0001", v.get("owner").asString());

        // A second class in the same namespace is a second key: the first stays.
        ana.ports().admissions().publish(ref, AdmissionEntry.open("mail", "ok", T0, T0.plusSeconds(60), "ana"));
        assertEquals(2, data().size());
        AdmissionEntry back = ana.ports().admissions().published(ref, "payments").orElseThrow();
        assertEquals(AdmissionVerdict.State.THROTTLE, back.state());
        assertEquals(2.5, back.rate(), 1e-9);
        assertTrue(ana.ports().admissions().published(ref, "nothing").isEmpty());

        AdmissionWrite expired = ana.ports().admissions().expire(ref, "payments", T0.plusSeconds(5), null);
        assertEquals(AdmissionWrite.Outcome.APPLIED, expired.outcome(), expired.message());
        assertEquals(T0.plusSeconds(5), ana.ports().admissions().published(ref, "payments").orElseThrow().expiresAt());
        assertEquals(AdmissionWrite.Outcome.APPLIED, ana.ports().admissions().expire(ref, "none", T0, null).outcome(),
                "nothing to expire");
    }

    @Test
    void onlyTheConsoleHoldingTheWorkloadsLeaseWritesIt() throws Exception {
        ManualClock clock = new ManualClock(T0);
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", clock);
        KubeClusterGateway bob = console("bob@desk-2/bbbb0002", clock);
        assertEquals(AdmissionWrite.Outcome.APPLIED,
                ana.ports().admissions().publish(ref, throttle("payments", 2.5, "ana")).outcome());
        AdmissionWrite refused = bob.ports().admissions().publish(ref, throttle("payments", 0.5, "bob"));
        assertEquals(AdmissionWrite.Outcome.REFUSED, refused.outcome(), refused.message());
        assertTrue(refused.message().contains("ana@desk-1/aaaa0001"), refused.message());
        assertTrue(data().get("payments").contains("\"rate\":2.5"), data().get("payments"));
        assertEquals(AdmissionWrite.Outcome.REFUSED, bob.ports().admissions().expire(ref, "payments", T0, null).outcome());
    }

    /** A tick's refresh is one write for the namespace; a class whose workload's lease another console holds is left out. */
    @Test
    void aRefreshWritesTheKeysThatPassTheirLeaseInOnePatchAndRefusesTheOthers() throws Exception {
        WorkloadRef mail = new WorkloadRef("dev", "payments", "Deployment", "mail");
        cluster.deployment("payments", "mail", 1);
        ManualClock clock = new ManualClock(T0);
        KubeConnection cb = cluster.connect(dir, "dev");
        KubeClusterGateway bob = KubeClusterGateway.open(cb, List.of(mail), clock,
                new LeaseKeeper(cb.client(), "bob@desk-2/bbbb0002", clock, Duration.ofSeconds(15)));
        opened.add(bob);
        assertTrue(bob.awaitSynced(Duration.ofSeconds(15)));
        assertEquals(AdmissionWrite.Outcome.APPLIED, bob.ports().admissions().publish(mail,
                AdmissionEntry.open("mail", "bob's", T0, T0.plusSeconds(60), "bob")).outcome());
        KubeConnection ca = cluster.connect(dir, "dev");
        KubeClusterGateway ana = KubeClusterGateway.open(ca, List.of(ref, mail), clock,
                new LeaseKeeper(ca.client(), "ana@desk-1/aaaa0001", clock, Duration.ofSeconds(15)));
        opened.add(ana);
        assertTrue(ana.awaitSynced(Duration.ofSeconds(15)));
        cluster.takeRequests();

        Map<String, AdmissionWrite> w = ana.ports().admissions().refresh("dev", "payments", List.of(
                new io.headroom.cluster.AdmissionRefresh(ref, throttle("payments", 2.5, "ana")),
                new io.headroom.cluster.AdmissionRefresh(mail, AdmissionEntry.open("mail", "ana's", T0, T0.plusSeconds(60),
                        "ana"))));

        assertEquals(AdmissionWrite.Outcome.APPLIED, w.get("payments").outcome(), w.toString());
        assertEquals(AdmissionWrite.Outcome.REFUSED, w.get("mail").outcome(), w.toString());
        assertTrue(w.get("mail").message().contains("bob@desk-2/bbbb0002"), w.get("mail").message());
        assertTrue(data().get("mail").contains("bob's"), "bob's key untouched: " + data().get("mail"));
        assertTrue(data().get("payments").contains("\"rate\":2.5"), data().get("payments"));
        assertEquals(1, cluster.takeRequests().stream().filter(r -> "PATCH".equals(r.getMethod())
                && r.getPath().contains("/configmaps/headroom-admission")).count());
    }

    @Test
    void aClassNameThatCannotBeAKeyIsRefusedInWords() throws Exception {
        KubeClusterGateway ana = console("ana@desk-1/aaaa0001", new ManualClock(T0));
        AdmissionWrite w = ana.ports().admissions().publish(ref, throttle("pay ments/eu", 1, "ana"));
        assertEquals(AdmissionWrite.Outcome.REFUSED, w.outcome());
        assertTrue(w.message().contains("cannot be a ConfigMap key"), w.message());
        assertNull(data());
    }
}
