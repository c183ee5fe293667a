package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A freeze made while the console goes live (the session restores supervision from the journal on the loop's
 * thread; a freeze runs at once on its own): on main the restore read the journal, the freeze was journaled and
 * applied, and the restore then set the freezes from what it had read, without it. The freeze was acknowledged and
 * journaled but gone from the live state: nothing held the class, and closing the window asked nothing
 * (HandBackAtExitUiTest timed out so in a full run).
 */
class FreezeWhileGoingLiveTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aFreezeMadeWhileTheJournalIsReplayedIsKept() throws Exception {
        SandboxClassSpec spec = SandboxClassSpec.builder("orders").baseRate(2)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).initialReplicas(2).build();
        ManualClock clock = new ManualClock(T0);
        SandboxCluster cluster = new SandboxCluster(new SandboxWorld(List.of(spec), 3, T0), clock);
        WorkloadClass cls = new WorkloadClass("orders", spec.target(),
                io.headroom.decision.Policy.builder().maxReplicas(10).build());
        MemoryJournal journal = new MemoryJournal();
        AtomicReference<Thread> freezeThread = new AtomicReference<>();
        ExecutorService urgent = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "test-freeze");
            freezeThread.set(t);
            return t;
        });
        ExecutorService loopThread = Executors.newSingleThreadExecutor();
        try {
            Supervisor supervisor = new Supervisor(List.of(cls), cluster.ports(), journal, clock, loopThread, urgent,
                    "alice", Duration.ofMinutes(5));
            AtomicReference<CompletableFuture<io.headroom.supervise.Outcome>> freeze = new AtomicReference<>();
            // Going live: the journal is read, then (while the restore has not applied it yet) the operator freezes.
            CompletableFuture<Void> restored = CompletableFuture.runAsync(() -> supervisor.restore(() -> {
                Journal.Replay read = journal.replay();
                freeze.set(supervisor.freeze("orders", Duration.ofMinutes(20), "reindex"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                // Until the freeze is done, or waits for the restore (blocked on the freezes' lock).
                while (!freeze.get().isDone() && (freezeThread.get() == null
                        || freezeThread.get().getState() != Thread.State.BLOCKED)) {
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("the freeze neither finished nor waited");
                    }
                    Thread.onSpinWait();
                }
                return read;
            }), loopThread);
            restored.get(30, TimeUnit.SECONDS);
            assertTrue(freeze.get().get(30, TimeUnit.SECONDS).ok(), "the freeze was acknowledged");
            assertEquals(1, journal.replay().records().stream().filter(r -> r.kind() == JournalRecord.Kind.FROZEN)
                    .count(), "and journaled");
            assertNotNull(supervisor.state().of("orders").freeze(), "and it holds the class once live");
            assertEquals(List.of("orders"), supervisor.state().heldByHand(clock.instant()).stream()
                    .map(HeldClass::className).toList(), "closing the window asks about it");
        } finally {
            urgent.shutdownNow();
            loopThread.shutdownNow();
        }
    }
}
