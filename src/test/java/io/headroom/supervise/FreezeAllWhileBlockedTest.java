package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.FakeCluster;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A cluster write can hold the loop's only thread for many seconds (a 500 or 429 with retries).
 * Freeze all must not wait behind it: it is journaled and in effect at once, and no write starts
 * after it returned, even while the loop thread is still stuck.
 */
class FreezeAllWhileBlockedTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    /** A cluster whose writes hang until released, as one stuck behind a 429 does. */
    static final class StuckCluster extends FakeCluster {
        final io.headroom.cluster.ClusterPorts real;
        final AtomicInteger writes = new AtomicInteger();
        final Semaphore entered = new Semaphore(0);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean conflictFirst;

        StuckCluster(io.headroom.cluster.ClusterPorts real) {
            this.real = real;
        }

        @Override
        public String contextName() {
            return real.contextName();
        }

        @Override
        public Optional<WorkloadState> workload(WorkloadRef ref) {
            return real.workloads().workload(ref);
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            int n = writes.incrementAndGet();
            entered.release();
            try {
                if (!release.await(60, TimeUnit.SECONDS)) {
                    return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, "never released");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ScaleResult.of(ScaleResult.Outcome.FAILED, replicas, "interrupted");
            }
            if (conflictFirst && n == 1) {
                return ScaleResult.of(ScaleResult.Outcome.CONFLICT, replicas, "409: the object has been modified");
            }
            return real.scaling().scale(ref, replicas, expectedResourceVersion);
        }
    }

    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    final ExecutorService loopThread = Executors.newSingleThreadExecutor();
    final ExecutorService urgent = Executors.newSingleThreadExecutor();
    SandboxWorld world;
    StuckCluster cluster;
    Supervisor supervisor;
    ControlLoop loop;

    FreezeAllWhileBlockedTest() {
        List<SandboxClassSpec> specs = List.of(
                SandboxClassSpec.builder("orders").baseRate(1).initialReplicas(2).build(),
                SandboxClassSpec.builder("reports").baseRate(1).initialReplicas(2).build());
        world = new SandboxWorld(specs, 5, T0);
        cluster = new StuckCluster(new SandboxCluster(world, clock).ports());
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).build();
        List<WorkloadClass> classes = specs.stream().map(s -> new WorkloadClass(s.name(), s.target(), policy)).toList();
        supervisor = new Supervisor(classes, cluster.ports(), journal, clock, loopThread, urgent, "alice",
                Duration.ofMinutes(5));
        loop = new ControlLoop(classes, cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
    }

    @AfterEach
    void stop() {
        cluster.release.countDown();
        loopThread.shutdownNow();
        urgent.shutdownNow();
    }

    @Test
    void freezeAllTakesEffectAtOnceWhileTheLoopIsStuckInAWrite() throws Exception {
        // Both classes are pinned to 6: the next tick writes both, the first write hangs.
        assertTrue(supervisor.setOverride("orders", 6, T0.plusSeconds(3600), "load test").get(10, TimeUnit.SECONDS).ok());
        assertTrue(supervisor.setOverride("reports", 6, T0.plusSeconds(3600), "load test").get(10, TimeUnit.SECONDS).ok());
        Future<?> tick = loopThread.submit(loop::tick);
        assertTrue(cluster.entered.tryAcquire(30, TimeUnit.SECONDS), "the loop thread is stuck in a write");

        Outcome frozen = supervisor.freeze(null, Duration.ofMinutes(30), "incident 4711").get(10, TimeUnit.SECONDS);
        assertTrue(frozen.ok(), frozen.message());
        assertNotNull(supervisor.state().freezeAll(), "the console shows the freeze at once");
        int writesWhenFrozen = cluster.writes.get();
        assertEquals(1, writesWhenFrozen);
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == Kind.FROZEN && r.className() == null),
                "journaled before it returned");

        cluster.release.countDown();
        tick.get(30, TimeUnit.SECONDS);
        for (int i = 1; i <= 3; i++) {
            clock.advance(Duration.ofSeconds(15));
            loopThread.submit(loop::tick).get(30, TimeUnit.SECONDS);
        }
        assertEquals(writesWhenFrozen, cluster.writes.get(), "no write started after Freeze all returned");
        assertEquals(2, world.workload("reports").orElseThrow().specReplicas(), "the second class was never scaled");
        List<JournalRecord> records = journal.replay().records();
        long frozenAt = records.stream().filter(r -> r.kind() == Kind.FROZEN).findFirst().orElseThrow().seq();
        assertTrue(records.stream().noneMatch(r -> r.kind() == Kind.SCALING && r.seq() > frozenAt),
                "no scale intended after the freeze: " + records);
    }

    @Test
    void aConflictAnsweredAfterTheFreezeIsNotWrittenAgain() throws Exception {
        cluster.conflictFirst = true;
        assertTrue(supervisor.setOverride("orders", 6, T0.plusSeconds(3600), "load test").get(10, TimeUnit.SECONDS).ok());
        Future<?> tick = loopThread.submit(loop::tick);
        assertTrue(cluster.entered.tryAcquire(30, TimeUnit.SECONDS));
        assertTrue(supervisor.freeze(null, Duration.ofMinutes(30), "incident").get(10, TimeUnit.SECONDS).ok());
        cluster.release.countDown(); // the stuck write comes back 409: re-proposing it would be a new write
        tick.get(30, TimeUnit.SECONDS);
        assertEquals(1, cluster.writes.get(), "the re-proposal after the conflict was not written");
        assertEquals(2, world.workload("orders").orElseThrow().specReplicas());
    }
}
