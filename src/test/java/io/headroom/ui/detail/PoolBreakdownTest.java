package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.loop.TickResult;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The detail's per-pool rows and "waiting for a pool", from a placement made by {@link Placement#place}. */
class PoolBreakdownTest {

    @Test
    void anUnavailableFirstPoolKeepsWhatItRunsSaysWhyAndItsShareMovesOn() {
        Placement.Result r = PlacedSnapshots.spotGonePlacement(14);
        List<PoolBreakdown.PoolRow> rows = PoolBreakdown.rows(PlacedSnapshots.placed("render", 14, r),
                PlacedSnapshots.facts());
        assertEquals(List.of("spot", "on-demand"), rows.stream().map(PoolBreakdown.PoolRow::pool).toList());
        PoolBreakdown.PoolRow spot = rows.get(0);
        PoolBreakdown.PoolRow onDemand = rows.get(1);
        assertFalse(spot.available());
        assertEquals(5, spot.replicas(), "spot keeps the 5 pods it runs");
        assertEquals("5 repl. +1 probe", spot.share());
        assertEquals("8 / 5", spot.specReady());
        assertTrue(spot.state().startsWith("unavailable: 3 pods unschedulable for 75 s"), spot.state());
        assertTrue(spot.why().contains("keeps the 5 pods it runs"), spot.why());
        assertEquals("max 20", spot.bound());
        assertEquals("×1", spot.cost());

        assertTrue(onDemand.available());
        assertEquals(9, onDemand.replicas(), "the rest of the 14 moved to on-demand, under its ceiling of 12");
        assertEquals("available", onDemand.state());
        assertTrue(onDemand.why().contains("takes the 9 the pools before it could not"), onDemand.why());
        assertEquals("ceiling 12 (max 20)", onDemand.bound());
        assertEquals("×3", onDemand.cost());
    }

    @Test
    void waitingForAPoolCountsWhatFitsNoPoolAndThePodsPendingInAnUnavailableOne() {
        // 20 wanted: spot keeps 5, on-demand its ceiling of 12, 3 fit no pool; spot has 3 pods pending.
        Placement.Result r = PlacedSnapshots.spotGonePlacement(20);
        assertEquals(3, r.unplaced());
        PoolBreakdown.Waiting w = PoolBreakdown.waiting(PlacedSnapshots.placed("render", 20, r), PlacedSnapshots.facts());
        assertEquals(3, w.unplaced());
        assertEquals(3, w.pending());
        assertEquals("6 replicas waiting for a pool: 3 replicas fit no available pool; 3 pods pending in spot"
                + " with no node for them (unavailable)", w.words());

        Placement.Result fine = Placement.place(PlacedSnapshots.POOLS, 6, Map.of(), Placement.Memory.EMPTY,
                PlacedSnapshots.T0, PlacedSnapshots.TIMING);
        assertEquals(PoolBreakdown.Waiting.NONE, PoolBreakdown.waiting(PlacedSnapshots.placed("render", 6, fine),
                PlacedSnapshots.facts()), "nothing waits while every pool is available and the replicas fit");
    }

    @Test
    void withoutEachPoolsObservationThePodsTheSchedulerCannotPlaceStillWait() {
        // The live loop's snapshot: the pools' pods together, three of them Unschedulable, one terminating.
        Placement.Result r = PlacedSnapshots.spotGonePlacement(14);
        java.time.Instant t = PlacedSnapshots.T0.minusSeconds(75);
        List<io.headroom.cluster.PodState> pods = new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            pods.add(new io.headroom.cluster.PodState("spot-" + i, "Running", true, t, null, "node-" + i, null, null,
                    null, null, null, null, t));
        }
        for (int i = 5; i < 8; i++) {
            pods.add(new io.headroom.cluster.PodState("spot-" + i, "Pending", false, t, null, null, null, null,
                    null, null, null, t, null));
        }
        pods.add(new io.headroom.cluster.PodState("spot-9", "Pending", false, t, PlacedSnapshots.T0, null, null, null,
                null, null, null, t, null));
        io.headroom.loop.ClassSnapshot base = PlacedSnapshots.placed("render", 14, r);
        io.headroom.loop.ClassSnapshot s = new io.headroom.loop.ClassSnapshot(base.cls(), base.at(), base.observation(),
                new io.headroom.cluster.WorkloadState(base.cls().target(), 9, 5, "1", pods, base.at(), 1),
                base.decision(), null, null, base.signals(), null, r);
        PoolBreakdown.Waiting w = PoolBreakdown.waiting(s, PoolBreakdown.Facts.NONE);
        assertEquals(0, w.unplaced());
        assertEquals(3, w.pending(), "the terminating pod is not waiting");
        assertEquals("3 replicas waiting for a pool: 3 pods pending with no node for them (Unschedulable)", w.words());
        Placement.Result fine = Placement.place(PlacedSnapshots.POOLS, 6, Map.of(), Placement.Memory.EMPTY,
                PlacedSnapshots.T0, PlacedSnapshots.TIMING);
        assertEquals(PoolBreakdown.Waiting.NONE, PoolBreakdown.waiting(new io.headroom.loop.ClassSnapshot(base.cls(),
                base.at(), base.observation(), s.workload(), base.decision(), null, null, base.signals(), null, fine),
                PoolBreakdown.Facts.NONE), "pods pending while every pool is available wait their deadline, not a pool");
    }

    @Test
    void aClassWithOnePoolHasNoRowsAndTheViewModelFollowsTheSelectedClass() {
        DetailViewModel vm = new DetailViewModel(Clock.fixed(PlacedSnapshots.T0, ZoneOffset.UTC), Runnable::run);
        vm.setPoolFacts(name -> name.equals("render") ? PlacedSnapshots.facts() : PoolBreakdown.Facts.NONE);
        vm.apply(List.of(new TickResult(PlacedSnapshots.T0, List.of(
                PlacedSnapshots.placed("render", 20, PlacedSnapshots.spotGonePlacement(20)),
                DetailWorkStripTest.snapshot("plain", 3, 3, 0)), "dev", "test")));
        vm.select("render");
        assertEquals(2, vm.pools().size());
        assertEquals(6, vm.poolWaitingProperty().get().total());
        vm.select("plain");
        assertEquals(List.of(), vm.pools(), "one pool: no breakdown");
        assertEquals(PoolBreakdown.Waiting.NONE, vm.poolWaitingProperty().get());
    }

    @Test
    void theDecisionsInstantsReadAsTheTimeOfDay() {
        String w = PoolBreakdown.times("unavailable since 2026-12-01T10:00:00Z: 3 pods unschedulable for 75 s");
        assertFalse(w.contains("2026-12-01T"), w);
        assertTrue(w.matches("unavailable since \\d{2}:\\d{2}:\\d{2}: 3 pods unschedulable for 75 s"), w);
    }

    @Test
    void aPoolWithABrokerQuerySaysItsFigureBesideItsState() {
        java.util.function.BiFunction<io.headroom.decision.Signal, Placement.Memory, List<PoolBreakdown.PoolRow>> rowsAfter
                = (figure, before) -> {
            Map<String, Placement.PoolObservation> seen = Map.of(
                    "spot", new Placement.PoolObservation("spot", 6, 6, 0, null).withFailedAcquisitions(figure),
                    "on-demand", new Placement.PoolObservation("on-demand", 0, 0, 0, null));
            Placement.Result r = Placement.place(PlacedSnapshots.POOLS, 6, seen, before, PlacedSnapshots.T0,
                    PlacedSnapshots.TIMING);
            return PoolBreakdown.rows(PlacedSnapshots.placed("render", 6, r),
                    new PoolBreakdown.Facts(PlacedSnapshots.POOLS, seen));
        };
        java.util.function.Function<io.headroom.decision.Signal, List<PoolBreakdown.PoolRow>> rowsWith =
                figure -> rowsAfter.apply(figure, Placement.Memory.EMPTY);
        assertEquals("available · broker: 0 failed acquisitions/s",
                rowsWith.apply(io.headroom.decision.Signal.of(0, PlacedSnapshots.T0)).get(0).state());
        assertEquals("available · broker: 3.2 failed acquisitions/s, first seen this tick",
                rowsWith.apply(io.headroom.decision.Signal.of(3.2, PlacedSnapshots.T0)).get(0).state(),
                "failing, not yet for the deadline: the operator sees it coming");
        Placement.Memory failing = new Placement.Memory(Map.of(), Map.of("spot", PlacedSnapshots.T0.minusSeconds(20)));
        assertEquals("available · broker: 3.2 failed acquisitions/s for 20 s",
                rowsAfter.apply(io.headroom.decision.Signal.of(3.2, PlacedSnapshots.T0), failing).get(0).state());
        PoolBreakdown.PoolRow none = rowsWith.apply(io.headroom.decision.Signal.missing("no series")).get(0);
        assertEquals("available", none.state(), "no figure: the reasons say so once, not the state");
        assertTrue(none.why().contains("no broker figure (no series)"), none.why());
        assertEquals("available", rowsWith.apply(null).get(0).state(), "no broker query: nothing to say");
        assertEquals("available", rowsWith.apply(io.headroom.decision.Signal.of(0, PlacedSnapshots.T0)).get(1).state(),
                "on-demand has no broker query");
    }
}
