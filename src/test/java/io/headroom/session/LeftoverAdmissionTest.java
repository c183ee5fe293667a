package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.kube.AdmissionCrashProbe;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import io.headroom.testing.ChildJvm;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 30: admission this console's operator published and nothing refreshes now is a leftover at start, like
 * a pause: left by a console that was killed (a second JVM, {@link AdmissionCrashProbe}) or set OPEN for four
 * hours at exit. The dialog offers "expire now" or "keep until it expires"; the choice is journaled, and the
 * expiry written fenced (the class's workload lease), only onto the entry that was found: one written since
 * (by this console, which may have taken the class over) is left as it is.
 */
class LeftoverAdmissionTest extends MockSessionFixture {
    static final String OPERATOR = AdmissionCrashProbe.OPERATOR;
    final WorkloadRef orders = new WorkloadRef("up", "shop", "Deployment", "orders");

    @BeforeEach
    void setUp() {
        cluster.deployment("shop", "orders", 3);
        cluster.deployment("shop", "mail", 1);
    }

    /** A key of the shop's headroom-admission ConfigMap, as a console wrote it (ADR 0027's JSON). */
    static String json(String state, Instant decided, Instant expires, String owner, String reason) {
        return "{\"state\":\"" + state + "\"" + (state.equals("CLOSED") ? ",\"rate\":0.0" : "") + ",\"reason\":\""
                + reason + "\",\"decidedAt\":\"" + decided + "\",\"expiresAt\":\"" + expires + "\",\"owner\":\""
                + owner + "\"}";
    }

    void left(Map<String, String> keys) {
        cluster.admin.configMaps().inNamespace("shop").resource(new ConfigMapBuilder().withNewMetadata()
                .withName(AdmissionEntry.CONFIG_MAP).withNamespace("shop").endMetadata().addToData(keys).build())
                .createOr(c -> c.update());
    }

    String key(String cls) {
        return cluster.admin.configMaps().inNamespace("shop").withName(AdmissionEntry.CONFIG_MAP).get().getData().get(cls);
    }

    AdmissionEntry entry(String cls) throws Exception {
        return session.loop().cluster().admissions().published(orders, cls).orElseThrow();
    }

    void open() throws Exception {
        session = cluster.session(dir, "up", "shop", MockCluster.workloads(MockCluster.unreachableUrl(),
                "orders", "up", "shop", "orders", "mail", "up", "shop", "mail"), journal, OPERATOR);
    }

    Leftover.Admission found() throws Exception {
        Leftovers.Found[] last = new Leftovers.Found[1];
        MockCluster.await("leftovers read whole (the cluster view synced)", Duration.ofSeconds(60), () -> {
            last[0] = session.leftovers().find().orTimeout(20, TimeUnit.SECONDS).join();
            return last[0].problems().isEmpty();
        });
        Leftovers.Found f = last[0];
        List<Leftover> admission = f.leftovers().stream().filter(l -> l instanceof Leftover.Admission).toList();
        assertEquals(1, admission.size(), f.leftovers().toString());
        return (Leftover.Admission) admission.get(0);
    }

    List<Kind> kinds() {
        return journal.replay().records().stream().filter(r -> "orders".equals(r.className())).map(JournalRecord::kind)
                .toList();
    }

    @Test
    void admissionSetOpenForHoursAtExitIsOfferedKeptAsChosenThenExpired() throws Exception {
        Instant now = Instant.now();
        left(Map.of("orders", json("OPEN", now.minusSeconds(60), now.plus(Duration.ofHours(4)), OPERATOR,
                        "set OPEN by " + OPERATOR + " at exit"),
                "mail", json("CLOSED", now.minusSeconds(60), now.plusSeconds(600), "ana@desk-1", "another operator's"),
                "ledger", json("CLOSED", now.minusSeconds(60), now.plusSeconds(600), OPERATOR, "not a class of this file")));
        open();
        Leftover.Admission a = found();
        assertEquals("orders", a.className());
        assertEquals(OPERATOR, a.owner());
        assertEquals("admission OPEN for the producers of class orders (ConfigMap shop/headroom-admission): set OPEN by "
                + OPERATOR + " at exit", a.what());
        assertEquals(List.of(Leftover.Choice.HAND_BACK, Leftover.Choice.KEEP), a.choices());
        assertEquals(Leftover.Choice.KEEP, a.defaultChoice(Instant.now()), "not expired: kept unless chosen");
        String before = key("orders");

        Leftovers.Report kept = session.leftovers().settle(Map.of(a, Leftover.Choice.KEEP), Duration.ofSeconds(10))
                .get(20, TimeUnit.SECONDS);
        assertTrue(kept.ok(), kept.summary());
        assertEquals(before, key("orders"), "kept: nothing written");
        assertEquals(List.of(Kind.LEFTOVER_KEPT), kinds());

        Leftovers.Report expired = session.leftovers().settle(Map.of(a, Leftover.Choice.HAND_BACK),
                Duration.ofSeconds(10)).get(20, TimeUnit.SECONDS);
        assertTrue(expired.ok(), expired.summary());
        assertTrue(entry("orders").expired(Instant.now()), key("orders"));
        assertEquals(AdmissionVerdict.State.OPEN, entry("orders").state());
        assertEquals(List.of(Kind.LEFTOVER_KEPT, Kind.HANDING_BACK, Kind.HANDED_BACK), kinds());
        assertTrue(key("mail").contains("another operator's") && !entry("mail").expired(Instant.now()),
                "another operator's entry is not this console's to offer");
    }

    /**
     * The stale read: the entry was found, then written again (here as this console's own first tick would,
     * taking the class over) before the operator chose. Expiring what was found must not expire the new entry.
     */
    @Test
    void anEntryWrittenAgainSinceItWasFoundIsNotExpired() throws Exception {
        Instant now = Instant.now();
        left(Map.of("orders", json("CLOSED", now.minusSeconds(120), now.plusSeconds(600), OPERATOR, "telemetry missing")));
        open();
        Leftover.Admission a = found();
        AdmissionEntry newer = AdmissionEntry.of("orders", AdmissionVerdict.open("the 3 ready replicas serve the arrivals"),
                now, now.plusSeconds(60), OPERATOR);
        assertTrue(session.loop().cluster().admissions().publish(orders, newer).ok());

        Leftovers.Report r = session.leftovers().settle(Map.of(a, Leftover.Choice.HAND_BACK), Duration.ofSeconds(10))
                .get(20, TimeUnit.SECONDS);

        assertFalse(r.ok(), r.summary());
        assertTrue(r.summary().contains("written again since it was read"), r.summary());
        assertEquals(newer, entry("orders"), "the newer entry stands, unexpired");
        assertEquals(List.of(Kind.HANDING_BACK, Kind.HAND_BACK_REFUSED), kinds());
    }

    @Test
    void aConsoleKilledWhilePublishingLeavesAdmissionTheNextConsoleOffersToExpire() throws Exception {
        try (ChildJvm probe = ChildJvm.start(AdmissionCrashProbe.class, cluster.url(), dir.toString())) {
            assertEquals("PUBLISHED", probe.readLine());
            probe.process().destroyForcibly();
            assertTrue(probe.process().waitFor(30, TimeUnit.SECONDS), "the probe is gone");
        }
        String left = key("orders");
        assertTrue(left.contains("\"owner\":\"" + OPERATOR + "\""), left);

        open(); // the next console, same operator: no memory of that one, and orders has no admission block here
        Leftover.Admission a = found();
        assertFalse(a.expiredAt(Instant.now()), "a 15-minute TTL: still what producers obey");
        assertEquals(AdmissionVerdict.State.CLOSED, a.entry().state(), a.what());

        // Fenced: while the dead console's lease has not stood still for its 3 s, the write is refused naming it.
        List<String> refusals = new ArrayList<>();
        Leftovers.Report r = null;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((r == null || !r.ok()) && System.nanoTime() < end) {
            r = session.leftovers().settle(Map.of(a, Leftover.Choice.HAND_BACK), Duration.ofSeconds(10))
                    .get(20, TimeUnit.SECONDS);
            if (!r.ok()) {
                refusals.add(r.summary());
            }
        }
        assertTrue(r.ok(), r.summary());
        refusals.forEach(s -> assertTrue(s.contains(AdmissionCrashProbe.HOLDER), s));
        assertTrue(entry("orders").expired(Instant.now()), key("orders"));
        assertEquals(AdmissionVerdict.State.CLOSED, entry("orders").state(), "expired, not changed");
        List<Kind> k = kinds();
        assertEquals(List.of(Kind.HANDING_BACK, Kind.HANDED_BACK), k.subList(k.size() - 2, k.size()));
        assertEquals(refusals.size() + 1, k.stream().filter(x -> x == Kind.HANDING_BACK).count(),
                "every attempt journaled its intent first");
    }
}
