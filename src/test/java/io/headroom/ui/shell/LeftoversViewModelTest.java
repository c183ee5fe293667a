package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.WriteOnlyCluster;
import io.headroom.cluster.CordonMark;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.NodeResult;
import io.headroom.cluster.NodeState;
import io.headroom.cluster.PodMarks;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.session.HandBack;
import io.headroom.session.Leftover;
import io.headroom.session.Leftovers;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The start's leftovers without the toolkit: every kind is listed with who left it and until when, the
 * default is to hand back only what has expired (a cordon is kept whatever it says), "all" chooses only
 * where a row offers the choice, a kind with a problem says it, and a write the cluster refuses is said
 * in the status and journaled as not done.
 */
class LeftoversViewModelTest {
    static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");
    final ManualClock clock = new ManualClock(NOW);
    final ExecutorService io = Executors.newSingleThreadExecutor();
    final WorkloadRef orders = new WorkloadRef("dev", "shop", "Deployment", "orders");
    final WorkloadRef indexer = new WorkloadRef("dev", "shop", "Deployment", "indexer");
    final NodeRef node = new NodeRef("dev", "node-1");
    final MemoryJournal journal = new MemoryJournal();
    final List<String> written = new CopyOnWriteArrayList<>();
    volatile boolean nodesRefuse;
    final FakeCluster cluster = new WriteOnlyCluster() {
        @Override
        public Optional<HeadroomPause> keptPause(WorkloadRef r) {
            if (r.equals(indexer)) {
                throw new IllegalStateException("HTTP 403: forbidden");
            }
            return Optional.of(new HeadroomPause("ana@desk-1/5f3a", NOW.minus(Duration.ofMinutes(5)),
                    "Headroom scaled it to 5 (KEDA paused until handed back)", 5));
        }

        @Override
        public ScaleResult forgetPause(WorkloadRef r) {
            written.add("forget " + r.name());
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, 0, "Headroom's record of the pause cleared");
        }

        @Override
        public List<PodMarks.Found> drainMarks(WorkloadRef r) {
            return r.equals(orders) ? List.of(new PodMarks.Found("orders-a", "orders-7-beef", "bob@desk-2/b0b",
                    NOW.plus(Duration.ofMinutes(30)))) : List.of();
        }

        @Override
        public PodMarks.Result unmarkDrain(WorkloadRef r, List<String> pods, String drainId) {
            written.add("unmark " + String.join(",", pods) + " of " + drainId);
            return new PodMarks.Result(pods, List.of());
        }

        @Override
        public List<NodeState> nodes(String context) {
            return List.of(new NodeState(node, true, true, List.of(), NOW, new CordonMark("bob", NOW.minusSeconds(3600),
                    "kernel upgrade", "node-1-3-beef", NOW.minusSeconds(600))));
        }

        @Override
        public NodeResult cordon(NodeRef ref, boolean unschedulable, CordonMark mark) {
            written.add((unschedulable ? "cordon " : "uncordon ") + ref.name());
            return nodesRefuse ? NodeResult.failed("HTTP 500: etcdserver: request timed out")
                    : NodeResult.ok("uncordoned " + ref.name());
        }
    };
    LeftoversViewModel vm;

    @BeforeEach
    void setUp() throws Exception {
        List<WorkloadClass> classes = List.of(new WorkloadClass("orders", orders, Policy.defaults()),
                new WorkloadClass("indexing", indexer, Policy.defaults()));
        Supervisor sup = new Supervisor(classes, cluster.ports(), journal, clock, Runnable::run, Runnable::run, "ben",
                Duration.ofMinutes(5));
        HandBack hb = new HandBack(sup, cluster.ports(), () -> journal, () -> classes, clock, io);
        vm = new LeftoversViewModel(new Leftovers(hb, cluster.ports(), () -> journal, () -> classes, "ben", clock, io, clock.instant()),
                Runnable::run, Duration.ofSeconds(5), ZoneOffset.UTC);
        assertEquals(3, vm.load().get(5, TimeUnit.SECONDS));
    }

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    LeftoversViewModel.Row row(String key) {
        return vm.rows().stream().filter(r -> r.key().equals(key)).findFirst().orElseThrow();
    }

    @Test
    void everyKindIsListedWithItsOwnerAndExpiryAndOnlyWhatExpiredIsHandedBackByDefault() {
        assertEquals(List.of("pause-orders", "marks-orders-orders-7-beef", "cordon-dev-node-1"),
                vm.rows().stream().map(LeftoversViewModel.Row::key).toList());
        LeftoversViewModel.Row pause = row("pause-orders");
        assertEquals("KEDA paused at 5 on Deployment shop/orders (class orders): Headroom scaled it to 5 (KEDA paused "
                + "until handed back)", pause.what());
        assertEquals("by ana@desk-1/5f3a, expired 09:55", pause.whose());
        assertEquals(Leftover.Choice.HAND_BACK, pause.choiceProperty().get());
        assertEquals(List.of(Leftover.Choice.HAND_BACK, Leftover.Choice.KEEP, Leftover.Choice.CLEAR), pause.choices());
        assertEquals("Clear Headroom's record (KEDA stays paused at 5, as if by hand)", pause.choiceText(Leftover.Choice.CLEAR));

        LeftoversViewModel.Row marks = row("marks-orders-orders-7-beef");
        assertEquals("by bob@desk-2/b0b, until 10:30", marks.whose());
        assertEquals(Leftover.Choice.KEEP, marks.choiceProperty().get(), "its drain may still run");

        LeftoversViewModel.Row cordon = row("cordon-dev-node-1");
        assertTrue(cordon.expired());
        assertEquals(Leftover.Choice.KEEP, cordon.choiceProperty().get(), "a drained node stays cordoned unless chosen");
        assertEquals("Not read: pause on indexer (class indexing) not read: HTTP 403: forbidden",
                vm.problemsProperty().get());
    }

    @Test
    void clearingAllChoosesOnlyWhereARowOffersIt() {
        vm.chooseAll(Leftover.Choice.CLEAR);
        assertEquals(Leftover.Choice.CLEAR, row("pause-orders").choiceProperty().get());
        assertEquals(Leftover.Choice.KEEP, row("marks-orders-orders-7-beef").choiceProperty().get());
        assertEquals(Leftover.Choice.KEEP, row("cordon-dev-node-1").choiceProperty().get());
    }

    @Test
    void eachChoiceIsCarriedOutAndJournaledAndARefusedWriteIsSaidAndJournaledAsNotDone() throws Exception {
        nodesRefuse = true;
        row("pause-orders").choiceProperty().set(Leftover.Choice.CLEAR);
        row("marks-orders-orders-7-beef").choiceProperty().set(Leftover.Choice.HAND_BACK);
        row("cordon-dev-node-1").choiceProperty().set(Leftover.Choice.HAND_BACK);

        Leftovers.Report report = vm.confirm().get(5, TimeUnit.SECONDS);

        assertFalse(report.ok());
        assertEquals(List.of("forget orders", "unmark orders-a of orders-7-beef", "uncordon node-1"), written);
        assertTrue(vm.statusProperty().get().startsWith("Not everything went as chosen:\nnode node-1 (dev) cordoned"
                + " for node-1-3-beef: kernel upgrade: not done: HTTP 500: etcdserver: request timed out; left as it was"),
                vm.statusProperty().get());
        assertTrue(vm.doneProperty().get());
        List<JournalRecord.Kind> kinds = journal.replay().records().stream().map(JournalRecord::kind).toList();
        assertEquals(List.of(JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK,
                JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK,
                JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HAND_BACK_REFUSED), kinds);
        JournalRecord refused = journal.replay().records().get(5);
        assertEquals("node-1", refused.node());
        assertEquals("ben", refused.user());
    }
}
