package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journalfile.Journals;
import io.headroom.loop.Actuation;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal is written before the world changes (design.md §4): with a journal that cannot be
 * written, nothing is scaled, no freeze is lifted, no override or drain starts, and the state says
 * so loudly; once it can be written again, supervision goes on.
 */
class JournalFirstTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";

    final ManualClock clock = new ManualClock(T0);
    final FlakyJournal journal = new FlakyJournal();
    SandboxWorld world;
    SandboxCluster cluster;
    SandboxMetrics metrics;
    Supervisor supervisor;
    ControlLoop loop;
    WorkloadClass cls;

    JournalFirstTest() {
        start(SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 300, 20), null, 2, journal);
    }

    void start(SandboxClassSpec.Builder load, Duration drainOnScaleDown, int initial, io.headroom.journal.Journal j) {
        SandboxClassSpec spec = load.service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2)
                .startupSeconds(10).initialReplicas(initial).build();
        world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        metrics = new SandboxMetrics(world, clock);
        cls = new WorkloadClass(CLS, spec.target(), Policy.builder().slotsPerReplica(2).minReplicas(1)
                .maxReplicas(30).pollIntervalSeconds(15).build(), drainOnScaleDown);
        supervisor = new Supervisor(List.of(cls), cluster.ports(), j, clock, Runnable::run, "alice", Duration.ofMinutes(5));
        supervisor.setPodLoad(metrics::inFlightByPod);
        loop = new ControlLoop(List.of(cls), cluster.ports(), metrics, supervisor, clock);
    }

    TickResult tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        return loop.tick();
    }

    int replicas() {
        return world.workload(CLS).orElseThrow().specReplicas();
    }

    Proposal pending() {
        return supervisor.state().of(CLS).proposal();
    }

    List<JournalRecord> records(Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    @Test
    void autoModeScalesNothingWhileTheJournalCannotBeWritten() throws Exception {
        supervisor.setMode(CLS, Mode.AUTO).get();
        journal.full = true;
        for (double t = 0; t <= 240; t += 15) {
            TickResult r = tickAt(t);
            Actuation a = r.classes().get(0).actuation();
            assertTrue(a.kind() != Actuation.Kind.APPLIED, "nothing applied at t=" + t + ": " + a);
            assertEquals(2, replicas(), "nothing scaled unjournaled at t=" + t);
            if (a.kind() == Actuation.Kind.FAILED) {
                assertTrue(a.message().contains("journal"), a.message());
            }
        }
        SupervisionState s = supervisor.state();
        assertNotNull(s.journalFailure(), "the state says the journal fails");
        assertTrue(s.journalFailure().contains("No space left on device"), s.journalFailure());

        journal.full = false; // space freed
        tickAt(255);
        assertTrue(replicas() > 2, "auto mode acts again once the journal can be written");
        assertNull(supervisor.state().journalFailure(), "and the failure is no longer shown");
    }

    @Test
    void theIntentIsJournaledBeforeTheClusterMoves() throws Exception {
        List<String> seen = new ArrayList<>();
        journal.onAppend = r -> {
            if (r.kind() == Kind.SCALING || r.kind() == Kind.APPLIED) {
                seen.add(r.kind() + " " + r.before() + "→" + r.after() + " while the cluster has " + replicas());
            }
        };
        supervisor.setMode(CLS, Mode.AUTO).get();
        for (double t = 0; records(Kind.APPLIED).isEmpty() && t <= 300; t += 15) {
            tickAt(t);
        }
        assertTrue(seen.size() >= 2, seen.toString());
        JournalRecord applied = records(Kind.APPLIED).get(0);
        assertEquals("SCALING 2→" + applied.after() + " while the cluster has 2", seen.get(0));
        assertEquals("APPLIED 2→" + applied.after() + " while the cluster has " + applied.after(), seen.get(1));
    }

    @Test
    void aFreezeIsNotLiftedUnlessTheLiftIsJournaled() throws Exception {
        assertTrue(supervisor.freeze(CLS, Duration.ofMinutes(30), "db migration").get().ok());
        journal.full = true;
        Outcome o = supervisor.unfreeze(CLS, "done").get();
        assertFalse(o.ok());
        assertTrue(o.message().contains("journal"), o.message());
        assertNotNull(supervisor.state().of(CLS).freeze(), "still frozen, as the journal says");

        Supervisor restarted = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "bob",
                Duration.ofMinutes(5));
        restarted.restore(journal.replay());
        assertNotNull(restarted.state().of(CLS).freeze(), "after a restart too");
    }

    @Test
    void anOverrideThatCannotBeJournaledIsNotSetAndScalesNothing() throws Exception {
        tickAt(0);
        journal.full = true;
        Outcome o = supervisor.setOverride(CLS, 9, T0.plusSeconds(600), "load test").get();
        assertFalse(o.ok());
        assertNull(supervisor.state().of(CLS).override());
        journal.full = false;
        tickAt(15);
        assertEquals(2, replicas(), "the override that was never journaled pins nothing");
    }

    @Test
    void commandsThatCannotBeJournaledAreRefusedAndChangeNothing() throws Exception {
        for (double t = 0; pending() == null && t < 300; t += 15) {
            tickAt(t);
        }
        Proposal p = pending();
        assertNotNull(p);
        journal.full = true;
        List<Callable<Outcome>> commands = List.of(
                () -> supervisor.approve(p.id()).get(),
                () -> supervisor.approveWith(p.id(), p.to() + 2, "more").get(),
                () -> supervisor.reject(p.id(), "no").get(),
                () -> supervisor.setMode(CLS, Mode.AUTO).get(),
                () -> supervisor.setOverride(CLS, 7, clock.instant().plusSeconds(300), "pin").get());
        for (Callable<Outcome> c : commands) {
            Outcome o = c.call();
            assertFalse(o.ok(), o.message());
            assertTrue(o.message().contains("journal"), o.message());
        }
        ClassSupervision s = supervisor.state().of(CLS);
        assertEquals(p.id(), s.proposal().id(), "the proposal still waits");
        assertEquals(Mode.SUPERVISED, s.mode());
        assertNull(s.override());
        assertNull(s.drain());
        assertEquals(2, replicas());
        assertTrue(world.workload(CLS).orElseThrow().pods().stream().allMatch(x -> x.drainId() == null),
                "no pod marked");
    }

    @Test
    void aDrainThatCannotBeJournaledMarksNoPod() throws Exception {
        start(SandboxClassSpec.builder(CLS).baseRate(0.05), null, 4, journal);
        tickAt(30);
        journal.full = true;
        Outcome o = supervisor.startDrain(CLS, 2, Duration.ofMinutes(5), "quiet").get();
        assertFalse(o.ok());
        assertTrue(o.message().contains("journal"), o.message());
        assertNull(supervisor.state().of(CLS).drain());
        assertTrue(world.workload(CLS).orElseThrow().pods().stream().allMatch(x -> x.drainId() == null),
                "no pod marked");
    }

    @Test
    void aFreezeTakesEffectEvenUnjournaledAndSaysItWillNotSurviveARestart() throws Exception {
        supervisor.setMode(CLS, Mode.AUTO).get();
        journal.full = true;
        Outcome o = supervisor.freeze(null, Duration.ofMinutes(10), "incident").get();
        assertNotNull(supervisor.state().freezeAll(), "stopping actuation never waits for the disk");
        assertFalse(o.ok(), "not a plain success: " + o.message());
        assertTrue(o.message().contains("not journaled"), o.message());
        journal.full = false;
        for (double t = 0; t <= 240; t += 15) {
            tickAt(t);
        }
        assertEquals(2, replicas(), "frozen");
    }

    @Test
    void aDrainLowersNoReplicasWithoutItsIntentJournaled() throws Exception {
        start(SandboxClassSpec.builder(CLS).baseRate(0.05), null, 4, journal);
        tickAt(30);
        Outcome started = supervisor.startDrain(CLS, 2, Duration.ofMinutes(5), "quiet").get();
        assertTrue(started.ok(), started.message());
        journal.full = true;
        double t = 30;
        while (supervisor.state().of(CLS).drain().active() && t < 600) {
            t += 5;
            tickAt(t);
        }
        assertFalse(supervisor.state().of(CLS).drain().active(), "the drain ended");
        assertTrue(supervisor.state().of(CLS).drain().phase() != DrainPhase.COMPLETED,
                supervisor.state().of(CLS).drain().toString());
        assertEquals(4, replicas(), "no scale-down without its journal record");
        assertTrue(records(Kind.APPLIED).isEmpty());
    }

    @Test
    void aConsoleWhoseJournalCannotBeOpenedOnlyObserves(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("journal.jsonl");
        Files.createDirectory(f);
        Journals.Opened opened = Journals.open(f, Journals.Fallback.OBSERVE_ONLY);
        start(SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 300, 20), null, 2, opened.journal());
        assertNotNull(supervisor.state().journalFailure(), "said before anything is tried");
        supervisor.setMode(CLS, Mode.AUTO).get();
        for (double t = 0; t <= 240; t += 15) {
            tickAt(t);
        }
        assertEquals(2, replicas());
        assertTrue(supervisor.state().pending().isEmpty());
    }
}
