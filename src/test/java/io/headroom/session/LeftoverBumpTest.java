package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ReplicaBump;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.MockCluster;
import io.headroom.kube.MockSessionFixture;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Replicas a console raised for a replacement and never lowered (it stopped in between), found by the next
 * console as it starts, against fabric8's mock API server: the record on the workload says who raised them,
 * from what, why and until when. Still raised and expired, they are lowered back by default; moved since, only
 * the stale record can go; a frozen class's replicas are not lowered.
 */
class LeftoverBumpTest extends MockSessionFixture {
    static final String WHY = "a replacement for orders-x, which makes no progress (drain orders-3-beef)";

    @BeforeEach
    void setUp() {
        cluster.deployment("shop", "orders", 3);
    }

    /** What a console that raised orders 3 → 4 for a replacement and died left on the Deployment; now at {@code now}. */
    void leftRaised(int now, String until) {
        var d = cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get();
        d.getSpec().setReplicas(now);
        d.getMetadata().setAnnotations(new HashMap<>(Map.of(ReplicaBump.OWNER, "bob@desk-2/bbbb0002",
                ReplicaBump.UNTIL, until, ReplicaBump.FROM, "3", ReplicaBump.TO, "4", ReplicaBump.REASON, WHY)));
        cluster.admin.apps().deployments().inNamespace("shop").resource(d).update();
    }

    Leftover.Bump found() throws Exception {
        session = cluster.session(dir, "up", "shop", MockCluster.workloads(MockCluster.unreachableUrl(),
                "orders", "up", "shop", "orders"), journal, "ben@oncall");
        Leftovers.Found f = session.leftovers().find().get(20, TimeUnit.SECONDS);
        assertEquals(List.of(), f.problems());
        assertEquals(1, f.leftovers().size(), f.leftovers().toString());
        return (Leftover.Bump) f.leftovers().get(0);
    }

    Map<String, String> annotations() {
        return cluster.deploymentAnnotations("shop", "orders");
    }

    @Test
    void replicasStillRaisedPastTheirExpiryAreLoweredBackAndTheRecordGoesInTheSameWrite() throws Exception {
        leftRaised(4, "2026-01-01T00:00:00Z");
        Leftover.Bump b = found();
        assertEquals("bob@desk-2/bbbb0002", b.owner());
        assertEquals(Instant.parse("2026-01-01T00:00:00Z"), b.expires());
        assertEquals("replicas of Deployment shop/orders (class orders) raised 3 → 4: " + WHY, b.what());
        assertEquals(Leftover.Choice.HAND_BACK, b.defaultChoice(Instant.now()));
        assertEquals("Lower them back to 3", b.choiceText(Leftover.Choice.HAND_BACK));

        Leftovers.Report r = session.leftovers().settle(Map.of(b, Leftover.Choice.HAND_BACK), Duration.ofSeconds(10))
                .get(20, TimeUnit.SECONDS);

        assertTrue(r.ok(), r.summary());
        assertEquals(3, cluster.replicas("shop", "orders"));
        assertTrue(annotations().keySet().stream().noneMatch(k -> k.startsWith("headroom.io/bump")), annotations().toString());
        List<JournalRecord> recs = journal.replay().records().stream().filter(x -> "orders".equals(x.className())).toList();
        assertEquals(List.of(JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK),
                recs.stream().map(JournalRecord::kind).toList());
        assertEquals(Integer.valueOf(4), recs.get(0).before());
        assertEquals(Integer.valueOf(3), recs.get(0).after());
        assertTrue(recs.get(0).reason().startsWith("leftover handed back at start: left by bob@desk-2/bbbb0002"),
                recs.get(0).reason());
    }

    @Test
    void replicasThatMovedSinceAreNotLoweredOnlyTheStaleRecordIsCleared() throws Exception {
        leftRaised(6, "2026-01-01T00:00:00Z");
        Leftover.Bump b = found();
        assertTrue(b.what().endsWith("; now 6"), b.what());
        assertEquals(List.of(Leftover.Choice.KEEP, Leftover.Choice.CLEAR), b.choices());
        assertEquals(Leftover.Choice.CLEAR, b.defaultChoice(Instant.now()));

        Leftovers.Report r = session.leftovers().settle(Map.of(b, Leftover.Choice.CLEAR), Duration.ofSeconds(10))
                .get(20, TimeUnit.SECONDS);

        assertTrue(r.ok(), r.summary());
        assertEquals(6, cluster.replicas("shop", "orders"), "the replicas stay");
        assertTrue(annotations().keySet().stream().noneMatch(k -> k.startsWith("headroom.io/bump")), annotations().toString());
    }

    @Test
    void aFrozenClassIsNotLoweredAndSaysWhy() throws Exception {
        leftRaised(4, Instant.now().plus(Duration.ofHours(1)).toString());
        Leftover.Bump b = found();
        assertEquals(Leftover.Choice.KEEP, b.defaultChoice(Instant.now()), "not expired: its drain may still run");
        assertTrue(session.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812").get(10, TimeUnit.SECONDS)
                .ok());

        Leftovers.Report r = session.leftovers().settle(Map.of(b, Leftover.Choice.HAND_BACK), Duration.ofSeconds(10))
                .get(20, TimeUnit.SECONDS);

        assertFalse(r.ok());
        assertTrue(r.summary().contains("not lowered: orders is frozen until"), r.summary());
        assertTrue(r.summary().contains("(incident 812); unfreeze it first, or keep it"), r.summary());
        assertEquals(4, cluster.replicas("shop", "orders"));
        assertEquals("4", annotations().get(ReplicaBump.TO), "the record stays");
    }
}
