package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.WriteOnlyCluster;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An exit never hangs: a hand-back whose steps do not finish (here: the loop thread that lifts holds
 * never runs) completes at its deadline, naming the class that was not confirmed.
 */
class HandBackDeadlineTest {
    final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T10:00:00Z"));
    final ExecutorService io = Executors.newSingleThreadExecutor();
    final WorkloadRef ref = new WorkloadRef("dev", "shop", "Deployment", "orders");
    final FakeCluster cluster = new WriteOnlyCluster();

    @AfterEach
    void stop() {
        io.shutdownNow();
    }

    @Test
    void aHandBackThatCannotFinishIsNamedAtTheDeadlineAndTheExitGoesOn() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        List<WorkloadClass> classes = List.of(new WorkloadClass("orders", ref, Policy.defaults()));
        Runnable[] never = new Runnable[1];
        // The loop thread never runs a command (stuck in a write): the freeze cannot be lifted.
        Supervisor sup = new Supervisor(classes, cluster.ports(), journal, clock, r -> never[0] = r, Runnable::run, "ana",
                Duration.ofMinutes(5));
        assertTrue(sup.freeze("orders", Duration.ofMinutes(20), "incident").get(5, TimeUnit.SECONDS).ok());
        HandBack hb = new HandBack(sup, cluster.ports(), () -> journal, () -> classes, clock, io);
        List<HandBack.Item> items = hb.atExit().get(5, TimeUnit.SECONDS);
        assertEquals(1, items.size());

        long started = System.nanoTime();
        HandBack.Report report = hb.finish(items, Map.of("orders", HandBack.Choice.HAND_BACK), Duration.ofMillis(500))
                .get(5, TimeUnit.SECONDS);
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertFalse(report.ok());
        assertTrue(tookMillis < 3_000, "the exit waited " + tookMillis + " ms");
        // At the deadline the class is either not confirmed, or its step gave up waiting: named as not done either way.
        assertTrue(report.unfinished().equals(List.of("orders")) || report.results().stream()
                .anyMatch(r -> r.className().equals("orders") && !r.ok()
                        && r.message().contains("no answer before the deadline")), report.summary());
        assertTrue(report.summary().startsWith("orders: handed back on the cluster") && report.summary().contains(
                "but not lifted") || report.summary().contains("not confirmed before the deadline: orders"), report.summary());
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.HANDING_BACK),
                "the intent was journaled before anything was tried");
        assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == JournalRecord.Kind.UNFROZEN),
                "the freeze was never lifted");
    }

    @Test
    void aSandboxKeepsAPauseOnlyInItsJournalAndSaysSo() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        List<WorkloadClass> classes = List.of(new WorkloadClass("orders", ref, Policy.defaults()));
        Supervisor sup = new Supervisor(classes, cluster.ports(), journal, clock, Runnable::run, Runnable::run, "ana",
                Duration.ofMinutes(5));
        assertTrue(sup.setMode("orders", Mode.AUTO).get(5, TimeUnit.SECONDS).ok());
        HandBack hb = new HandBack(sup, cluster.ports(), () -> journal, () -> classes, clock, io);
        List<HandBack.Item> items = hb.atExit().get(5, TimeUnit.SECONDS);
        assertEquals("auto mode", items.get(0).holds());
        assertEquals(clock.instant().plus(HandBack.AUTO_KEEP), items.get(0).keepUntil());
        HandBack.Report report = hb.finish(items, Map.of(), Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
        assertEquals(HandBack.Choice.KEEP, report.results().get(0).choice(), "not chosen: kept");
        assertFalse(report.ok());
        assertTrue(report.summary().contains("cannot keep a pause after the console exits"), report.summary());
        JournalRecord kept = journal.replay().records().stream().filter(r -> r.kind() == JournalRecord.Kind.PAUSE_KEPT)
                .findFirst().orElseThrow();
        assertEquals(clock.instant().plus(HandBack.AUTO_KEEP), kept.until());
    }
}
