package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.journal.Journal;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.Actuation;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Supervised mode against the sandbox, with time stepped by hand and commands run in line. */
class SupervisorTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";

    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    final SandboxWorld world;
    final SandboxCluster cluster;
    final Supervisor supervisor;
    final ControlLoop loop;

    SupervisorTest() {
        // Steady 2 jobs/s, a burst to 20 jobs/s from 120 s to 300 s.
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 300, 20)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).startupSeconds(10)
                .initialReplicas(2).build();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .build();
        world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        WorkloadClass cls = new WorkloadClass(CLS, spec.target(), policy);
        supervisor = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        loop = new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
    }

    TickResult tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        return loop.tick();
    }

    int replicas() {
        return world.workload(CLS).orElseThrow().specReplicas();
    }

    Proposal pending() {
        ClassSupervision c = supervisor.state().of(CLS);
        return c.proposal();
    }

    @Test
    void aBurstCreatesOneProposalNotMany() {
        Set<String> ids = new HashSet<>();
        for (double t = 0; t <= 240; t += 15) {
            tickAt(t);
            assertTrue(supervisor.state().pending().size() <= 1, "one pending proposal per class at t=" + t);
            if (pending() != null) {
                ids.add(pending().id());
            }
        }
        assertEquals(1, ids.size(), "revised in place, never stacked: " + ids);
        assertTrue(pending().to() > 2, "the burst asks for more replicas");
        assertEquals(2, replicas(), "nothing applied without approval");
        assertEquals(1, journal.replay().records().stream().filter(r -> r.kind() == Kind.PROPOSED).count());
    }

    @Test
    void rejectingChangesNothingAndIsNotReproposedAtOnce() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        assertNotNull(p);
        Outcome rejected = supervisor.reject(p.id(), "not now").get();
        assertTrue(rejected.ok(), rejected.message());
        assertEquals(2, replicas(), "a rejection changes nothing");
        assertNull(pending());
        for (double t = clock.instant().getEpochSecond() - T0.getEpochSecond() + 15, end = t + 60; t < end; t += 15) {
            tickAt(t);
            Proposal again = pending();
            assertFalse(again != null && again.from() == p.from() && again.to() == p.to(),
                    "the rejected change is not proposed again at t=" + t);
        }
        assertEquals(2, replicas());
    }

    @Test
    void approvingAppliesExactlyTheProposal() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        Outcome ok = supervisor.approve(p.id()).get();
        assertTrue(ok.ok(), ok.message());
        assertEquals(p.to(), replicas());
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == Kind.APPLIED
                && p.id().equals(r.proposalId())));
        assertFalse(supervisor.approve(p.id()).get().ok(), "a decided proposal cannot be approved twice");
    }

    @Test
    void aDryRunAnswersWithoutChangingAnything() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        long records = journal.replay().records().size();
        Outcome o = supervisor.dryRun(p.id()).get();
        assertTrue(o.ok(), o.message());
        assertTrue(o.message().contains("would accept " + CLS + " " + p.from() + " → " + p.to()), o.message());
        assertEquals(2, replicas(), "nothing changed");
        assertNotNull(pending(), "the proposal still waits");
        assertEquals(records, journal.replay().records().size(), "a dry run is not an action");
    }

    @Test
    void approvingWithAnotherValueAppliesThatValue() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        Outcome ok = supervisor.approveWith(p.id(), p.to() + 3, "expect more").get();
        assertTrue(ok.ok(), ok.message());
        assertEquals(p.to() + 3, replicas());
    }

    @Test
    void approvalRechecksThatTheWorldHasNotMoved() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        world.setReplicas(CLS, 7); // someone else scaled meanwhile
        Outcome o = supervisor.approve(p.id()).get();
        assertFalse(o.ok());
        assertTrue(o.message().contains("moved from " + p.from() + " to 7"), o.message());
        assertEquals(7, replicas());
        assertNull(pending(), "the stale proposal is withdrawn");
    }

    @Test
    void anOverridePinsReplicasUntilItExpiresThenHandsBack() throws Exception {
        tickAt(0);
        assertTrue(supervisor.setOverride(CLS, 9, T0.plusSeconds(100), "load test").get().ok());
        TickResult r = tickAt(15);
        assertEquals(Actuation.Kind.APPLIED, r.classes().get(0).actuation().kind());
        assertEquals(9, replicas());
        for (double t = 30; t < 100; t += 15) {
            tickAt(t);
            assertEquals(9, replicas(), "pinned at t=" + t);
            assertNull(pending(), "no proposals while pinned");
        }
        tickAt(105);
        assertNull(supervisor.state().of(CLS).override());
        assertTrue(journal.replay().records().stream().anyMatch(x -> x.kind() == Kind.OVERRIDE_EXPIRED));
        assertNotNull(pending(), "supervised mode takes over: 9 replicas for 2 jobs/s is proposed down");
        assertTrue(pending().to() < 9);
    }

    @Test
    void freezeAllStopsActuationWhileDecisionsKeepUpdating() throws Exception {
        supervisor.setMode(CLS, Mode.AUTO).get();
        tickAt(0);
        assertTrue(supervisor.freeze(null, Duration.ofMinutes(10), "incident 4711").get().ok());
        int before = replicas();
        int decided = 0;
        for (double t = 15; t <= 240; t += 15) {
            TickResult r = tickAt(t);
            assertEquals(Actuation.Kind.WITHHELD, r.classes().get(0).actuation().kind());
            assertTrue(r.classes().get(0).actuation().message().contains("frozen"));
            decided = Math.max(decided, r.classes().get(0).decision().desiredReplicas());
        }
        assertEquals(before, replicas(), "nothing actuated while frozen");
        assertTrue(decided > before, "the decision still saw the burst");
        assertTrue(supervisor.unfreeze(null, "resolved").get().ok());
        tickAt(255);
        assertTrue(replicas() > before, "auto mode acts again once unfrozen");
    }

    @Test
    void aConflictingWriteIsNeverABlindOverwrite() throws Exception {
        supervisor.setMode(CLS, Mode.AUTO).get();
        // Someone scales between our read and our write: the resourceVersion we hold is stale.
        io.headroom.cluster.WorkloadState seen = cluster.workload(loop.classes().get(0).target()).orElseThrow();
        world.setReplicas(CLS, 6);
        io.headroom.decision.Decision wantsMore = io.headroom.decision.DecisionEngine.decide(CLS,
                loop.classes().get(0).policy(), new io.headroom.decision.Observation(2, 2, java.util.Map.of(
                        io.headroom.decision.Signals.QUEUE_LENGTH, io.headroom.decision.Signal.of(0, T0),
                        io.headroom.decision.Signals.ARRIVAL_RATE, io.headroom.decision.Signal.of(10, T0),
                        io.headroom.decision.Signals.MEAN_SERVICE, io.headroom.decision.Signal.of(1, T0),
                        io.headroom.decision.Signals.IN_FLIGHT, io.headroom.decision.Signal.of(2, T0))),
                io.headroom.decision.ClassMemory.initial(), T0);
        Actuation a = supervisor.handle(loop.classes().get(0), wantsMore, seen);
        assertEquals(Actuation.Kind.FAILED, a.kind());
        assertTrue(a.message().contains("moved from 2 to 6"), a.message());
        assertEquals(6, replicas(), "the other writer's 6 stands");
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == Kind.FAILED
                && r.detail().contains("moved from 2 to 6")));
    }

    @Test
    void observeModeNeverActs() throws Exception {
        supervisor.setMode(CLS, Mode.OBSERVE).get();
        for (double t = 0; t <= 240; t += 15) {
            tickAt(t);
        }
        assertEquals(2, replicas());
        assertNull(pending());
    }

    @Test
    void aRestartRestoresFreezesOverridesModesAndPendingProposals() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        supervisor.freeze("orders", Duration.ofMinutes(30), "db migration").get();
        supervisor.setMode("orders", Mode.AUTO).get();

        Supervisor restarted = new Supervisor(loop.classes(), cluster.ports(), journal, clock, Runnable::run, "bob",
                Duration.ofMinutes(5));
        restarted.restore(journal.replay());
        ClassSupervision c = restarted.state().of(CLS);
        assertEquals(Mode.AUTO, c.mode());
        assertNotNull(c.freeze());
        assertEquals("db migration", c.freeze().reason());
        assertNotNull(c.proposal());
        assertEquals(p.id(), c.proposal().id());
        assertEquals(p.to(), c.proposal().to());

        clock.advance(Duration.ofHours(1));
        Supervisor later = new Supervisor(loop.classes(), cluster.ports(), journal, clock, Runnable::run, "bob",
                Duration.ofMinutes(5));
        later.restore(journal.replay());
        assertNull(later.state().of(CLS).freeze(), "expired while the console was down");
        assertNull(later.state().of(CLS).proposal());
    }

    @Test
    void everyActionIsJournaledWithWhoAndWhere() throws Exception {
        tickAt(0);
        supervisor.freeze(CLS, Duration.ofMinutes(1), "why not").get();
        supervisor.unfreeze(CLS, "done").get();
        supervisor.setOverride(CLS, 4, T0.plusSeconds(60), "pin").get();
        supervisor.clearOverride(CLS, "unpin").get();
        supervisor.setMode(CLS, Mode.OBSERVE).get();
        Journal.Replay r = journal.replay();
        assertEquals(List.of(Kind.FROZEN, Kind.UNFROZEN, Kind.OVERRIDE_SET, Kind.OVERRIDE_CLEARED, Kind.MODE_CHANGED),
                r.records().stream().map(x -> x.kind()).toList());
        assertTrue(r.records().stream().allMatch(x -> "alice".equals(x.user()) && "sandbox".equals(x.context())
                && CLS.equals(x.className())));
    }

    @Test
    void aRefusalSaysOfWhatKindItsReasonIsInTheSameWords() {
        for (double t = 0; t <= 240 && pending() == null; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        assertNotNull(p, "the burst is proposed");
        assertFalse(p.reasons().isEmpty(), "a proposal carries the decision's reasons");
        assertEquals(List.of(io.headroom.decision.Reason.class), p.reasons().stream().map(Object::getClass).distinct()
                .toList(), "as the decision's own reasons (a code and its detail), not their printed form");

        assertEquals(new Outcome.Refused(Outcome.Why.NOT_FOUND, "unknown class nope"),
                supervisor.setMode("nope", Mode.AUTO).join());
        assertEquals(new Outcome.Refused(Outcome.Why.INVALID, "replicas cannot be negative"),
                supervisor.approveWith(p.id(), -1, "why").join());
        Outcome frozen = supervisor.freeze(CLS, Duration.ofMinutes(10), "incident 812").join();
        assertTrue(frozen instanceof Outcome.Done, frozen.toString());
        assertEquals(new Outcome.Refused(Outcome.Why.HELD, CLS + " is frozen (incident 812); unfreeze first"),
                supervisor.approve(p.id()).join());
        assertEquals(new Outcome.Refused(Outcome.Why.NOT_FOUND, "proposal gone-1 is no longer pending"),
                supervisor.reject("gone-1", "no").join());
    }
}
