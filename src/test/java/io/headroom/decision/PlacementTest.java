package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement.PoolObservation;
import io.headroom.decision.Placement.PoolShare;
import io.headroom.decision.Placement.PoolSpec;
import io.headroom.decision.Placement.Result;
import io.headroom.decision.PlacementReason.Code;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlacementTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Placement.Timing TIMING = new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(120));
    static final PoolSpec SPOT = new PoolSpec("spot", 10, null, 1.0, null);
    static final PoolSpec ON_DEMAND = new PoolSpec("on-demand", 20, null, 3.0, null);

    static PoolObservation running(String pool, int replicas) {
        return new PoolObservation(pool, replicas, replicas, 0, null);
    }

    static PoolObservation placedAt(String pool, int replicas, Instant at) {
        return new PoolObservation(pool, replicas, replicas, 0, null, at);
    }

    static int replicas(Result r, String pool) {
        return r.share(pool).replicas();
    }

    @Test
    void thePreferredPoolFillsUpToItsMaxAndTheRestGoesToTheNext() {
        Result r = Placement.place(List.of(SPOT, ON_DEMAND), 14, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(10, replicas(r, "spot"));
        assertEquals(4, replicas(r, "on-demand"));
        assertEquals(0, r.unplaced());
        assertTrue(r.share("spot").has(Code.AT_MAX), r.share("spot").toString());
        assertTrue(r.share("on-demand").has(Code.OVERFLOW), r.share("on-demand").toString());
        assertTrue(r.share("spot").words().contains("maxReplicas 10"), r.share("spot").words());
        assertEquals(10 * 1.0 + 4 * 3.0, r.cost(List.of(SPOT, ON_DEMAND)), 1e-9);
    }

    @Test
    void whatThePreferredPoolCoversLeavesTheNextWithNothing() {
        Result r = Placement.place(List.of(SPOT, ON_DEMAND), 6, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(6, replicas(r, "spot"));
        assertEquals(0, replicas(r, "on-demand"));
        assertTrue(r.share("spot").has(Code.PREFERRED));
        assertTrue(r.share("on-demand").has(Code.NOT_NEEDED));
    }

    @Test
    void aPoolsCeilingBindsBeforeItsMax() {
        PoolSpec capped = new PoolSpec("spot", 10, 3, 1.0, null);
        Result r = Placement.place(List.of(capped, ON_DEMAND), 8, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(3, replicas(r, "spot"));
        assertEquals(5, replicas(r, "on-demand"));
        assertTrue(r.share("spot").has(Code.AT_CEILING));
    }

    @Test
    void moreThanEveryPoolHoldsIsUnplacedAndSaidSo() {
        Result r = Placement.place(List.of(SPOT, ON_DEMAND), 40, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(10, r.unplaced());
        assertTrue(r.explanation().contains("10 replicas fit no pool"), r.explanation());
    }

    @Test
    void unschedulablePodsBeforeTheDeadlineKeepThePoolAvailable() {
        Map<String, PoolObservation> obs = Map.of("spot",
                new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(59)));
        Result r = Placement.place(List.of(SPOT, ON_DEMAND), 6, obs, Placement.Memory.EMPTY, T0, TIMING);
        assertTrue(r.share("spot").available());
        assertEquals(6, replicas(r, "spot"));
    }

    @Test
    void unschedulablePodsPastTheDeadlineMoveTheShareToTheNextPoolKeepingWhatRunsAndOneProbe() {
        Map<String, PoolObservation> obs = Map.of("spot",
                new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60)));
        Result r = Placement.place(List.of(SPOT, ON_DEMAND), 6, obs, Placement.Memory.EMPTY, T0, TIMING);
        PoolShare spot = r.share("spot");
        assertFalse(spot.available());
        assertTrue(spot.has(Code.UNAVAILABLE), spot.toString());
        assertEquals(2, spot.replicas(), "the two pods it runs stay");
        assertEquals(3, spot.specReplicas(), "one more pod asks whether capacity is back");
        assertEquals(4, replicas(r, "on-demand"));
        assertTrue(spot.words().contains("4 pods unschedulable for 60 s"), spot.words());
        assertEquals(T0, r.memory().unavailableSince("spot"));
    }

    @Test
    void capacityBackMakesThePoolAvailableOnlyAfterTheHysteresis() {
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60)));
        Result down = Placement.place(List.of(SPOT, ON_DEMAND), 6, stuck, Placement.Memory.EMPTY, T0, TIMING);
        // The probe got a node at T0+20: nothing unschedulable from then.
        Map<String, PoolObservation> clear = Map.of("spot", placedAt("spot", 3, T0.plusSeconds(20)),
                "on-demand", running("on-demand", 4));
        Result early = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, down.memory(), T0.plusSeconds(30), TIMING);
        assertFalse(early.share("spot").available());
        assertTrue(early.share("spot").has(Code.RECOVERING), early.share("spot").toString());
        Result still = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, early.memory(), T0.plusSeconds(149), TIMING);
        assertFalse(still.share("spot").available(), "119 s clear of a 120 s hysteresis");
        Result back = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, still.memory(), T0.plusSeconds(150), TIMING);
        assertTrue(back.share("spot").available());
        assertTrue(back.share("spot").has(Code.CAPACITY_BACK), back.share("spot").toString());
        assertEquals(6, replicas(back, "spot"));
        assertEquals(0, replicas(back, "on-demand"));
    }

    @Test
    void nothingPendingIsNoEvidenceOfCapacityUnlessAPodOfThePoolWasPlacedSince() {
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60)));
        Result down = Placement.place(List.of(SPOT, ON_DEMAND), 6, stuck, Placement.Memory.EMPTY, T0, TIMING);
        // The class now needs 2: spot runs them, its probe was removed by the scale-down, nothing pends.
        Map<String, PoolObservation> quiet = Map.of("spot", running("spot", 2));
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 2, quiet, down.memory(), T0.plusSeconds(1), TIMING);
        assertEquals(3, a.share("spot").specReplicas(), "a probe while unavailable, whatever the class needs");
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 2, quiet, a.memory(), T0.plusSeconds(500), TIMING);
        assertFalse(b.share("spot").available(), "no pod of spot placed since: " + b.share("spot"));
        assertTrue(b.share("spot").words().contains("no pod of it placed on a node since"), b.share("spot").words());
        assertFalse(b.share("spot").has(Code.PREFERRED), "an unavailable pool is not a first choice: " + b.share("spot"));
    }

    @Test
    void unschedulableAgainWhileRecoveringRestartsTheHysteresis() {
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60)));
        Result down = Placement.place(List.of(SPOT, ON_DEMAND), 6, stuck, Placement.Memory.EMPTY, T0, TIMING);
        Map<String, PoolObservation> clear = Map.of("spot", placedAt("spot", 3, T0.plusSeconds(50)));
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, down.memory(), T0.plusSeconds(60), TIMING);
        Map<String, PoolObservation> again = Map.of("spot", new PoolObservation("spot", 3, 2, 1, T0.plusSeconds(70)));
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 6, again, a.memory(), T0.plusSeconds(90), TIMING);
        Result c = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, b.memory(), T0.plusSeconds(200), TIMING);
        assertFalse(c.share("spot").available(), "clear only since 200 s");
        Result d = Placement.place(List.of(SPOT, ON_DEMAND), 6, clear, c.memory(), T0.plusSeconds(320), TIMING);
        assertTrue(d.share("spot").available());
    }

    @Test
    void aDependentPoolIsBoundedByItsRuntimePool() {
        PoolSpec runtime = new PoolSpec("runtime", 4, null, 1.0, null);
        PoolSpec orchestration = new PoolSpec("orchestration", 20, null, 1.0, "runtime");
        Result r = Placement.place(List.of(runtime, orchestration), 9, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(4, replicas(r, "runtime"));
        assertEquals(4, replicas(r, "orchestration"), "no more useful than the runtime's 4");
        assertEquals(1, r.unplaced());
        assertTrue(r.share("orchestration").has(Code.DEPENDENCY_BOUND));
        assertTrue(r.share("orchestration").words().contains("runtime"), r.share("orchestration").words());
    }

    @Test
    void aDependentPoolAheadOfItsRuntimeIsBoundedByWhatTheRuntimeRuns() {
        PoolSpec orchestration = new PoolSpec("orchestration", 20, null, 1.0, "runtime");
        PoolSpec runtime = new PoolSpec("runtime", 4, null, 1.0, null);
        Result r = Placement.place(List.of(orchestration, runtime), 5, Map.of("runtime", running("runtime", 2)),
                Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(2, replicas(r, "orchestration"));
        assertEquals(3, replicas(r, "runtime"));
    }

    @Test
    void onePoolTakesEverythingUpToItsMax() {
        Result r = Placement.place(List.of(SPOT), 7, Map.of(), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(7, replicas(r, "spot"));
        assertEquals(7, r.placed());
    }

    @Test
    void anUnavailablePoolSaysForHowLongNotTheInstant() {
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60)));
        Result first = Placement.place(List.of(SPOT, ON_DEMAND), 6, stuck, Placement.Memory.EMPTY, T0, TIMING);
        assertFalse(first.share("spot").available());
        Result later = Placement.place(List.of(SPOT, ON_DEMAND), 6, stuck, first.memory(), T0.plusSeconds(75), TIMING);
        String w = later.share("spot").words();
        assertFalse(w.matches(".*\\d{4}-\\d{2}-\\d{2}T.*"), "no raw timestamp: " + w);
        assertTrue(w.contains("unavailable for 75 s: it became so with 4 pods unschedulable for 60 s (deadline 60 s)"), w);
        // Nothing pending any more, none placed since: still unavailable, and for how long.
        Result quiet = Placement.place(List.of(SPOT, ON_DEMAND), 6, Map.of("spot", running("spot", 2)), later.memory(),
                T0.plusSeconds(200), TIMING);
        assertTrue(quiet.share("spot").words().contains("unavailable for 3.3 min: "), quiet.share("spot").words());
        assertFalse(quiet.share("spot").words().matches(".*\\d{4}-\\d{2}-\\d{2}T.*"), quiet.share("spot").words());
    }

    // ------------------------------------------------------------------ the broker's failed acquisitions

    static PoolObservation failing(String pool, int replicas, double perSecond, Instant at) {
        return running(pool, replicas).withFailedAcquisitions(Signal.of(perSecond, at));
    }

    static Map<String, PoolObservation> spot(PoolObservation o) {
        return Map.of("spot", o);
    }

    @Test
    void failedAcquisitionsContinuouslyPastTheDeadlineMakeThePoolUnavailableAndMoveItsWholeShare() {
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 3.2, T0)),
                Placement.Memory.EMPTY, T0, TIMING);
        assertTrue(a.share("spot").available(), "failing since now: not yet past the 60 s deadline");
        assertEquals(T0, a.memory().failingSince("spot"));
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 3.2, T0.plusSeconds(45))),
                a.memory(), T0.plusSeconds(45), TIMING);
        assertTrue(b.share("spot").available(), "45 s of a 60 s deadline");
        assertEquals(6, replicas(b, "spot"));
        Result c = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 3.2, T0.plusSeconds(60))),
                b.memory(), T0.plusSeconds(60), TIMING);
        PoolShare s = c.share("spot");
        assertFalse(s.available(), s.words());
        assertTrue(s.words().contains("unavailable: broker reports 3.2 failed acquisitions/s for 60 s (deadline 60 s)"),
                s.words());
        assertEquals(0, s.replicas(), "its pods run but cannot acquire: nothing of the share stays");
        assertEquals(1, s.specReplicas(), "one probe pod stays, to learn when the broker succeeds again");
        assertEquals(6, replicas(c, "on-demand"));
        assertTrue(c.share("on-demand").has(Code.OVERFLOW), c.share("on-demand").words());
    }

    @Test
    void aFigureOfZeroEndsTheRunOfFailuresAndTheDeadlineCountsAgain() {
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0)),
                Placement.Memory.EMPTY, T0, TIMING);
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 0, T0.plusSeconds(30))),
                a.memory(), T0.plusSeconds(30), TIMING);
        assertEquals(null, b.memory().failingSince("spot"));
        Result c = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0.plusSeconds(45))),
                b.memory(), T0.plusSeconds(45), TIMING);
        Result d = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0.plusSeconds(90))),
                c.memory(), T0.plusSeconds(90), TIMING);
        assertTrue(d.share("spot").available(), "failing for 45 s since the 0: " + d.share("spot").words());
        Result e = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0.plusSeconds(105))),
                d.memory(), T0.plusSeconds(105), TIMING);
        assertFalse(e.share("spot").available(), e.share("spot").words());
        assertTrue(e.share("spot").words().contains("for 60 s (deadline 60 s)"), e.share("spot").words());
    }

    @Test
    void noBrokerFigureIsNotEvidenceEitherWayAndThePodRuleStillDecides() {
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0)),
                Placement.Memory.EMPTY, T0, TIMING);
        PoolObservation unread = running("spot", 6).withFailedAcquisitions(Signal.missing("empty result"));
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(unread), a.memory(), T0.plusSeconds(70), TIMING);
        PoolShare s = b.share("spot");
        assertTrue(s.available(), "a missing figure never makes a pool unavailable: " + s.words());
        assertTrue(s.has(Code.NO_BROKER_FIGURE), s.words());
        assertTrue(s.words().contains("no broker figure (empty result)"), s.words());
        assertEquals(T0, b.memory().failingSince("spot"), "nor does it end the run of failures");
        // The pods' rule is unchanged: unschedulable past the deadline, figure or none.
        PoolObservation stuck = new PoolObservation("spot", 6, 2, 4, T0.minusSeconds(60), null,
                Signal.missing("empty result"));
        Result c = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(stuck), Placement.Memory.EMPTY, T0, TIMING);
        assertFalse(c.share("spot").available());
        assertTrue(c.share("spot").words().contains("4 pods unschedulable for 60 s"), c.share("spot").words());
        assertEquals(2, replicas(c, "spot"), "unschedulable: it keeps the pods it runs");
    }

    @Test
    void aNegativeBrokerFigureIsMalformedNotZeroAndNeitherEndsNorStartsARunOfFailures() {
        // A rate is never below 0; a query that answers -2 (a deriv(), a counter read as a gauge) says nothing of
        // the broker: it must not end a run of failures as a 0 would, nor start one.
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0)),
                Placement.Memory.EMPTY, T0, TIMING);
        PoolObservation odd = running("spot", 6).withFailedAcquisitions(Signal.of(-2, T0.plusSeconds(70)));
        Result b = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(odd), a.memory(), T0.plusSeconds(70), TIMING);
        assertTrue(b.share("spot").has(Code.NO_BROKER_FIGURE), b.share("spot").words());
        assertTrue(b.share("spot").words().contains("below 0"), b.share("spot").words());
        assertEquals(T0, b.memory().failingSince("spot"), "the run of failures goes on");
        Result c = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(odd), Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(null, c.memory().failingSince("spot"), "nor does one start");
    }

    @Test
    void aBrokerUnavailablePoolIsBackAfterItsBrokerReportsNoFailuresForTheHysteresis() {
        Result a = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0)),
                Placement.Memory.EMPTY, T0, TIMING);
        Result down = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 6, 2, T0.plusSeconds(60))),
                a.memory(), T0.plusSeconds(60), TIMING);
        assertFalse(down.share("spot").available());
        // Its probe pod runs; the broker still fails it, then stops.
        Result still = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 1, 0.5, T0.plusSeconds(75))),
                down.memory(), T0.plusSeconds(75), TIMING);
        assertTrue(still.share("spot").has(Code.UNAVAILABLE), still.share("spot").words());
        assertTrue(still.share("spot").words().contains("its broker reports 0.5 failed acquisitions/s now"),
                still.share("spot").words());
        assertTrue(still.share("spot").words().contains("unavailable for 15 s: it became so when its broker reported 2"
                + " failed acquisitions/s for 60 s (deadline 60 s)"), still.share("spot").words());
        assertTrue(still.share("spot").words().contains("one pod stays, to learn when its broker succeeds again"),
                still.share("spot").words());
        Result rec = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 1, 0, T0.plusSeconds(90))),
                still.memory(), T0.plusSeconds(90), TIMING);
        assertTrue(rec.share("spot").has(Code.RECOVERING), rec.share("spot").words());
        assertTrue(rec.share("spot").words().contains("no failed acquisitions and nothing unschedulable for 0 s"),
                rec.share("spot").words());
        // No figure during the hold: not evidence either way, the hold goes on.
        PoolObservation unread = running("spot", 1).withFailedAcquisitions(Signal.missing("timeout"));
        Result mid = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(unread), rec.memory(), T0.plusSeconds(150),
                TIMING);
        assertFalse(mid.share("spot").available());
        Result back = Placement.place(List.of(SPOT, ON_DEMAND), 6, spot(failing("spot", 1, 0, T0.plusSeconds(210))),
                mid.memory(), T0.plusSeconds(210), TIMING);
        assertTrue(back.share("spot").available(), back.share("spot").words());
        assertTrue(back.share("spot").has(Code.CAPACITY_BACK));
        assertEquals(5, replicas(back, "spot"), "its 1 ready pod and one scale-up step (1 + 4): "
                + back.share("spot").words());
        assertEquals(1, replicas(back, "on-demand"));
    }

    // ------------------------------------------------------------------ quiet recovery

    @Test
    void whileItRecoversTheShareDoesNotMoveAndComesBackInOneMoveBoundedByReadyPodsAndAScaleUpStep() {
        PoolSpec spot = new PoolSpec("spot", 12, null, 1.0, null);
        List<PoolSpec> pools = List.of(spot, ON_DEMAND);
        ScalingBehavior up = new ScalingBehavior(0, List.of(ScalingRule.pods(3, 15)), ScalingBehavior.SelectPolicy.MAX);
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 12, 2, 10, T0.minusSeconds(60)));
        Result down = Placement.place(pools, 12, stuck, Placement.Memory.EMPTY, T0, TIMING, up);
        assertEquals(2, replicas(down, "spot"));
        assertEquals(3, down.share("spot").specReplicas());
        // The probe is placed at T0+20; every tick of the hold the split is the same (no proposal a tick).
        Result r = down;
        for (int t = 30; t < 140; t += 15) {
            Map<String, PoolObservation> clear = Map.of("spot", placedAt("spot", 3, T0.plusSeconds(20)));
            r = Placement.place(pools, 12, clear, r.memory(), T0.plusSeconds(t), TIMING, up);
            assertFalse(r.share("spot").available(), "within the hold at " + t + " s");
            assertEquals(2, replicas(r, "spot"), "the share stays at " + t + " s: " + r.share("spot").words());
            assertEquals(3, r.share("spot").specReplicas(), "its probe kept, no new probe");
            assertEquals(10, replicas(r, "on-demand"));
        }
        assertTrue(r.share("spot").words().contains("keeps its share of 2 until then"), r.share("spot").words());
        Result back = Placement.place(pools, 12, Map.of("spot", placedAt("spot", 3, T0.plusSeconds(20))), r.memory(),
                T0.plusSeconds(150), TIMING, up);
        assertTrue(back.share("spot").available());
        assertEquals(6, replicas(back, "spot"), "3 ready + one step of 3 pods: " + back.share("spot").words());
        assertEquals(6, replicas(back, "on-demand"));
        assertTrue(back.share("spot").words().contains("takes back 6 in one move: its 3 ready pods and one scale-up"
                + " step"), back.share("spot").words());
        Result next = Placement.place(pools, 12, Map.of("spot", running("spot", 6)), back.memory(),
                T0.plusSeconds(165), TIMING, up);
        assertEquals(12, replicas(next, "spot"), "available again: its whole share");
    }

    @Test
    void workNoOtherPoolCanTakeIsNotHeldBackFromARecoveringPool() {
        PoolSpec spot = new PoolSpec("spot", 12, null, 1.0, null);
        PoolSpec small = new PoolSpec("on-demand", 4, null, 3.0, null);
        List<PoolSpec> pools = List.of(spot, small);
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 12, 2, 10, T0.minusSeconds(60)));
        Result down = Placement.place(pools, 12, stuck, Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(2, replicas(down, "spot"));
        assertEquals(4, replicas(down, "on-demand"));
        assertEquals(6, down.unplaced());
        // Its probe is placed (3 pods run now): on-demand is full, so spot runs what it can though it recovers,
        // a probe more a tick, as before the hold.
        Result r = Placement.place(pools, 12, Map.of("spot", placedAt("spot", 3, T0.plusSeconds(20)),
                "on-demand", running("on-demand", 4)), down.memory(), T0.plusSeconds(30), TIMING);
        PoolShare s = r.share("spot");
        assertTrue(s.has(Code.RECOVERING), s.words());
        assertEquals(3, s.replicas(), "the 3 pods it has placed: " + s.words());
        assertEquals(4, s.specReplicas(), "and a probe more");
        assertTrue(s.words().contains("takes 1 more no other pool can, on the pods it has placed"), s.words());
        assertEquals(4, replicas(r, "on-demand"), "on-demand keeps what it runs: nothing moves between pools");
        assertEquals(5, r.unplaced());
        Result next = Placement.place(pools, 12, Map.of("spot", placedAt("spot", 4, T0.plusSeconds(35)),
                "on-demand", running("on-demand", 4)), r.memory(), T0.plusSeconds(45), TIMING);
        assertEquals(4, next.share("spot").replicas(), next.share("spot").words());
        assertEquals(5, next.share("spot").specReplicas());
    }

    @Test
    void aRecoveringPoolWhoseMoveWasNeverAppliedIsNotShrunkWhenItsCapacityComesBack() {
        PoolSpec spot = new PoolSpec("spot", 8, null, 1.0, null);
        List<PoolSpec> pools = List.of(spot, ON_DEMAND);
        Map<String, PoolObservation> stuck = Map.of("spot", new PoolObservation("spot", 8, 2, 6, T0.minusSeconds(60)));
        Result down = Placement.place(pools, 8, stuck, Placement.Memory.EMPTY, T0, TIMING);
        assertEquals(2, replicas(down, "spot"));
        // The move was proposed, never approved: spot's Deployment still asks 8, and now all 8 are placed.
        Result r = Placement.place(pools, 8, Map.of("spot", placedAt("spot", 8, T0.plusSeconds(20))), down.memory(),
                T0.plusSeconds(30), TIMING);
        assertTrue(r.share("spot").has(Code.RECOVERING), r.share("spot").words());
        assertEquals(8, r.share("spot").specReplicas(), "its 8 pods stay: " + r.share("spot").words());
        assertEquals(7, replicas(r, "spot"), "one of them its probe");
        Result later = Placement.place(pools, 8, Map.of("spot", placedAt("spot", 8, T0.plusSeconds(20))), r.memory(),
                T0.plusSeconds(45), TIMING);
        assertEquals(8, later.share("spot").specReplicas(), "and it holds still");
        assertEquals(1, replicas(later, "on-demand"));
    }
}
