package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.WriteOnlyCluster;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.session.HandBack;
import io.headroom.session.KeepUntil;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exit dialog's view model without the toolkit: a kept pause ends as chosen (the hold's own end by
 * default), choosing an end chooses to keep, and an end that is refused stops everything before any write.
 */
class HandBackViewModelTest {
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T10:00:00Z"));
    final ExecutorService io = Executors.newSingleThreadExecutor();
    final WorkloadRef ref = new WorkloadRef("dev", "shop", "Deployment", "orders");
    final List<HeadroomPause> written = new CopyOnWriteArrayList<>();
    final MemoryJournal journal = new MemoryJournal();
    final FakeCluster cluster = new WriteOnlyCluster() {
        @Override
        public ScaleResult keepPause(WorkloadRef r, HeadroomPause pause) {
            written.add(pause);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, 3, "pause kept until " + pause.until());
        }
    };
    HandBackViewModel vm;

    @BeforeEach
    void setUp() throws Exception {
        List<WorkloadClass> classes = List.of(new WorkloadClass("orders", ref, Policy.defaults()));
        Supervisor sup = new Supervisor(classes, cluster.ports(), journal, clock, Runnable::run, Runnable::run, "ana",
                Duration.ofMinutes(5));
        assertTrue(sup.freeze("orders", Duration.ofMinutes(20), "incident").get(5, TimeUnit.SECONDS).ok());
        HandBack hb = new HandBack(sup, cluster.ports(), () -> journal, () -> classes, clock, io);
        vm = new HandBackViewModel(hb, Runnable::run, Duration.ofSeconds(5), ZoneOffset.UTC);
        assertEquals(1, vm.loadAtExit().get(5, TimeUnit.SECONDS));
    }

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    HandBackViewModel.Row row() {
        return vm.rows().get(0);
    }

    @Test
    void byDefaultAKeptPauseEndsWithTheHold() throws Exception {
        assertEquals(KeepUntil.Option.AS_HELD, row().keepOptionProperty().get());
        assertEquals("as held (10:20)", vm.optionText(row(), KeepUntil.Option.AS_HELD));
        row().choiceProperty().set(HandBack.Choice.KEEP);
        assertTrue(vm.confirm().get(5, TimeUnit.SECONDS).ok());
        assertEquals(Instant.parse("2026-03-02T10:20:00Z"), written.get(0).until());
    }

    @Test
    void choosingAnEndChoosesToKeepAndThatEndIsWrittenAndJournaled() throws Exception {
        assertEquals(HandBack.Choice.HAND_BACK, row().choiceProperty().get());
        row().keepOptionProperty().set(KeepUntil.Option.TOMORROW_MORNING);
        assertEquals(HandBack.Choice.KEEP, row().choiceProperty().get());
        HandBack.Report report = vm.confirm().get(5, TimeUnit.SECONDS);
        assertTrue(report.ok(), report.summary());
        Instant tomorrow = Instant.parse("2026-03-03T09:00:00Z");
        assertEquals(tomorrow, written.get(0).until());
        assertEquals(tomorrow, journal.replay().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.PAUSE_KEPT).findFirst().orElseThrow().until());
    }

    @Test
    void aRefusedEndIsSaidOnTheRowAndStopsTheExitBeforeAnyWrite() throws Exception {
        row().keepOptionProperty().set(KeepUntil.Option.CUSTOM);
        row().customUntilProperty().set("09:30");
        assertEquals("09:30 today has passed: give a later time, or a duration (2h)", row().keepProblemProperty().get());
        assertNull(vm.confirm().get(5, TimeUnit.SECONDS), "refused: nothing done");
        assertTrue(vm.statusProperty().get().startsWith("Nothing done yet"), vm.statusProperty().get());
        assertTrue(vm.statusProperty().get().contains("orders: 09:30 today has passed"), vm.statusProperty().get());
        assertFalse(vm.busyProperty().get());
        assertFalse(vm.doneProperty().get());
        assertTrue(written.isEmpty());
        assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == JournalRecord.Kind.PAUSE_KEPT));

        row().customUntilProperty().set("90m");
        assertEquals("", row().keepProblemProperty().get());
        row().choiceProperty().set(HandBack.Choice.HAND_BACK);
        row().choiceProperty().set(HandBack.Choice.KEEP);
        assertTrue(vm.confirm().get(5, TimeUnit.SECONDS).ok());
        assertEquals(Instant.parse("2026-03-02T11:30:00Z"), written.get(0).until());
    }
}
