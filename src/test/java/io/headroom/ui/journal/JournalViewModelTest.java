package io.headroom.ui.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journalfile.PrivateFiles;
import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.TimelineEvent;
import io.headroom.cluster.TimelineRead;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.supervise.TeamTimeline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The journal window's logic without a window: newest first, the operator-actions preset, text
 * search, several kinds, counts that match the filter, live appends on top, the cluster's events
 * merged by time without this console's own twice, and filtering that happens on the background
 * executor only (the FX thread's work is handing it over).
 */
class JournalViewModelTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00.250Z");
    static final WorkloadRef PAYMENTS = new WorkloadRef("prod", "payments", "Deployment", "worker");
    final Clock clock = Clock.fixed(T0.plus(Duration.ofHours(2)), ZoneOffset.UTC);

    /** Runs what it is given only when told: the background as a test steps it. */
    static final class Steps implements Executor {
        final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            queue.add(r);
        }

        void runAll() {
            while (!queue.isEmpty()) {
                queue.poll().run();
            }
        }
    }

    /** Counts whole-history reads: a live view must not read it all again per tick. */
    static final class CountingJournal implements Journal {
        final MemoryJournal inner = new MemoryJournal();
        final AtomicInteger historyReads = new AtomicInteger();

        @Override
        public JournalRecord append(JournalRecord r) {
            return inner.append(r);
        }

        @Override
        public Replay replay() {
            return inner.replay();
        }

        @Override
        public Replay history(Instant since) {
            historyReads.incrementAndGet();
            return inner.history(since);
        }

        @Override
        public Optional<List<JournalRecord>> appendedAfter(long seq) {
            return inner.appendedAfter(seq);
        }
    }

    /** A cluster whose Headroom events are whatever the test says (or a failure). */
    static class EventsCluster extends FakeCluster {
        volatile TimelineRead read = new TimelineRead(List.of(), List.of(), true);
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public String contextName() {
            return "prod";
        }

        @Override
        public Optional<WorkloadState> workload(WorkloadRef ref) {
            return Optional.empty();
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String v) {
            throw new UnsupportedOperationException();
        }

        @Override
        public TimelineRead teamEvents(Instant since) {
            reads.incrementAndGet();
            return read;
        }
    }

    static JournalRecord rec(int second, Kind kind, String cls) {
        return JournalRecord.of(T0.plusSeconds(second), kind, "ana", "prod", cls);
    }

    /** A mixed hour: the console's own records and the operator's. */
    static List<JournalRecord> incident() {
        return List.of(
                rec(0, Kind.PROPOSED, "payments").change(3, 5).detail("queue 1200 over objective"),
                rec(10, Kind.APPROVED, "payments").change(3, 5).reason("Chosen in the inbox"),
                rec(11, Kind.SCALING, "payments").change(3, 5),
                rec(12, Kind.APPLIED, "payments").change(3, 5),
                rec(20, Kind.FROZEN, null).reason("Incident 4711: DB failover"),
                rec(30, Kind.POLICY_EDITED, "search").detail("maxReplicas 8 → 12"),
                rec(40, Kind.DRAIN_ENDED, "search").reason("INTERRUPTED").detail("cancelled by ana"),
                rec(41, Kind.DRAIN_ENDED, "search").reason("COMPLETED").detail("2 pods drained"),
                rec(50, Kind.UNDONE, "search").reason("policy edit of search"),
                rec(60, Kind.FREEZE_EXPIRED, null));
    }

    JournalViewModel vm(Journal j, Executor io) {
        return new JournalViewModel(j, PrivateFiles::write, io, Runnable::run, clock, ZoneOffset.UTC);
    }

    static List<String> kinds(List<JournalRow> rows) {
        return rows.stream().map(JournalRow::kindLabel).toList();
    }

    static MemoryJournal journal(List<JournalRecord> records) {
        MemoryJournal j = new MemoryJournal();
        records.forEach(j::append);
        return j;
    }

    @Test
    void newestFirstWithACountOfAll() {
        JournalViewModel vm = vm(journal(incident()), Runnable::run);
        vm.reload().join();
        assertEquals(10, vm.rows().size());
        assertEquals("FREEZE_EXPIRED", vm.rows().get(0).kindLabel());
        assertEquals("PROPOSED", vm.rows().get(9).kindLabel());
        assertEquals("10 of 10 records", vm.countProperty().get());
    }

    @Test
    void theOperatorActionsPresetKeepsWhatPeopleDid() {
        JournalViewModel vm = vm(journal(incident()), Runnable::run);
        vm.reload().join();
        vm.presetProperty().set(JournalFilter.Preset.OPERATOR);
        assertEquals(List.of("UNDONE", "DRAIN_ENDED", "POLICY_EDITED", "FROZEN", "APPROVED"), kinds(vm.rows()));
        assertEquals("cancelled by ana", vm.rows().get(1).detail(), "a drain someone cancelled; not one that completed");
        assertEquals("5 of 10 records", vm.countProperty().get());

        vm.presetProperty().set(JournalFilter.Preset.AUTOMATIC);
        assertEquals(List.of("FREEZE_EXPIRED", "DRAIN_ENDED", "APPLIED", "SCALING", "PROPOSED"), kinds(vm.rows()));
    }

    @Test
    void searchIsCaseInsensitiveThroughTextActorClassAndReason() {
        List<JournalRecord> records = new ArrayList<>(incident());
        records.add(JournalRecord.of(T0.plusSeconds(70), Kind.OVERRIDE_SET, "Bogdan", "prod", "enrichment").change(4, 6)
                .reason("batch window"));
        JournalViewModel vm = vm(journal(records), Runnable::run);
        vm.reload().join();

        vm.searchProperty().set("INCIDENT 4711");
        assertEquals(List.of("FROZEN"), kinds(vm.rows()), "the reason");
        vm.searchProperty().set("db failover");
        assertEquals(1, vm.rows().size());
        vm.searchProperty().set("maxreplicas");
        assertEquals(List.of("POLICY_EDITED"), kinds(vm.rows()), "the detail");
        vm.searchProperty().set("BOGDAN");
        assertEquals(List.of("OVERRIDE_SET"), kinds(vm.rows()), "the actor");
        vm.searchProperty().set("ENRICH");
        assertEquals(List.of("OVERRIDE_SET"), kinds(vm.rows()), "the class");
        vm.searchProperty().set("policy edited");
        assertEquals(List.of("POLICY_EDITED"), kinds(vm.rows()), "the kind as words");
        assertEquals("1 of 11 records", vm.countProperty().get());

        vm.searchProperty().set("search");
        vm.presetProperty().set(JournalFilter.Preset.OPERATOR);
        assertEquals(List.of("UNDONE", "DRAIN_ENDED", "POLICY_EDITED"), kinds(vm.rows()), "search and preset together");
    }

    @Test
    void severalKindsAtOnceAndAClass() {
        JournalViewModel vm = vm(journal(incident()), Runnable::run);
        vm.reload().join();
        vm.kinds().addAll(Set.of(Kind.APPROVED, Kind.FROZEN, Kind.APPLIED));
        assertEquals(List.of("FROZEN", "APPLIED", "APPROVED"), kinds(vm.rows()));
        vm.classFilterProperty().set("payments");
        assertEquals(List.of("APPLIED", "APPROVED"), kinds(vm.rows()));
        assertEquals("2 of 10 records", vm.countProperty().get());
        assertTrue(vm.classes().containsAll(List.of("payments", "search")), vm.classes().toString());
    }

    @Test
    void newRecordsAppearOnTopWithoutReadingTheWholeJournalAgain() {
        CountingJournal j = new CountingJournal();
        incident().forEach(j::append);
        JournalViewModel vm = vm(j, Runnable::run);
        vm.reload().join();
        vm.presetProperty().set(JournalFilter.Preset.OPERATOR);
        JournalRow approved = vm.rows().get(4);
        assertEquals(1, j.historyReads.get());

        j.append(rec(70, Kind.REJECTED, "payments").reason("not now"));
        j.append(rec(71, Kind.PROPOSED, "payments"));
        vm.refresh();

        assertEquals(List.of("REJECTED", "UNDONE", "DRAIN_ENDED", "POLICY_EDITED", "FROZEN", "APPROVED"),
                kinds(vm.rows()), "the operator's new act on top; the proposal is filtered out");
        assertEquals(approved, vm.rows().get(5), "the rows already shown stay as they were");
        assertEquals("6 of 12 records", vm.countProperty().get());
        assertEquals(1, j.historyReads.get(), "only what was appended was read");
        vm.refresh();
        assertEquals(6, vm.rows().size(), "nothing twice");
    }

    @Test
    void filteringRunsInTheBackgroundAndAnOvertakenAnswerIsDropped() {
        List<JournalRecord> many = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            many.add(rec(i, i % 10 == 0 ? Kind.APPROVED : Kind.PROPOSED, i % 2 == 0 ? "payments" : "search")
                    .detail("tick " + i));
        }
        Steps io = new Steps();
        JournalViewModel vm = vm(journal(many), io);
        vm.reload();
        io.runAll();
        assertEquals("100,000 of 100,000 records", vm.countProperty().get());

        vm.searchProperty().set("tick 4242");
        assertEquals(100_000, vm.rows().size(), "the FX thread only hands the filter over");
        assertTrue(vm.filteringProperty().get());
        vm.searchProperty().set("tick 99999");
        io.runAll();
        assertEquals(1, vm.rows().size());
        assertEquals("tick 99999", vm.rows().get(0).detail(), "the newer filter's answer, not the overtaken one");
        assertFalse(vm.filteringProperty().get());
        assertEquals("1 of 100,000 records", vm.countProperty().get());

        vm.searchProperty().set("");
        vm.presetProperty().set(JournalFilter.Preset.OPERATOR);
        io.runAll();
        assertEquals("10,000 of 100,000 records", vm.countProperty().get());
    }

    @Test
    void theClustersEventsAreMergedByTimeMarkedAndNotShownTwice() {
        List<JournalRecord> records = incident();
        MemoryJournal j = journal(records);
        JournalRecord frozen = j.replay().records().get(4);
        // This console's freeze, as the API server keeps it (to the second), and another console's override.
        var own = TeamTimeline.eventOf(frozen).orElseThrow();
        EventsCluster cluster = new EventsCluster();
        cluster.read = new TimelineRead(List.of(
                new TimelineEvent(frozen.at().truncatedTo(ChronoUnit.SECONDS), own.reason(), own.message(), true, "ana",
                        "ana@desk/1", "prod", "Deployment", "payments", "worker"),
                new TimelineEvent(T0.plusSeconds(25), "HeadroomOverride", "bo: override set 3 → 8; reason: batch", false,
                        "bo", "bo@laptop/9f", "prod", "Deployment", "payments", "worker"),
                new TimelineEvent(T0.plusSeconds(26), "HeadroomAppliedScaledObject", "bo applied this ScaledObject",
                        false, null, "bo", "prod", "ScaledObject", "payments", "worker-so")),
                List.of(), true);
        JournalViewModel vm = vm(j, Runnable::run).withCluster(cluster, Map.of("payments", PAYMENTS),
                Duration.ofSeconds(15), () -> 0L);
        vm.reload().join();

        assertEquals(12, vm.rows().size(), "10 records and 2 events from another console; the own freeze once");
        assertEquals("12 of 12 records (2 from the cluster)", vm.countProperty().get());
        JournalRow override = vm.rows().get(6);
        assertTrue(override.fromCluster());
        assertEquals("OVERRIDE_SET", override.kindLabel());
        assertEquals("payments", override.className(), "named by the class whose workload it is on");
        assertEquals("bo", override.actor());
        assertEquals("bo@laptop/9f", override.console());
        assertEquals("POLICY_EDITED", vm.rows().get(4).kindLabel(), "merged by time");
        assertEquals("SCALED_OBJECT_APPLIED", vm.rows().get(5).kindLabel(), "a kind this console knows is named as its journal names it");
        assertEquals("FROZEN", vm.rows().get(7).kindLabel());
        assertFalse(vm.rows().get(7).fromCluster(), "this console's own record, not the cluster's copy");

        vm.presetProperty().set(JournalFilter.Preset.OPERATOR);
        assertTrue(vm.rows().contains(override), "another console's override is an operator action");
        vm.searchProperty().set("laptop");
        assertEquals(List.of(override), List.copyOf(vm.rows()), "the console that wrote it is searched too");
        vm.searchProperty().set("");
        vm.showClusterProperty().set(false);
        assertEquals(5, vm.rows().size());
        assertEquals("5 of 10 records", vm.countProperty().get());

        String csv = JournalViewModel.rowsCsv(List.of(override));
        assertTrue(csv.contains(",cluster,bo@laptop/9f\r\n") && csv.contains("OVERRIDE_SET,bo,prod,payments"), csv);
    }

    @Test
    void aRefusedOrSlowClusterReadIsSaidAndNeverHoldsTheJournalBack() {
        EventsCluster cluster = new EventsCluster();
        cluster.read = new TimelineRead(List.of(), List.of("events in namespace payments could not be read: HTTP 403"),
                true);
        Steps io = new Steps();
        JournalViewModel vm = vm(journal(incident()), io).withCluster(cluster, Map.of("payments", PAYMENTS),
                Duration.ofSeconds(15), () -> 0L);
        vm.reload();
        io.queue.poll().run(); // the journal's read
        Runnable clusterRead = io.queue.poll(); // the cluster's: still on its way
        io.runAll();
        assertEquals(10, vm.rows().size(), "the journal is shown while the cluster is read");
        assertTrue(vm.clusterStatusProperty().get().startsWith("Reading"), vm.clusterStatusProperty().get());
        clusterRead.run();
        io.runAll();
        assertEquals(10, vm.rows().size());
        assertTrue(vm.clusterStatusProperty().get().contains("403"), vm.clusterStatusProperty().get());

        JournalViewModel failing = vm(journal(incident()), Runnable::run).withCluster(new EventsCluster() {
            @Override
            public TimelineRead teamEvents(Instant since) {
                throw new IllegalStateException("connection refused");
            }
        }, Map.of(), Duration.ofSeconds(15), () -> 0L);
        failing.reload().join();
        assertEquals(10, failing.rows().size(), "the journal is shown whatever the cluster says");
        assertTrue(failing.clusterStatusProperty().get().contains("connection refused"),
                failing.clusterStatusProperty().get());
    }

    @Test
    void theSandboxSaysItKeepsNoClusterEvents() {
        JournalViewModel vm = vm(journal(incident()), Runnable::run).withCluster(new FakeCluster() {
            @Override
            public String contextName() {
                return "sandbox";
            }

            @Override
            public Optional<WorkloadState> workload(WorkloadRef ref) {
                return Optional.empty();
            }

            @Override
            public ScaleResult scale(WorkloadRef ref, int replicas, String v) {
                throw new UnsupportedOperationException();
            }
        }, Map.of(), Duration.ofSeconds(15), () -> 0L);
        vm.reload().join();
        assertEquals(10, vm.rows().size());
        assertTrue(vm.clusterStatusProperty().get().contains("keeps no events"), vm.clusterStatusProperty().get());
    }

    @Test
    void theClusterIsReadAgainOnlyEveryFewSecondsWhileLive() {
        EventsCluster cluster = new EventsCluster();
        long[] now = {0};
        MemoryJournal j = journal(incident());
        JournalViewModel vm = vm(j, Runnable::run).withCluster(cluster, Map.of(), Duration.ofSeconds(15), () -> now[0]);
        vm.reload().join();
        assertEquals(1, cluster.reads.get());
        vm.refresh();
        vm.refresh();
        assertEquals(1, cluster.reads.get());
        now[0] = Duration.ofSeconds(16).toNanos();
        vm.refresh();
        assertEquals(2, cluster.reads.get());
    }

    @Test
    void timesToTheSecondWithTheDateWhenNotToday() {
        JournalViewModel vm = vm(journal(List.of()), Runnable::run);
        JournalRow today = JournalRow.of(rec(5, Kind.FROZEN, null).withSeq(1));
        JournalRow yesterday = JournalRow.of(JournalRecord.of(T0.minus(Duration.ofDays(1)), Kind.FROZEN, "ana", "prod",
                null).withSeq(2));
        assertEquals("10:00:05", vm.when(today));
        assertEquals("2026-11-30 10:00:00", vm.when(yesterday));
    }
}
