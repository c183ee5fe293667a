package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.decision.Policy;
import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
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
import org.junit.jupiter.api.Test;

/**
 * Drains through the supervisor on the sandbox, time stepped by hand: the marked pods finish their
 * jobs and exactly they go; a deadline ends with nothing scaled; a freeze, the operator or a
 * restart interrupt and remove the marks. Every step is journaled.
 */
class DrainSupervisorTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "reports";

    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    SandboxWorld world;
    SandboxCluster cluster;
    SandboxMetrics metrics;
    Supervisor supervisor;
    ControlLoop loop;
    WorkloadClass cls;

    /** Four replicas of two slots; jobs of {@code serviceSeconds} arriving at {@code rate}. */
    void start(double rate, double serviceSeconds) {
        start(rate, serviceSeconds, 4, null);
    }

    void start(double rate, double serviceSeconds, int minReplicas, Duration drainOnScaleDown) {
        start(SandboxClassSpec.builder(CLS).baseRate(rate), serviceSeconds, minReplicas, drainOnScaleDown);
    }

    void start(SandboxClassSpec.Builder load, double serviceSeconds, int minReplicas, Duration drainOnScaleDown) {
        SandboxClassSpec spec = load
                .service(SandboxClassSpec.ServiceTime.constant(serviceSeconds)).concurrency(2).initialReplicas(4)
                .build();
        world = new SandboxWorld(List.of(spec), 11, T0);
        cluster = new SandboxCluster(world, clock);
        metrics = new SandboxMetrics(world, clock);
        cls = new WorkloadClass(CLS, spec.target(), Policy.builder().slotsPerReplica(2).minReplicas(minReplicas)
                .maxReplicas(10).pollIntervalSeconds(5).build(), drainOnScaleDown);
        supervisor = restartedSupervisor("alice");
        loop = new ControlLoop(List.of(cls), cluster.ports(), metrics, supervisor, clock);
    }

    Supervisor restartedSupervisor(String user) {
        Supervisor s = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, user, Duration.ofMinutes(5));
        s.setPodLoad(metrics::inFlightByPod);
        return s;
    }

    void tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        loop.tick();
    }

    Drain drain() {
        return supervisor.state().of(CLS).drain();
    }

    List<PodState> pods() {
        return world.workload(CLS).orElseThrow().pods();
    }

    List<JournalRecord> records(Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    /** Ticks every 5 s from {@code from} until the drain ends; returns the time it ended. */
    double tickUntilEnded(double from, double limit) {
        double t = from;
        while (drain().active()) {
            t += 5;
            assertTrue(t <= limit, "the drain should have ended by " + limit + " s: " + drain());
            tickAt(t);
        }
        return t;
    }

    @Test
    void theMarkedPodsFinishTheirJobsThenExactlyTheyGo() throws Exception {
        start(0.1, 20); // about 2 jobs in flight over 8 slots: 2 replicas are enough
        tickAt(60);
        Outcome o = supervisor.startDrain(CLS, 2, Duration.ofMinutes(5), "quiet hours").get();
        assertTrue(o.ok(), o.message());
        Drain d = drain();
        assertEquals(DrainPhase.WAITING, d.phase());
        List<String> marked = d.podNames();
        assertEquals(2, marked.size());
        assertTrue(pods().stream().filter(p -> marked.contains(p.name())).allMatch(p -> d.id().equals(p.drainId())));
        JournalRecord started = records(Kind.DRAIN_STARTED).get(0);
        assertEquals(4, started.before());
        assertEquals(2, started.after());
        assertEquals("quiet hours", started.reason());
        assertEquals(d.id(), started.proposalId());

        tickUntilEnded(60, 400);
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals(2, world.workload(CLS).orElseThrow().specReplicas());
        assertTrue(pods().stream().noneMatch(p -> marked.contains(p.name())), "exactly the marked pods went");
        assertEquals(2, pods().size());
        JournalRecord applied = records(Kind.APPLIED).get(0);
        assertEquals("drain " + d.id(), applied.reason());
        assertEquals(4, applied.before());
        assertEquals(2, applied.after());
        JournalRecord ended = records(Kind.DRAIN_ENDED).get(0);
        assertEquals("COMPLETED", ended.reason());
        assertTrue(ended.detail().startsWith("removed "), ended.detail());
    }

    @Test
    void whileDrainingTheDecisionIsWithheldAndAProposalIsWithdrawn() throws Exception {
        start(0.1, 20);
        tickAt(60);
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(5), null).get().ok());
        tickAt(65);
        assertTrue(supervisor.state().of(CLS).draining());
        assertTrue(supervisor.state().pending().isEmpty(), "no proposal while a drain decides the replicas");
        assertTrue(supervisor.startDrain(CLS, 2, Duration.ofMinutes(5), null).get().message()
                .contains("already draining"));
        assertTrue(supervisor.setOverride(CLS, 6, clock.instant().plusSeconds(600), "pin").get().message()
                .contains("cancel the drain first"));
    }

    @Test
    void aDeadlineWithJobsStillRunningEndsTimedOutWithNothingScaled() throws Exception {
        start(0.5, 3600); // hour-long jobs: nothing finishes within the deadline
        tickAt(30);
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(1), "test").get().ok());
        List<String> marked = drain().podNames();
        tickUntilEnded(30, 200);
        assertEquals(DrainPhase.TIMED_OUT, drain().phase());
        assertTrue(drain().detail().startsWith("still running at the deadline: " + marked.get(0) + " ("),
                drain().detail());
        assertEquals(4, world.workload(CLS).orElseThrow().specReplicas(), "nothing scaled");
        assertTrue(pods().stream().allMatch(p -> p.drainId() == null && p.deletionCost() == null), "marks removed");
        assertTrue(records(Kind.APPLIED).isEmpty());
        assertEquals("TIMED_OUT", records(Kind.DRAIN_ENDED).get(0).reason());
    }

    @Test
    void aFreezeOrTheOperatorInterruptsAndRemovesTheMarks() throws Exception {
        start(0.5, 3600);
        tickAt(30);
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(10), null).get().ok());
        supervisor.freeze(null, Duration.ofMinutes(30), "incident 12").get();
        tickAt(35);
        assertEquals(DrainPhase.INTERRUPTED, drain().phase());
        assertEquals("frozen (incident 12); nothing scaled, marks removed", drain().detail());
        assertTrue(pods().stream().allMatch(p -> p.drainId() == null));
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(10), null).get().message().contains("frozen"));

        supervisor.unfreeze(null, "over").get();
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(10), null).get().ok());
        Outcome cancelled = supervisor.cancelDrain(CLS, "changed my mind").get();
        assertTrue(cancelled.ok(), cancelled.message());
        assertEquals("cancelled by alice: changed my mind; nothing scaled, marks removed", drain().detail());
        assertTrue(pods().stream().allMatch(p -> p.drainId() == null));
        assertEquals(2, records(Kind.DRAIN_ENDED).size());
        assertFalse(supervisor.cancelDrain(CLS, "again").get().ok());
    }

    @Test
    void withoutJobsPerPodADrainIsRefusedNotRunBlind() throws Exception {
        start(0.1, 20);
        supervisor.setPodLoad(c -> java.util.Map.of());
        tickAt(30);
        Outcome o = supervisor.startDrain(CLS, 2, Duration.ofMinutes(5), null).get();
        assertFalse(o.ok());
        assertTrue(o.message().contains("are unknown"), o.message());
        assertNull(drain());
        assertTrue(records(Kind.DRAIN_STARTED).isEmpty());
    }

    @Test
    void aConsoleRestartedMidDrainRemovesTheMarksItLeft() throws Exception {
        start(0.5, 3600);
        tickAt(30);
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(10), null).get().ok());
        String id = drain().id();
        assertTrue(pods().stream().anyMatch(p -> id.equals(p.drainId())));

        // The console dies; another starts from the same journal.
        supervisor = restartedSupervisor("bob");
        supervisor.restore(journal.replay());
        loop = new ControlLoop(List.of(cls), cluster.ports(), metrics, supervisor, clock);
        tickAt(40);
        assertTrue(pods().stream().allMatch(p -> p.drainId() == null), "marks left by the dead console removed");
        JournalRecord ended = records(Kind.DRAIN_ENDED).get(0);
        assertEquals(id, ended.proposalId());
        assertEquals("INTERRUPTED", ended.reason());
        assertTrue(ended.detail().startsWith("the console stopped during the drain"), ended.detail());
        assertTrue(supervisor.startDrain(CLS, 3, Duration.ofMinutes(10), null).get().ok(), "a new drain may start");
        assertFalse(drain().id().equals(id), "drain ids are not reused after a restart");
    }

    @Test
    void aClassThatDrainsOnScaleDownDrainsWhenItsProposalIsApprovedAndInAutoMode() throws Exception {
        start(0.1, 20, 1, Duration.ofMinutes(5)); // about 2 jobs in flight: 4 replicas of 2 are too many
        double t = 0;
        while (supervisor.state().pending().isEmpty()) {
            t += 5;
            assertTrue(t < 900, "a scale-down proposal after the stabilisation window");
            tickAt(t);
        }
        Proposal p = supervisor.state().pending().get(0);
        assertTrue(p.to() < p.from(), p.toString());
        Outcome o = supervisor.approve(p.id()).get();
        assertTrue(o.ok(), o.message());
        assertTrue(drain().active(), "approving started a drain instead of scaling at once");
        assertEquals(p.from(), world.workload(CLS).orElseThrow().specReplicas());
        JournalRecord started = records(Kind.DRAIN_STARTED).get(0);
        assertEquals("approved proposal " + p.id(), started.reason());
        assertEquals(1, records(Kind.APPROVED).size());
        t = tickUntilEnded(t, t + 400);
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals(p.to(), world.workload(CLS).orElseThrow().specReplicas());

        // In auto mode the next scale-down drains by itself.
        supervisor.setMode(CLS, Mode.AUTO).get();
        int drainsBefore = records(Kind.DRAIN_STARTED).size();
        for (double until = t + 900; records(Kind.DRAIN_STARTED).size() == drainsBefore && t < until; ) {
            t += 5;
            tickAt(t);
        }
        assertEquals(drainsBefore + 1, records(Kind.DRAIN_STARTED).size(), "auto scale-down drained");
        assertEquals("auto", records(Kind.DRAIN_STARTED).get(drainsBefore).reason());
        assertTrue(records(Kind.APPLIED).stream().filter(r -> r.after() < r.before())
                        .allMatch(r -> r.reason().startsWith("drain ")), "every scale-down went through a drain");
    }

    @Test
    void aDrainThatWouldCutNeededCapacityIsRefusedAndOneOvertakenByLoadIsCancelled() throws Exception {
        start(0.35, 20); // about 7 jobs in flight over 8 slots: the decision wants more, not fewer
        for (double t = 5; t <= 60; t += 5) {
            tickAt(t);
        }
        Outcome refused = supervisor.startDrain(CLS, 3, Duration.ofMinutes(5), null).get();
        assertFalse(refused.ok());
        assertTrue(refused.message().contains("a drain would take away capacity the queue needs"), refused.message());
        assertTrue(records(Kind.DRAIN_STARTED).isEmpty());
    }

    @Test
    void aDrainOvertakenByRisingLoadIsCancelledWithTheReason() throws Exception {
        // Quiet, then from 80 s a burst that needs every replica and more.
        start(SandboxClassSpec.builder(CLS).baseRate(0.1).segment(80, 600, 1.0), 20, 4, null);
        tickAt(60);
        assertTrue(supervisor.startDrain(CLS, 2, Duration.ofMinutes(10), "quiet").get().ok());
        List<String> marked = drain().podNames();
        tickUntilEnded(60, 300);
        assertEquals(DrainPhase.INTERRUPTED, drain().phase());
        assertTrue(drain().detail().startsWith("the load rose: the decision now wants "), drain().detail());
        assertEquals(4, world.workload(CLS).orElseThrow().specReplicas(), "nothing scaled");
        assertTrue(pods().stream().filter(p -> marked.contains(p.name())).allMatch(p -> p.drainId() == null),
                "the marked pods take work again");
    }
}
