package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A proposal stays as shown for a minimum of wall time however fast the session's clock runs, and
 * undo is journaled as undo. Two clocks moved by hand: the session's and the wall's.
 */
class ProposalHoldAndUndoTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";

    final ManualClock clock = new ManualClock(T0);
    final AtomicLong wall = new AtomicLong();
    final MemoryJournal journal = new MemoryJournal();
    final SandboxWorld world;
    final Supervisor supervisor;
    final ControlLoop loop;

    ProposalHoldAndUndoTest() {
        // A short burst from 120 s to 160 s: a scale-up is proposed, then the backlog is gone again.
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 160, 30)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(4).startupSeconds(10)
                .initialReplicas(4).build();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .build();
        world = new SandboxWorld(List.of(spec), 3, T0);
        SandboxCluster cluster = new SandboxCluster(world, clock);
        WorkloadClass cls = new WorkloadClass(CLS, spec.target(), policy);
        supervisor = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        loop = new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
    }

    void tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        loop.tick();
    }

    Proposal pending() {
        return supervisor.state().of(CLS).proposal();
    }

    static boolean same(Proposal a, Proposal b) {
        return b != null && a.id().equals(b.id()) && a.from() == b.from() && a.to() == b.to();
    }

    double firstProposal() {
        double t = 0;
        for (; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        assertNotNull(pending());
        return t;
    }

    @Test
    void withoutAHoldTheProposalIsGoneLongBeforeAPersonCouldAct() {
        double t = firstProposal();
        Proposal shown = pending();
        for (double end = t + 20 * 60; t < end; t += 15) {
            tickAt(t); // 20 sandbox minutes: 20 s at 60×
        }
        assertFalse(same(shown, pending()), "revised, withdrawn or expired: " + pending());
    }

    @Test
    void aShownProposalStaysUnchangedForTheMinimumWallTimeThenMovesOn() throws Exception {
        supervisor.holdProposals(Duration.ofSeconds(10), wall::get);
        double t = firstProposal();
        Proposal shown = pending();
        for (double end = t + 20 * 60; t < end; t += 15) {
            tickAt(t); // the burst ends and the TTL runs out, all within one wall second
            wall.addAndGet(Duration.ofMillis(40).toNanos());
        }
        Proposal still = pending();
        assertNotNull(still, "still actionable");
        assertTrue(same(shown, still), shown + " / " + still);
        assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == Kind.SUPERSEDED
                || r.kind() == Kind.WITHDRAWN || r.kind() == Kind.EXPIRED), "nothing moved it");

        wall.addAndGet(Duration.ofSeconds(10).toNanos());
        tickAt(t);
        assertFalse(same(shown, pending()), "after the hold the decision moves on: " + pending());
    }

    @Test
    void anOperatorsOwnActionStillTakesAHeldProposalAway() throws Exception {
        supervisor.holdProposals(Duration.ofSeconds(10), wall::get);
        double t = firstProposal();
        assertTrue(supervisor.setMode(CLS, Mode.OBSERVE).get().ok());
        tickAt(t);
        assertNull(pending(), "observe mode withdraws at once");
    }

    @Test
    void undoRunsTheInverseAndJournalsUndone() throws Exception {
        Outcome frozen = supervisor.freeze(CLS, Duration.ofMinutes(30), "incident").get();
        assertTrue(frozen.ok(), frozen.message());
        Outcome undone = supervisor.undo(CLS, "freeze of " + CLS, () -> supervisor.unfreeze(CLS, "undo")).get();
        assertTrue(undone.ok(), undone.message());
        assertNull(supervisor.state().of(CLS).freeze());
        List<JournalRecord> records = journal.replay().records();
        JournalRecord last = records.get(records.size() - 1);
        assertEquals(Kind.UNDONE, last.kind());
        assertEquals("freeze of " + CLS, last.reason());
        assertEquals(Kind.UNFROZEN, records.get(records.size() - 2).kind(), "the change itself first");
        assertTrue(TeamTimeline.REASONS.containsKey(Kind.UNDONE), "posted to the team timeline");

        Outcome again = supervisor.undo(CLS, "freeze of " + CLS, () -> supervisor.unfreeze(CLS, "undo")).get();
        assertFalse(again.ok(), "nothing left to undo: refused, " + again.message());
        assertEquals(records.size(), journal.replay().records().size(), "a refused undo journals nothing");
    }

    @Test
    void anApprovalIsUndoneByScalingBackWhileNothingMovedIt() throws Exception {
        firstProposal();
        Proposal p = pending();
        assertTrue(supervisor.approve(p.id()).get().ok());
        assertEquals(p.to(), world.workload(CLS).orElseThrow().specReplicas());
        Outcome back = supervisor.undo(CLS, "approval " + p.from() + " → " + p.to(),
                () -> supervisor.revert(CLS, p.from(), p.to(), "undo of approval")).get();
        assertTrue(back.ok(), back.message());
        assertEquals(p.from(), world.workload(CLS).orElseThrow().specReplicas());
        assertFalse(supervisor.revert(CLS, p.from(), p.to(), "again").get().ok(), "replicas moved: refused");
    }
}
