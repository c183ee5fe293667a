package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.EventResult;
import io.headroom.cluster.NodeRef;
import io.headroom.cluster.TeamEvent;
import io.headroom.cluster.TeamEvents;
import io.headroom.cluster.TimelineRead;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict.State;
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
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Admission actuated through the supervised path (design.md §2b): journaled before and after, a tightening
 * proposed in supervised mode, a loosening applied, a freeze stopping every write, an Event on the timeline.
 */
class AdmissionSupervisionTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";

    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal memory = new MemoryJournal();
    final List<TeamEvent> events = new CopyOnWriteArrayList<>();
    final TeamTimeline journal;
    final SandboxWorld world;
    final SandboxCluster cluster;
    final Supervisor supervisor;
    final ControlLoop loop;
    final WorkloadRef target;
    /** When set, the cluster refuses every admission write with these words (another console holds the lease). */
    volatile String refuse;

    AdmissionSupervisionTest() {
        // Steady 2 jobs/s; a burst to 20 jobs/s from 120 s to 300 s against a 90 s start-up.
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 300, 20)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).startupSeconds(90)
                .initialReplicas(2).build();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).build();
        target = spec.target();
        world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        WorkloadClass cls = new WorkloadClass(CLS, target, policy);
        journal = new TeamTimeline(memory, new Recorded(), Map.of(CLS, target), Runnable::run, p -> { });
        io.headroom.cluster.Admissions real = cluster.ports().admissions();
        io.headroom.cluster.Admissions refusing = new io.headroom.cluster.Admissions() {
            @Override
            public io.headroom.cluster.AdmissionWrite publish(WorkloadRef ref, AdmissionEntry entry) {
                String no = refuse;
                return no != null ? io.headroom.cluster.AdmissionWrite.refused(no) : real.publish(ref, entry);
            }

            @Override
            public Map<String, io.headroom.cluster.AdmissionWrite> refresh(String context, String namespace,
                    List<io.headroom.cluster.AdmissionRefresh> entries) {
                String no = refuse;
                if (no == null) {
                    return real.refresh(context, namespace, entries);
                }
                Map<String, io.headroom.cluster.AdmissionWrite> out = new java.util.LinkedHashMap<>();
                entries.forEach(e -> out.put(e.entry().className(), io.headroom.cluster.AdmissionWrite.refused(no)));
                return out;
            }

            @Override
            public io.headroom.cluster.AdmissionWrite expire(WorkloadRef ref, String className, Instant at,
                                                             Instant decidedAt) {
                return real.expire(ref, className, at, decidedAt);
            }

            @Override
            public java.util.Optional<AdmissionEntry> published(WorkloadRef ref, String className) {
                return real.published(ref, className);
            }
        };
        supervisor = new Supervisor(List.of(cls), cluster.ports().withAdmissions(refusing), journal, clock,
                Runnable::run, "alice", Duration.ofMinutes(5));
        supervisor.setAdmissionPolicies(Map.of(CLS, AdmissionPolicy.onMissing(true, "conservative")));
        loop = new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
    }

    final class Recorded implements TeamEvents {
        @Override
        public EventResult postEvent(WorkloadRef ref, TeamEvent event) {
            events.add(event);
            return EventResult.ok();
        }

        @Override
        public EventResult postNodeEvent(NodeRef ref, TeamEvent event) {
            return EventResult.ok();
        }

        @Override
        public TimelineRead teamEvents(Instant since) {
            return TimelineRead.unsupported("test");
        }
    }

    void tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        loop.tick();
    }

    AdmissionEntry published() {
        return cluster.ports().admissions().published(target, CLS).orElse(null);
    }

    List<Kind> kinds() {
        return memory.replay().records().stream().map(JournalRecord::kind).filter(k -> k.name().startsWith("ADMISSION"))
                .toList();
    }

    /** Ticks every 15 s from {@code from} until the class has a pending tightening; returns when. */
    double untilProposed(double from) {
        for (double t = from; t < 300; t += 15) {
            tickAt(t);
            if (supervisor.admission(CLS).pending() != null) {
                return t;
            }
        }
        throw new AssertionError("no tightening proposed during the burst: " + supervisor.admission(CLS));
    }

    @Test
    void openIsPublishedJournaledAndPostedThenATighteningWaitsForTheOperator() throws Exception {
        tickAt(0); // no completion seen yet: telemetry missing, the conservative rate is a tightening from nothing
        assertEquals(State.THROTTLE, supervisor.admission(CLS).pending().verdict().state());
        assertTrue(supervisor.admission(CLS).decided().reason().startsWith("telemetry missing"));
        assertNull(published(), "proposed, not written");
        tickAt(15);
        AdmissionEntry open = published();
        assertNotNull(open, "an OPEN admission is a loosening from nothing: applied");
        assertEquals(State.OPEN, open.state());
        assertNull(supervisor.admission(CLS).pending(), "the proposal went with the decision");
        assertEquals(T0.plusSeconds(15 + 60), open.expiresAt(), "3 × 15 s poll is under the 60 s floor");
        assertEquals("alice", open.owner());
        assertEquals(List.of(Kind.ADMISSION_PROPOSED, Kind.ADMISSION_PUBLISHING, Kind.ADMISSION_PUBLISHED), kinds(),
                "intent first");
        assertTrue(events.stream().anyMatch(e -> e.reason().equals("HeadroomAdmission")
                && e.message().contains("OPEN")), "on the team timeline: " + events);

        double at = untilProposed(30);
        ClassAdmission c = supervisor.admission(CLS);
        assertTrue(c.pending().verdict().state() != State.OPEN, c.toString());
        assertEquals(State.OPEN, published().state(), "the tightening is not written before approval");
        assertEquals(clock.instant().plusSeconds(60), published().expiresAt(), "what producers read is refreshed");
        assertEquals(2, kinds().stream().filter(k -> k == Kind.ADMISSION_PROPOSED).count());

        tickAt(at + 15); // the same tightening (or one close to it) is not proposed twice
        Outcome o = supervisor.approveAdmission(CLS).get();
        assertTrue(o.ok(), o.message());
        assertTrue(published().state() != State.OPEN, published().toString());
        JournalRecord done = memory.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PUBLISHED)
                .reduce((a, b) -> b).orElseThrow();
        assertNotNull(done.proposalId(), "the approval names its proposal");
        assertNull(supervisor.admission(CLS).pending());
    }

    @Test
    void aFrozenClassesTighteningIsNotApprovedAndNothingIsJournaled() throws Exception {
        tickAt(0);
        assertNotNull(supervisor.admission(CLS).pending());
        assertTrue(supervisor.freeze(CLS, Duration.ofHours(1), "incident").get().ok());
        int before = kinds().size();
        Outcome o = supervisor.approveAdmission(CLS).get();
        assertEquals(new Outcome.Refused(Outcome.Why.HELD, "orders is frozen (incident): admission not written"), o);
        assertEquals(before, kinds().size());
        assertNull(published());
    }

    @Test
    void aLooseningAppliesWithoutAProposal() throws Exception {
        boolean closedOnce = false;
        for (double t = 0; t <= 900; t += 15) {
            tickAt(t);
            Proposal scale = supervisor.state().of(CLS).proposal();
            if (scale != null) {
                assertTrue(supervisor.approve(scale.id()).get().ok()); // the operator lets capacity catch up
            }
            if (t < 300 && supervisor.admission(CLS).pending() != null) {
                assertTrue(supervisor.approveAdmission(CLS).get().ok());
            }
            closedOnce |= published() != null && published().state() != State.OPEN;
        }
        assertTrue(closedOnce, "the burst tightened admission");
        assertEquals(State.OPEN, published().state(), "the burst is over: admission opens again by itself");
        JournalRecord last = memory.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PUBLISHED)
                .reduce((a, b) -> b).orElseThrow();
        assertTrue(last.reason().startsWith("OPEN"), last.reason());
        assertNull(last.proposalId(), "a loosening is applied, not proposed");
    }

    @Test
    void aFreezeStopsEveryWriteAndWhatWasPublishedExpires() throws Exception {
        tickAt(0);
        tickAt(15);
        Instant expires = published().expiresAt();
        assertTrue(supervisor.freeze(CLS, Duration.ofHours(1), "incident").get().ok());
        int before = kinds().size();
        for (double t = 30; t <= 240; t += 15) {
            tickAt(t);
        }
        assertEquals(expires, published().expiresAt(), "not refreshed while frozen");
        assertTrue(published().expired(clock.instant()), "producers apply their own default now");
        assertEquals(before, kinds().size(), "nothing proposed or written");
        assertTrue(supervisor.admission(CLS).note().startsWith("frozen (incident)"), supervisor.admission(CLS).note());
    }

    @Test
    void autoModeAppliesATighteningAndObserveModeWritesNothing() throws Exception {
        assertTrue(supervisor.setMode(CLS, Mode.AUTO).get().ok());
        for (double t = 0; t <= 240 && (published() == null || published().state() == State.OPEN); t += 15) {
            tickAt(t);
            assertNull(supervisor.admission(CLS).pending());
        }
        assertTrue(published().state() != State.OPEN, "auto: the tightening is written as decided");

        AdmissionSupervisionTest other = new AdmissionSupervisionTest();
        assertTrue(other.supervisor.setMode(CLS, Mode.OBSERVE).get().ok());
        for (double t = 0; t <= 240; t += 15) {
            other.tickAt(t);
        }
        assertNull(other.published(), "observe: shown only");
        assertNotNull(other.supervisor.admission(CLS).decided());
        assertTrue(other.kinds().isEmpty());
    }

    @Test
    void aRefreshTheClusterRefusesIsSaidAndTheEntryRunsOut() {
        tickAt(0);
        tickAt(15);
        AdmissionEntry open = published();
        refuse = "another console (bob@desk-2) holds the lease for Deployment default/orders: nothing was written";
        tickAt(30);
        assertEquals(open.expiresAt(), published().expiresAt(), "not refreshed");
        assertTrue(supervisor.admission(CLS).note().contains("not refreshed: another console (bob@desk-2)"),
                supervisor.admission(CLS).note());
        refuse = null;
        tickAt(45);
        assertEquals(clock.instant().plusSeconds(60), published().expiresAt(), "refreshed again");
        assertEquals("", supervisor.admission(CLS).note());
    }

    @Test
    void whatAConsoleBeforeLeftIsWhatTighteningAndLooseningAreJudgedAgainst() {
        cluster.ports().admissions().publish(target, new AdmissionEntry(CLS, State.CLOSED, 0.0, "an earlier console",
                T0.minusSeconds(10), T0.plusSeconds(50), "bob", null));
        tickAt(0); // telemetry missing: the conservative throttle lets in more than CLOSED does
        assertNull(supervisor.admission(CLS).pending(), "a loosening of what producers read: not proposed");
        assertEquals(State.THROTTLE, published().state());
        assertEquals("alice", published().owner());
    }

    @Test
    void aClassWithoutAnAdmissionBlockIsShownNotPublished() {
        supervisor.setAdmissionPolicies(Map.of());
        tickAt(0);
        tickAt(15);
        assertNull(published());
        assertEquals(State.OPEN, supervisor.admission(CLS).decided().state(), supervisor.admission(CLS).toString());
        assertTrue(kinds().isEmpty());
    }
}
