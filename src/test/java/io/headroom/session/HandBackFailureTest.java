package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AutoscalerView;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Autoscalers;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.kube.TcpRelay;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hand-back the cluster does not confirm (issue 27 item 1): the console scaled a KEDA-managed class
 * (KEDA paused at 5 through {@code paused-replicas}) and froze it; at exit the operator hands it back,
 * and the ScaledObject's patch gets a 500, or the API server cannot be reached at all. The freeze is not
 * journaled lifted (no {@code UNFROZEN}), the pause on the ScaledObject still names its owner and its
 * expiry, and the next console that starts on the same journal finds the freeze and offers the pause.
 */
class HandBackFailureTest {
    static final String SO_PATH = "/apis/keda.sh/v1alpha1/namespaces/shop/scaledobjects/orders-so";

    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final MemoryJournal journal = new MemoryJournal();
    Session first;
    Session next;
    TcpRelay relay;

    @BeforeEach
    void setUp() {
        cluster = api.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.kedaInstalled();
        cluster.deployment("shop", "orders", 3);
        cluster.scaledObject(MockCluster.prometheusScaledObject("shop", "orders-so", "orders", ""));
    }

    @AfterEach
    void tearDown() {
        for (Session s : new Session[] {first, next}) {
            if (s != null) {
                s.close();
            }
        }
        if (relay != null) {
            relay.close();
        }
    }

    /** A console of {@code operator} whose kubeconfig points at {@code url} (the mock, or a relay to it). */
    Session console(String url, String operator) throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config-" + operator + ".yaml", "up", "t0ken-for-the-test",
                "up", url, "shop");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, MockCluster.workloads(MockCluster.unreachableUrl(), "orders", "up", "shop", "orders"));
        return Session.connect(WorkloadsFile.read(workloads), Contexts.load(List.of(kubeconfig)), journal, operator);
    }

    Map<String, String> scaledObjectAnnotations() {
        Map<String, String> a = cluster.scaledObject("shop", "orders-so").getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    List<JournalRecord> journaled(JournalRecord.Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    /** The console scales orders to 5 (KEDA paused there) and freezes it: what the exit then hands back. */
    WorkloadRef pausedAndFrozen(Session s) throws Exception {
        WorkloadRef orders = s.loop().classes().get(0).target();
        MockCluster.await("KEDA's view of orders", Duration.ofSeconds(10),
                () -> s.loop().cluster().workloads().autoscaler(orders).kind() == AutoscalerView.Kind.KEDA);
        ScaleResult paused = s.loop().cluster().scaling().scale(orders, 5, null);
        assertEquals(ScaleResult.Outcome.APPLIED, paused.outcome(), paused.message());
        assertEquals("5", scaledObjectAnnotations().get(Autoscalers.PAUSED_REPLICAS));
        assertTrue(s.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812").get(15, TimeUnit.SECONDS).ok());
        return orders;
    }

    HandBack.Report handBackAtExit(Session s) throws Exception {
        List<HandBack.Item> items = s.handBack().atExit().get(10, TimeUnit.SECONDS);
        assertEquals(List.of("orders"), items.stream().map(HandBack.Item::className).toList());
        return s.handBack().finish(items, Map.of("orders", HandBack.Choice.HAND_BACK), HandBack.EXIT_DEADLINE)
                .get(20, TimeUnit.SECONDS);
    }

    /** What must hold after a hand-back the cluster did not confirm, whatever the cause. */
    void nothingClaimedThatDidNotHappen(Session s, HandBack.Report report, String cause) {
        List<JournalRecord> all = journal.replay().records();
        int intent = all.indexOf(journaled(JournalRecord.Kind.HANDING_BACK).get(0));
        int refusal = all.indexOf(journaled(JournalRecord.Kind.HAND_BACK_REFUSED).get(0));
        assertTrue(intent < refusal, "the intent, then the outcome: " + all);
        assertEquals(List.of(), journaled(JournalRecord.Kind.HANDED_BACK), "nothing claimed handed back");
        assertFalse(report.ok(), report.summary());
        assertTrue(report.unfinished().isEmpty(), "answered, not timed out: " + report.summary());
        String said = report.results().get(0).message();
        assertTrue(said.contains(cause), said);

        // The journal: no UNFROZEN (the cluster never said the pause was lifted); the failure in words.
        assertEquals(List.of(), journaled(JournalRecord.Kind.UNFROZEN));
        List<JournalRecord> refused = journaled(JournalRecord.Kind.HAND_BACK_REFUSED);
        assertEquals(1, refused.size(), journal.replay().records().toString());
        assertTrue(refused.get(0).reason().contains(cause), refused.get(0).reason());
        // The console: still frozen.
        assertNotNull(s.supervisor().state().of("orders").freeze(), "the freeze stays in force");

        // The object: KEDA still paused, and the pause still says whose it is and until when.
        Map<String, String> so = scaledObjectAnnotations();
        assertEquals("5", so.get(Autoscalers.PAUSED_REPLICAS), so.toString());
        assertNotNull(so.get(HeadroomPause.OWNER), "the pause names its owner: " + so);
        Instant until = Instant.parse(so.get(HeadroomPause.UNTIL));
        assertTrue(until.isAfter(Instant.now()), "the pause has an expiry ahead: " + so);
        assertTrue(said.contains("stays frozen"), said);
    }

    /**
     * The next console on the same journal: the freeze comes back (it was never lifted) and the pause is
     * offered, with the owner and expiry the object carries; returns the offer.
     */
    Leftover.Pause theNextStartOffersIt(String owner, String until) throws Exception {
        next = console(cluster.url(), "ben@oncall");
        next.start();
        assertNotNull(next.supervisor().state().of("orders").freeze(), "the freeze is visible as not lifted");
        Leftovers.Found found = next.leftovers().find().get(20, TimeUnit.SECONDS);
        assertEquals(List.of(), found.problems());
        List<Leftover.Pause> pauses = found.leftovers().stream().filter(l -> l instanceof Leftover.Pause)
                .map(l -> (Leftover.Pause) l).toList();
        assertEquals(1, pauses.size(), found.leftovers().toString());
        Leftover.Pause p = pauses.get(0);
        assertEquals("orders", p.className());
        assertEquals(owner, p.owner());
        assertEquals(Instant.parse(until), p.expires());
        assertEquals(Integer.valueOf(5), p.pause().replicas());
        assertEquals(Leftover.Choice.KEEP, p.defaultChoice(Instant.now()), "not expired: kept unless chosen");
        assertTrue(p.what().startsWith("KEDA paused at 5 on Deployment shop/orders (class orders)"), p.what());
        return p;
    }

    @Test
    void aServerErrorOnTheScaledObjectLeavesTheFreezeAndTheOwnedPauseAndTheNextStartOffersIt() throws Exception {
        first = console(cluster.url(), "ana@oncall");
        pausedAndFrozen(first);
        cluster.server.expect().patch().withPath(SO_PATH).andReturn(500, "{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                + "\"status\":\"Failure\",\"message\":\"etcdserver: request timed out\",\"reason\":\"InternalError\","
                + "\"code\":500}").once();

        HandBack.Report report = handBackAtExit(first);

        nothingClaimedThatDidNotHappen(first, report, "HTTP 500");
        String owner = scaledObjectAnnotations().get(HeadroomPause.OWNER);
        String until = scaledObjectAnnotations().get(HeadroomPause.UNTIL);
        first.close();
        first = null;

        Leftover.Pause offered = theNextStartOffersIt(owner, until);
        // Handed back now (the server answers again): KEDA's pause and its record go, then the freeze is lifted.
        Leftovers.Report settled = next.leftovers().settle(Map.of(offered, Leftover.Choice.HAND_BACK),
                HandBack.EXIT_DEADLINE).get(20, TimeUnit.SECONDS);
        assertTrue(settled.ok(), settled.summary());
        Map<String, String> so = scaledObjectAnnotations();
        assertFalse(so.containsKey(Autoscalers.PAUSED_REPLICAS), so.toString());
        assertFalse(so.containsKey(HeadroomPause.OWNER), so.toString());
        MockCluster.await("the freeze lifted", Duration.ofSeconds(10),
                () -> next.supervisor().state().of("orders").freeze() == null);
        List<JournalRecord> all = journal.replay().records();
        List<JournalRecord.Kind> bens = all.stream().filter(r -> r.user().equals("ben@oncall")
                && "orders".equals(r.className())).map(JournalRecord::kind).toList();
        assertEquals(List.of(JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.UNFROZEN, JournalRecord.Kind.HANDED_BACK),
                bens, "intent, the cluster, then the freeze lifted and the outcome: " + all);
        assertTrue(next.leftovers().find().get(20, TimeUnit.SECONDS).leftovers().isEmpty(), "nothing left to offer");
    }

    @Test
    void anUnreachableApiServerLeavesTheFreezeAndTheOwnedPauseAndTheNextStartOffersIt() throws Exception {
        relay = new TcpRelay(cluster.server.getPort());
        first = console(relay.url(), "ana@oncall");
        pausedAndFrozen(first);
        relay.close(); // the API server cannot be reached from this console any more

        HandBack.Report report = handBackAtExit(first);

        nothingClaimedThatDidNotHappen(first, report, "connection refused");
        first.close();
        first = null;

        Map<String, String> so = scaledObjectAnnotations();
        theNextStartOffersIt(so.get(HeadroomPause.OWNER), so.get(HeadroomPause.UNTIL));
    }
}
