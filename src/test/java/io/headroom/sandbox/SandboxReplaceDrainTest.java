package io.headroom.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadState;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Replacing the sandbox's hung worker (issue 15): payments-steady-00001 hangs at 700 s holding four jobs and
 * is flagged STUCK. A graceful drain of it could never end (its jobs never finish); the operator's replace
 * asks for a replacement first, evicts the hung pod once the new one is ready (its jobs go back to the
 * queue), lowers replicas back, and ends completed: the pod is gone, the new one serves, STUCK clears.
 */
class SandboxReplaceDrainTest {
    static final String CLASS = "payments-steady";
    static final String HUNG = "payments-steady-00001";
    final Instant start = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(start);
    final SandboxWorld world = SandboxCatalog.withBudgets(SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED,
            start));
    final SandboxCluster cluster = new SandboxCluster(world, clock);
    final SandboxMetrics metrics = new SandboxMetrics(world, clock);
    final List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream().map(SandboxCatalog.Entry::workloadClass)
            .toList();
    final MemoryJournal journal = new MemoryJournal();
    final Supervisor supervisor = new Supervisor(classes, cluster.ports(), journal, clock, Runnable::run, "ana",
            Duration.ofMinutes(5));
    final ControlLoop loop = new ControlLoop(classes, cluster.ports(), metrics, supervisor, clock);
    TickResult last;

    void tick() {
        clock.advance(Duration.ofSeconds(5));
        last = loop.tick();
    }

    ClassSnapshot payments() {
        return last.classes().stream().filter(c -> c.name().equals(CLASS)).findFirst().orElseThrow();
    }

    WorkloadState workload() {
        return cluster.workload(classes.get(0).target()).orElseThrow();
    }

    Drain drain() {
        return supervisor.state().classes().get(CLASS).drain();
    }

    @Test
    void theHungPodIsReplacedEvictedAndStuckClears() throws Exception {
        supervisor.setPodLoad(metrics::inFlightByPod);
        while (last == null || !payments().decision().stuckPods().contains(HUNG)) {
            tick();
            assertTrue(clock.instant().isBefore(start.plusSeconds(900)), "the hung pod was never flagged STUCK");
        }
        int replicas = workload().specReplicas();
        Set<String> before = workload().pods().stream().map(PodState::name).collect(Collectors.toSet());

        Outcome o = supervisor.startReplaceDrain(CLASS, HUNG, Duration.ofMinutes(5), "worker hung").get();
        assertTrue(o.ok(), o.message());
        Instant deadline = clock.instant().plus(Duration.ofMinutes(6));
        while (drain().active() && clock.instant().isBefore(deadline)) {
            tick();
        }
        Drain d = drain();
        assertEquals(DrainPhase.COMPLETED, d.phase(), d.detail());
        assertTrue(d.detail().contains("back to the queue"), d.detail());
        assertEquals(replicas, workload().specReplicas(), "replicas back where they were: " + d.detail());

        // The hung pod terminates with its grace period (killed, its jobs requeued), then it is gone.
        Instant gone = clock.instant().plusSeconds(60);
        while (workload().pods().stream().anyMatch(p -> p.name().equals(HUNG)) && clock.instant().isBefore(gone)) {
            tick();
        }
        WorkloadState w = workload();
        assertFalse(w.pods().stream().anyMatch(p -> p.name().equals(HUNG)), "the hung pod is gone: " + w.pods());
        assertTrue(w.pods().stream().anyMatch(p -> !before.contains(p.name()) && p.ready() && !p.terminating()),
                "a new ready pod serves: " + w.pods());
        assertTrue(world.hungPods(CLASS).isEmpty());
        tick();
        assertTrue(payments().decision().stuckPods().isEmpty(), payments().decision().explanation());

        List<JournalRecord.Kind> kinds = journal.replay().records().stream()
                .filter(r -> d.id().equals(r.proposalId())).map(JournalRecord::kind).toList();
        assertEquals(JournalRecord.Kind.DRAIN_STARTED, kinds.get(0), kinds.toString());
        assertTrue(kinds.contains(JournalRecord.Kind.POD_EVICTED), kinds.toString());
        assertEquals(JournalRecord.Kind.DRAIN_ENDED, kinds.get(kinds.size() - 1), kinds.toString());
    }
}
