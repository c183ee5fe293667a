package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Decision;
import io.headroom.decision.ForecastFloor;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason.Code;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.session.AnticipatedFloors;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Predictive proposals and forecast floors in the supervisor (issue 29), on a manual clock: a class whose load
 * rises from 2 to 20 jobs/s at 00:30, a forecast that saw it coming (p80 22 jobs/s from 00:30 to 00:45), the real
 * {@code Anticipation} behind the proposals, the sandbox's cluster and metrics, the loop deciding each tick.
 */
class ForecastFloorSupervisionTest {
    static final Instant T0 = Instant.parse("2026-01-05T00:00:00Z");
    static final String CLS = "orders";
    static final double RISE = 1800;
    static final double FALL = 2700;
    /** Start-up 90 s + one poll 15 s + the default buffer 60 s. */
    static final double LEAD = 90 + 15 + 60;
    /** p80 22 jobs/s × 1 s at 70 % is 32 slots, 2 per replica. */
    static final int FLOOR = 16;

    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    SandboxWorld world;
    SandboxCluster cluster;
    Supervisor supervisor;
    ControlLoop loop;
    WorkloadRef target;

    void start(ForecastMode mode, int initialReplicas, FloorPlanner planner) {
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).segment(RISE, FALL, 20)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).startupSeconds(90)
                .initialReplicas(initialReplicas).build();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).forecastMode(mode).build();
        target = spec.target();
        world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        WorkloadClass cls = new WorkloadClass(CLS, target, policy);
        supervisor = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        supervisor.setFloorPlanner(planner != null ? planner : new AnticipatedFloors(new Forecasts()));
        loop = new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
    }

    void start(ForecastMode mode) {
        start(mode, 2, null);
    }

    /** A forecast made at T0: p80 22 jobs/s from 00:30 to 00:45, 2.4 jobs/s around it; 6 % backtest error. */
    static final class Forecasts implements ClassForecasts {
        @Override
        public Forecast arrivals(String className) {
            int n = 36;
            double[] p50 = new double[n];
            double[] p80 = new double[n];
            double[] p95 = new double[n];
            for (int i = 0; i < n; i++) {
                boolean rise = i * 300 >= RISE && i * 300 < FALL;
                p50[i] = rise ? 19 : 2;
                p80[i] = rise ? 22 : 2.4;
                p95[i] = rise ? 25 : 3;
            }
            return new Forecast("jobs/s", Forecast.Model.WEEKDAY_WEEKEND, T0.getEpochSecond(), 300, p50, p80, p95, 1,
                    0.06, 5, "the last 5 weekdays rose from 2 to 20 jobs/s at 00:30 ± 4 min", ZoneId.of("UTC"));
        }

        @Override
        public Forecast service(String className) {
            return null;
        }
    }

    ClassSnapshot tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        return loop.tick().classes().get(0);
    }

    /** Ticks every poll from {@code from} up to (not including) {@code to}; the last snapshot. */
    ClassSnapshot tickFrom(double from, double to) {
        ClassSnapshot last = null;
        for (double t = from; t < to; t += 15) {
            last = tickAt(t);
        }
        return last;
    }

    List<JournalRecord> floorRecords() {
        return journal.replay().records().stream().filter(r -> r.kind().name().startsWith("FORECAST_FLOOR")).toList();
    }

    List<Kind> floorKinds() {
        return floorRecords().stream().map(JournalRecord::kind).toList();
    }

    Proposal pendingFloor() {
        return supervisor.state().pending().stream().filter(Proposal::forecast).findFirst().orElse(null);
    }

    int replicas() {
        return cluster.ports().workloads().workload(target).orElseThrow().specReplicas();
    }

    @Test
    void aProposalReachesTheInboxAheadOfTheRiseByStartUpPollAndBuffer() {
        start(ForecastMode.PROPOSE);
        ClassSnapshot s = tickAt(0);
        Proposal p = pendingFloor();
        assertNotNull(p, "a predictive proposal in the inbox: " + supervisor.state().pending());
        assertEquals(FLOOR, p.to());
        assertEquals(2, p.from(), "what runs now");
        ForecastFloor f = p.floor();
        assertEquals(T0.plusSeconds((long) (RISE - LEAD)), f.from(), "held start-up + poll + buffer ahead of 00:30");
        assertEquals(T0.plusSeconds((long) FALL), f.until());
        assertEquals(T0.plusSeconds((long) RISE), p.expiresAt(), "it leaves the inbox when the rise is due");
        assertTrue(p.explanation().startsWith("hold 16 replicas from "), p.explanation());
        assertTrue(p.explanation().contains("for the forecast rise at"), p.explanation());
        assertTrue(p.explanation().contains("rose from 2 to 20 jobs/s at 00:30"), p.explanation());
        assertTrue(p.explanation().contains("p80 22 jobs/s"), p.explanation());
        assertTrue(p.explanation().contains("backtest error 6 %"), p.explanation());
        assertEquals(List.of(Kind.FORECAST_FLOOR_PROPOSED), floorKinds());
        assertFalse(s.decision().has(Code.FORECAST_FLOOR), "nothing is held before approval");
        tickAt(15);
        assertEquals(List.of(Kind.FORECAST_FLOOR_PROPOSED), floorKinds(), "the same rise is proposed once");
        assertEquals(p.id(), pendingFloor().id());
    }

    @Test
    void approvedTheFloorIsInTheNextDecisionsExplanationAndLapsesAtItsEnd() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        Proposal p = pendingFloor();
        Outcome o = supervisor.approve(p.id()).join();
        assertTrue(o.ok(), o.message());
        assertNull(pendingFloor(), "approved, it leaves the inbox");
        assertEquals(FLOOR, supervisor.state().of(CLS).floor().replicas());
        assertEquals("approved by alice", supervisor.state().of(CLS).floorBy());
        assertEquals(2, replicas(), "an approval scales nothing by itself");
        ClassSnapshot before = tickFrom(15, RISE - LEAD);
        assertFalse(before.decision().has(Code.FORECAST_FLOOR), before.decision().explanation());
        assertTrue(replicas() < FLOOR, "not before the floor starts: " + replicas());
        ClassSnapshot due = tickAt(RISE - LEAD);
        Decision d = due.decision();
        assertTrue(d.has(Code.FORECAST_FLOOR), d.explanation());
        assertTrue(d.explanation().contains("forecast floor " + FLOOR + " until"), d.explanation());
        assertTrue(replicas() > 2, "the rise to the floor is applied without a second ask: " + due.actuation());
        assertTrue(supervisor.state().pending().isEmpty(), "no scale proposal for it: " + supervisor.state().pending());
        tickFrom(RISE - LEAD + 15, RISE);
        assertEquals(FLOOR, replicas(), "held at the floor when the rise is due (paced by the rate policy before)");
        ClassSnapshot after = tickFrom(RISE, FALL + 30);
        assertFalse(after.decision().has(Code.FORECAST_FLOOR), after.decision().explanation());
        assertNull(supervisor.state().of(CLS).floor(), "lapsed");
        assertEquals(List.of(Kind.FORECAST_FLOOR_PROPOSED, Kind.FORECAST_FLOOR_APPROVED, Kind.FORECAST_FLOOR_LAPSED),
                floorKinds());
        JournalRecord approved = floorRecords().get(1);
        assertEquals("alice", approved.user());
        assertEquals(FLOOR, approved.after());
        assertEquals(T0.plusSeconds((long) FALL), approved.until());
    }

    @Test
    void rejectedWithAReasonItIsJournaledAndNotProposedAgain() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        Proposal p = pendingFloor();
        Outcome o = supervisor.reject(p.id(), "marketing moved the campaign").join();
        assertTrue(o.ok(), o.message());
        JournalRecord r = floorRecords().get(1);
        assertEquals(Kind.FORECAST_FLOOR_REJECTED, r.kind());
        assertEquals("marketing moved the campaign", r.reason());
        ClassSnapshot s = tickFrom(15, RISE);
        assertNull(pendingFloor(), "the rejected rise is not proposed again");
        assertFalse(s.decision().has(Code.FORECAST_FLOOR), s.decision().explanation());
        assertEquals(List.of(Kind.FORECAST_FLOOR_PROPOSED, Kind.FORECAST_FLOOR_REJECTED), floorKinds());
    }

    @Test
    void notApprovedBeforeTheRiseItLeavesTheInboxWithAReason() {
        start(ForecastMode.PROPOSE);
        tickFrom(0, RISE + 15);
        assertNull(pendingFloor());
        JournalRecord w = floorRecords().get(floorRecords().size() - 1);
        assertEquals(Kind.FORECAST_FLOOR_WITHDRAWN, w.kind());
        assertTrue(w.reason().contains("is due and the floor was not approved"), w.reason());
        assertEquals(Outcome.Why.NOT_FOUND, ((Outcome.Refused) supervisor.approve(floorRecords().get(0).proposalId())
                .join()).why());
    }

    @Test
    void autoHoldsTheFloorWithoutAskingJournaledAndShown() {
        start(ForecastMode.AUTO);
        tickAt(0);
        assertNull(pendingFloor(), "auto asks nothing");
        assertEquals(List.of(Kind.FORECAST_FLOOR_APPROVED), floorKinds());
        assertTrue(floorRecords().get(0).reason().startsWith("auto: hold 16 replicas"), floorRecords().get(0).reason());
        assertEquals("auto", supervisor.state().of(CLS).floorBy());
        assertTrue(supervisor.state().of(CLS).lastAction().text().contains("forecast floor applied (auto)"));
        ClassSnapshot s = tickFrom(15, RISE);
        assertTrue(s.decision().has(Code.FORECAST_FLOOR), s.decision().explanation());
        assertEquals(FLOOR, replicas());
    }

    @Test
    void aFreezeStopsItAsItStopsEveryWrite() {
        start(ForecastMode.AUTO);
        assertTrue(supervisor.freeze(CLS, Duration.ofHours(2), "incident 4711").join().ok());
        tickFrom(0, RISE);
        assertTrue(floorKinds().isEmpty(), "no floor while frozen: " + floorKinds());
        assertEquals(2, replicas());

        start(ForecastMode.PROPOSE);
        tickAt(0);
        Proposal p = pendingFloor();
        assertTrue(supervisor.freeze(CLS, Duration.ofHours(2), "incident 4712").join().ok());
        Outcome o = supervisor.approve(p.id()).join();
        assertEquals(Outcome.Why.HELD, ((Outcome.Refused) o).why(), o.message());
    }

    @Test
    void aFreezeAfterApprovalStopsTheRise() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        assertTrue(supervisor.approve(pendingFloor().id()).join().ok());
        assertTrue(supervisor.freeze(CLS, Duration.ofHours(2), "incident 4713").join().ok());
        ClassSnapshot s = tickFrom(15, RISE);
        assertTrue(s.decision().has(Code.FORECAST_FLOOR), "explained: " + s.decision().explanation());
        assertEquals(2, replicas(), "but not written under a freeze");
    }

    @Test
    void neverAFloorAtOrBelowWhatRuns() {
        // The supervisor's own guard, whatever a planner says.
        Instant from = T0.plusSeconds(600);
        start(ForecastMode.AUTO, 5, (cls, obs, now) -> new FloorPlanner.Planned(
                new ForecastFloor(obs.currentReplicas(), from, from.plusSeconds(900), "as many as run"),
                from.plusSeconds(60), "hold what runs"));
        tickFrom(0, 1200);
        assertTrue(floorKinds().isEmpty(), floorKinds().toString());
        // Anticipation's: twenty replicas run, more than the rise needs.
        start(ForecastMode.PROPOSE, 20, null);
        tickAt(0);
        assertNull(pendingFloor());
        assertTrue(floorKinds().isEmpty(), floorKinds().toString());
    }

    @Test
    void offAndForecastOnlyActOnNothing() {
        for (ForecastMode m : List.of(ForecastMode.OFF, ForecastMode.FORECAST_ONLY)) {
            start(m);
            ClassSnapshot s = tickFrom(0, RISE);
            assertNull(pendingFloor(), m.word());
            assertFalse(s.decision().has(Code.FORECAST_FLOOR), m.word());
            assertTrue(floorKinds().isEmpty(), m.word() + ": " + floorKinds());
        }
    }

    @Test
    void cancelledTheFloorStopsHoldingAndItsRiseIsNotProposedAgain() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        assertTrue(supervisor.approve(pendingFloor().id()).join().ok());
        Outcome o = supervisor.cancelFloor(CLS, "undo").join();
        assertTrue(o.ok(), o.message());
        assertNull(supervisor.state().of(CLS).floor());
        ClassSnapshot s = tickFrom(15, RISE);
        assertFalse(s.decision().has(Code.FORECAST_FLOOR), s.decision().explanation());
        assertNull(pendingFloor());
        assertEquals(Kind.FORECAST_FLOOR_CANCELLED, floorKinds().get(2));
        assertTrue(floorRecords().get(2).reason().contains("cancelled by alice: undo"), floorRecords().get(2).reason());
    }

    @Test
    void afterARestartAFloorIsRestoredFromTheJournalOrLapsesWithAReason() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        assertTrue(supervisor.approve(pendingFloor().id()).join().ok());

        start(ForecastMode.PROPOSE); // the same journal, a new console
        clock.set(T0.plusSeconds(60));
        supervisor.restore(journal.replay());
        ForecastFloor f = supervisor.state().of(CLS).floor();
        assertNotNull(f, "restored");
        assertEquals(FLOOR, f.replicas());
        assertEquals(T0.plusSeconds((long) (RISE - LEAD)), f.from());
        assertEquals(T0.plusSeconds((long) FALL), f.until());
        assertTrue(f.why().contains("rose from 2 to 20 jobs/s"), f.why());
        ClassSnapshot s = tickAt(RISE - LEAD + 15);
        assertTrue(s.decision().has(Code.FORECAST_FLOOR), s.decision().explanation());
        assertNull(pendingFloor(), "the held rise is not proposed again");

        start(ForecastMode.PROPOSE);
        clock.set(T0.plusSeconds((long) FALL + 60));
        supervisor.restore(journal.replay());
        assertNull(supervisor.state().of(CLS).floor());
        JournalRecord lapsed = floorRecords().get(floorRecords().size() - 1);
        assertEquals(Kind.FORECAST_FLOOR_LAPSED, lapsed.kind());
        assertTrue(lapsed.reason().contains("stopped until after the forecast floor's end"), lapsed.reason());
    }

    @Test
    void aPendingProposalIsRestoredToo() {
        start(ForecastMode.PROPOSE);
        tickAt(0);
        String id = pendingFloor().id();
        start(ForecastMode.PROPOSE);
        clock.set(T0.plusSeconds(60));
        supervisor.restore(journal.replay());
        Proposal p = pendingFloor();
        assertNotNull(p);
        assertEquals(id, p.id());
        assertEquals(FLOOR, p.floor().replicas());
        assertTrue(Arrays.asList(p.explanation().split("; ")).stream().anyMatch(w -> w.contains("backtest error")),
                p.explanation());
    }
}
