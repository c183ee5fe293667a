package io.headroom.ui.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.whatif.ComparisonTable.Verdict;
import io.headroom.whatif.LoadSource;
import io.headroom.whatif.PolicyEdit;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The what-if view model without a window: edits checked as typed, a replay per edit, results an
 * edit overtook dropped, verdicts per row, a pinned window, a day's replay that can be cancelled.
 */
class WhatIfViewModelTest {
    static final double T0 = 1_796_000_000; // a Sunday, 00:53:20 UTC
    final Policy live = Policy.builder().slotsPerReplica(2).minReplicas(2).maxReplicas(10).maxAgeSeconds(30.0)
            .pollIntervalSeconds(5).build();
    final List<Runnable> fxQueue = new ArrayList<>();
    final List<Runnable> background = new ArrayList<>();
    final ClassHistory history = new ClassHistory("orders", ClassHistory.capacityFor(Duration.ofSeconds(5)));

    /** {@code seconds} more of steady load at a 5 s tick: 3 jobs/s of 1 s, 3 replicas. */
    void steady(double seconds, double rate) {
        double from = history.size() == 0 ? T0 : history.lastTime() + 5;
        for (double t = from; t <= from + seconds; t += 5) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = rate;
            row[Series.MEAN_SERVICE.ordinal()] = 1;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 3;
            history.append(t, row);
        }
    }

    WhatIfViewModel vm(Policy p) {
        WhatIfViewModel vm = new WhatIfViewModel("orders", p, LoadSource.of(() -> history), background::add,
                fxQueue::add, 1);
        vm.setZone(ZoneOffset.UTC);
        vm.setPolicyText(io.headroom.config.PolicyWriter::toYaml); // the session's port, as MainView wires it
        return vm;
    }

    WhatIfViewModel vm() {
        steady(3600, 3);
        return vm(live);
    }

    void runAll() {
        while (!background.isEmpty() || !fxQueue.isEmpty()) {
            new ArrayList<>(background).forEach(Runnable::run);
            background.clear();
            new ArrayList<>(fxQueue).forEach(Runnable::run);
            fxQueue.clear();
        }
    }

    WhatIfViewModel.Row row(WhatIfViewModel vm, String what) {
        return vm.rows().stream().filter(r -> r.what().equals(what)).findFirst().orElseThrow();
    }

    @Test
    void aValueOutOfRangeIsRefusedBesideItsFieldNotClamped() {
        WhatIfViewModel vm = vm();
        WhatIfViewModel.Input util = vm.input(PolicyEdit.Field.TARGET_UTILIZATION);
        assertEquals("of slots, 0–1", util.unit());
        assertEquals("", util.errorProperty().get());
        assertTrue(vm.validProperty().get());

        vm.targetUtilizationProperty().set("1.5");
        assertEquals("1.5 is more than 1: the target is a share of the slots (1 = every slot busy)",
                util.errorProperty().get());
        assertFalse(vm.validProperty().get(), "Apply, Save and Copy wait");
        assertEquals("1.5", vm.targetUtilizationProperty().get(), "kept as typed, not made 1");
        vm.replay();
        assertTrue(vm.statusProperty().get().startsWith("Not replayed: Target utilization: 1.5 is more than 1"),
                vm.statusProperty().get());
        assertTrue(background.isEmpty(), "nothing replayed");
        assertNull(vm.editedYaml(), "nothing copied");
        assertTrue(vm.applyToConsole("why").join().message().contains("more than 1"));

        vm.targetUtilizationProperty().set("0.8");
        assertTrue(vm.validProperty().get());
        assertEquals("", util.errorProperty().get());

        vm.input(PolicyEdit.Field.DRAIN_TARGET_SECONDS).textProperty().set("-5");
        assertEquals("-5 must be more than 0", vm.input(PolicyEdit.Field.DRAIN_TARGET_SECONDS).errorProperty().get());
        vm.input(PolicyEdit.Field.DRAIN_TARGET_SECONDS).textProperty().set("60");
        vm.maxAgeSecondsProperty().set("soon");
        assertEquals("soon is not a number: a number of seconds (blank for none)",
                vm.input(PolicyEdit.Field.MAX_AGE_SECONDS).errorProperty().get());
        vm.maxAgeSecondsProperty().set("");
        assertTrue(vm.validProperty().get(), "blank: no age objective");
        vm.minReplicasProperty().set("-1");
        assertEquals("-1 cannot be negative", vm.input(PolicyEdit.Field.MIN_REPLICAS).errorProperty().get());
        vm.minReplicasProperty().set("1.5");
        assertTrue(vm.input(PolicyEdit.Field.MIN_REPLICAS).errorProperty().get().startsWith("1.5 is not a whole number"));
        vm.minReplicasProperty().set("");
        assertTrue(vm.input(PolicyEdit.Field.MIN_REPLICAS).errorProperty().get().startsWith("A value is needed"));

        // min above max: said on both fields, with the other's value
        vm.minReplicasProperty().set("8");
        vm.maxReplicasProperty().set("4");
        assertEquals("8 is above max replicas (4)", vm.input(PolicyEdit.Field.MIN_REPLICAS).errorProperty().get());
        assertEquals("4 is below min replicas (8)", vm.input(PolicyEdit.Field.MAX_REPLICAS).errorProperty().get());
        assertFalse(vm.validProperty().get());
        vm.maxReplicasProperty().set("9");
        assertTrue(vm.validProperty().get());
        assertEquals("", vm.input(PolicyEdit.Field.MIN_REPLICAS).errorProperty().get());

        vm.kedaListLengthProperty().set("x");
        assertFalse(vm.validProperty().get());
        vm.kedaListLengthProperty().set("0");
        assertTrue(vm.validProperty().get(), "0: no KEDA run");

        vm.reset();
        assertEquals("0.7", vm.targetUtilizationProperty().get(), "back to the live value");
        assertEquals(List.of(), vm.pendingChanges(), "the prefilled fields are exactly the live policy");
    }

    @Test
    void aBudgetCeilingIsEditedAsItsBudgetInItsUnits() {
        steady(3600, 3);
        Policy withCeiling = live.toBuilder().ceilings(List.of(CeilingSpec.budget("db-connections", 40, 4)))
                .build();
        WhatIfViewModel vm = vm(withCeiling);
        WhatIfViewModel.CeilingEdit db = vm.ceilings().get(0);
        assertEquals("connections (4 per replica)", db.input().unit());
        assertEquals("40", db.capProperty().get(), "prefilled with the live budget");
        assertEquals("floor(40 connections / 4 per replica) = 10 replicas", db.expression());
        assertEquals(List.of(), vm.pendingChanges());
        db.capProperty().set("x2");
        assertEquals("x2 is not a number: a number of a budget", db.input().errorProperty().get());
        assertFalse(vm.validProperty().get());
        db.capProperty().set("8"); // 8 connections at 4 a replica: 2 replicas
        assertTrue(vm.validProperty().get());
        assertEquals(CeilingSpec.budget("db-connections", 8, 4), vm.edited().ceilings().get(0),
                "still a budget, not flattened to replicas");
        vm.replay();
        runAll();
        assertEquals("3", row(vm, "Desired replicas, end").current(), "the live ceiling (10) does not bind");
        assertEquals("2", row(vm, "Desired replicas, end").edited(), "bound by the edited budget");
        vm.reset();
        assertEquals("40", db.capProperty().get());
    }

    @Test
    void eachRowSaysBetterOrWorseInWordsAndAsAVerdict() {
        WhatIfViewModel vm = vm();
        vm.replay();
        runAll();
        assertTrue(vm.rows().stream().allMatch(r -> r.verdict() == Verdict.SAME && r.change().equals("same")),
                "unedited: the same " + vm.rows());

        vm.minReplicasProperty().set("1");
        vm.maxReplicasProperty().set("1"); // 2 slots for 3 jobs/s of 1 s: fewer replicas than the load needs
        vm.replay();
        runAll();
        WhatIfViewModel.Row hours = row(vm, "Replica-hours");
        assertEquals(Verdict.BETTER, hours.verdict(), hours.toString());
        assertTrue(hours.change().startsWith("−") && hours.change().endsWith("▼ better"), hours.change());
        WhatIfViewModel.Row age = row(vm, "Oldest age, max");
        assertEquals(Verdict.WORSE, age.verdict(), age.toString());
        assertTrue(age.change().startsWith("+") && age.change().endsWith("▲ worse"), age.change());
        WhatIfViewModel.Row over = row(vm, "Time over objective");
        assertEquals(Verdict.WORSE, over.verdict(), over.toString());
        WhatIfViewModel.Row desired = row(vm, "Desired replicas, end");
        assertEquals(Verdict.NOT_JUDGED, desired.verdict(), "fewer replicas is neither better nor worse alone");
        assertTrue(desired.change().endsWith("▼"), desired.change());
    }

    @Test
    void theReplayedAgeChartGetsTheObjectivesOfBothPolicies() {
        WhatIfViewModel vm = vm();
        vm.replay();
        runAll();
        assertEquals(List.of(new WhatIfViewModel.ObjectiveLine(30, "objective 30 s")), vm.objectives());
        vm.maxAgeSecondsProperty().set("45");
        vm.replay();
        runAll();
        assertEquals(List.of(new WhatIfViewModel.ObjectiveLine(30, "objective 30 s"),
                new WhatIfViewModel.ObjectiveLine(45, "edited objective 45 s")), vm.objectives());
    }

    @Test
    void theComparedWindowStaysPinnedUntilMovedToNow() {
        WhatIfViewModel vm = vm();
        double end = history.lastTime();
        vm.replay();
        runAll();
        assertEquals(end, vm.pinnedEndProperty().get());
        assertEquals("pinned at 01:23–01:53", vm.pinnedProperty().get());
        double start = vm.comparisonProperty().get().start();
        assertEquals(end - 1800, start, 5);

        steady(600, 10); // ten more minutes arrive while the operator compares
        vm.maxReplicasProperty().set("9");
        vm.replay();
        runAll();
        assertEquals(start, vm.comparisonProperty().get().start(), "the window did not slide");
        assertEquals("pinned at 01:23–01:53", vm.pinnedProperty().get());

        vm.windowMinutesProperty().set(60);
        assertEquals("pinned at 00:53–01:53", vm.pinnedProperty().get(), "a longer window keeps its end");

        vm.moveToNow();
        runAll();
        assertEquals(history.lastTime(), vm.pinnedEndProperty().get());
        assertEquals("pinned at 01:03–02:03", vm.pinnedProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Replayed 60 min"), vm.statusProperty().get());
        // The day's ranges and, since issue 29, the week beside them.
        assertEquals(List.of(15, 30, 60, 180, 360, 720, 1440, 10_080), WhatIfViewModel.WINDOW_CHOICES);
    }

    @Test
    void aReplaysRunsGoSideBySideOnTheExecutorGivenAndCompareTheSame() throws Exception {
        steady(6 * 3600, 3); // six hours: the fluid replay, at a 30 s tick
        Policy p = live.toBuilder().pollIntervalSeconds(30).build();
        WhatIfViewModel alone = vm(p);
        alone.windowMinutesProperty().set(360);
        alone.maxReplicasProperty().set("4");
        alone.replay();
        runAll();
        WhatIfViewModel together = vm(p);
        List<Runnable> offered = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            together.setReplayRuns(r -> {
                offered.add(r);
                pool.execute(r);
            });
            together.windowMinutesProperty().set(360);
            together.maxReplicasProperty().set("4");
            together.replay();
            runAll();
        } finally {
            pool.shutdownNow();
        }
        assertEquals(7, alone.rows().size(), alone.statusProperty().get());
        assertEquals(alone.rows(), together.rows());
        assertFalse(offered.isEmpty(), "the runs after the live one were offered to the executor");
    }

    @Test
    void aDaysReplayRunsInTheBackgroundReportsProgressAndCanBeCancelled() {
        steady(24 * 3600, 3); // a day of history; a 30 s tick keeps the test's three runs short
        WhatIfViewModel vm = vm(live.toBuilder().pollIntervalSeconds(30).build());
        vm.windowMinutesProperty().set(1440);
        vm.moveToNow();
        assertTrue(vm.runningProperty().get());
        assertEquals(0, vm.progressProperty().get());
        assertEquals(1, background.size(), "queued on the background executor, not run on the FX thread");
        assertTrue(vm.statusProperty().get().startsWith("Replaying 24 h, pinned at Mon 00:53–Tue 00:53"),
                vm.statusProperty().get());
        vm.cancel();
        assertFalse(vm.runningProperty().get());
        assertEquals(-1, vm.progressProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Replay cancelled"));
        runAll(); // the cancelled replay stops at its first check and shows nothing
        assertTrue(vm.rows().isEmpty());
        assertTrue(vm.statusProperty().get().startsWith("Replay cancelled"), vm.statusProperty().get());

        List<Double> seen = new ArrayList<>();
        vm.progressProperty().addListener((o, a, b) -> seen.add(b.doubleValue()));
        vm.replay();
        runAll();
        assertEquals(7, vm.rows().size(), vm.statusProperty().get());
        assertTrue(seen.stream().filter(p -> p > 0 && p < 1).count() >= 10, "progress along the way: " + seen);
        assertTrue(vm.statusProperty().get().startsWith("Replayed 24 h"), vm.statusProperty().get());
        assertEquals(86_400, vm.comparisonProperty().get().seconds(), 5);
    }

    @Test
    void aReplayOvertakenByAnEditIsDropped() {
        WhatIfViewModel vm = vm();
        vm.replay();
        vm.maxReplicasProperty().set("2");
        vm.replay(); // the second replay's result is the one shown
        java.util.Collections.reverse(background); // the first replay finishes last
        runAll();
        assertEquals(7, vm.rows().size());
        assertEquals("2", vm.rows().get(0).edited(), "capped at 2: " + vm.rows());
        assertTrue(vm.rows().stream().allMatch(row -> !row.keda().isEmpty()), "KEDA's rule is the third column");
        assertTrue(vm.statusProperty().get().contains("KEDA's rule (listLength 5)"), vm.statusProperty().get());
        assertEquals(2, vm.comparisonProperty().get().edited().finalDesired(), "the charts get the run that was shown");
        assertEquals(3, vm.comparisonProperty().get().current().finalDesired());
        assertEquals(live, vm.current(), "the live policy object is untouched");
        vm.reset();
        assertEquals("10", vm.maxReplicasProperty().get());
        assertEquals("30", vm.maxAgeSecondsProperty().get());
    }

    @Test
    void theEditedPolicyIsCopiedAsABlockTheWorkloadsFileReadsBack() throws Exception {
        WhatIfViewModel vm = vm();
        vm.maxReplicasProperty().set("6");
        vm.targetUtilizationProperty().set("0.5");
        String yaml = vm.editedYaml();
        io.headroom.config.ConfigNode root = io.headroom.config.ConfigTree.parse("w.yaml", yaml,
                io.headroom.config.ConfigTree.Format.YAML);
        Policy back = io.headroom.config.PolicyReader.read(((io.headroom.config.ConfigNode.MapNode) root).fields()
                .get("policy"));
        assertEquals(vm.edited(), back);
        assertEquals(6, back.maxReplicas());
        assertTrue(vm.statusProperty().get().startsWith("Copied the edited policy"));
        vm.maxAgeSecondsProperty().set("x");
        assertEquals(null, vm.editedYaml());
        assertTrue(vm.statusProperty().get().startsWith("Not copied: Age objective"), vm.statusProperty().get());
    }

    /** A point a minute from {@code from} to {@code to} (inclusive): {@code rate} jobs/s of 2 s, 2 replicas. */
    static void minutes(ClassHistory h, double from, double to, double rate) {
        for (double t = from; t <= to; t += 60) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            double inDay = t % 86_400;
            row[Series.ARRIVAL_RATE.ordinal()] = inDay >= 9 * 3600 && inDay < 17 * 3600 ? rate * 20 : rate;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 2;
            h.append(t, row);
        }
    }

    /** The week's what-if of a class, its week and day at a point a minute (the week tier), computed ahead. */
    final class AheadFixture {
        final Policy p = live.toBuilder().pollIntervalSeconds(60).maxReplicas(100).build();
        final ClassHistory week = new ClassHistory("orders", 9 * 1440);
        final ClassHistory day = new ClassHistory("orders", 2 * 1440);
        final io.headroom.time.SwitchableClock clock = new io.headroom.time.SwitchableClock(
                java.time.Clock.fixed(java.time.Instant.ofEpochSecond((long) T0 + 8 * 86_400), ZoneOffset.UTC));
        final io.headroom.whatif.WeekAhead ahead = new io.headroom.whatif.WeekAhead(clock);
        final io.headroom.whatif.WeekAhead.Entry entry;

        AheadFixture() throws Exception {
            double end = T0 + 8 * 86_400;
            minutes(week, T0, end, 1);
            minutes(day, end - 86_400, end, 1);
            entry = ahead.compute("orders", p, LoadSource.of(() -> day), LoadSource.of(() -> week), Runnable::run)
                    .get().orElseThrow();
            // Three minutes later the operator opens the window: two more minutes of history, ten times the load.
            clock.switchTo(java.time.Clock.offset(clock.delegate(), Duration.ofMinutes(3)));
            minutes(week, end + 60, end + 120, 10);
            minutes(day, end + 60, end + 120, 10);
        }

        WhatIfViewModel vm() {
            WhatIfViewModel vm = new WhatIfViewModel("orders", p, LoadSource.of(() -> day), background::add,
                    fxQueue::add, io.headroom.whatif.ComparisonTable.SEED);
            vm.setZone(ZoneOffset.UTC);
            vm.setWeek(LoadSource.of(() -> week));
            vm.setWeekAhead(ahead);
            vm.windowMinutesProperty().set(WhatIfViewModel.WEEK_MINUTES);
            return vm;
        }
    }

    @Test
    void theWeekComputedAheadIsShownAtOnceAndTheExactReplayReplacesIt() throws Exception {
        AheadFixture f = new AheadFixture();
        WhatIfViewModel vm = f.vm();
        vm.replay();
        // Before the exact replay has run (it waits on the background executor the test holds).
        assertEquals(1, background.size(), "the exact replay is queued, not skipped");
        assertTrue(vm.runningProperty().get());
        assertEquals(7, vm.rows().size(), vm.statusProperty().get());
        assertEquals(WhatIfViewModel.rows(f.entry.comparison(), f.p, f.p), vm.rows());
        assertSame(f.entry.comparison(), vm.comparisonProperty().get(), "the charts get it too");
        assertTrue(vm.predictiveProperty().get().startsWith("With predictive: "), vm.predictiveProperty().get());
        assertEquals(List.of(new WhatIfViewModel.ObjectiveLine(30, "objective 30 s")), vm.objectives());
        assertEquals("Week of orders to 00:53 (computed 3 min ago in the background); replaying to 00:55…",
                vm.statusProperty().get());

        runAll(); // the exact replay to the pinned end, two minutes later, with the busier minutes
        assertFalse(vm.runningProperty().get());
        assertNotSame(f.entry.comparison(), vm.comparisonProperty().get());
        assertEquals(f.day.lastTime(), vm.comparisonProperty().get().start() + vm.comparisonProperty().get().seconds(),
                1);
        List<WhatIfViewModel.Row> exact = WhatIfViewModel.rows(vm.comparisonProperty().get(), f.p, f.p);
        assertEquals(exact, vm.rows());
        assertNotEquals(WhatIfViewModel.rows(f.entry.comparison(), f.p, f.p), vm.rows(),
                "the exact replay's own figures, not the ones computed ahead");
        assertTrue(vm.statusProperty().get().startsWith("Replayed week of orders's load under both policies"),
                vm.statusProperty().get());

        // Replayed again (the Replay button): the exact figures on screen stay; the older ones are not brought back.
        vm.replay();
        assertEquals(exact, vm.rows());
        assertTrue(vm.statusProperty().get().startsWith("Replaying week"), vm.statusProperty().get());
        runAll();
        assertEquals(exact, vm.rows());
    }

    @Test
    void anEditedPolicyOrAnotherListLengthNeverShowsTheWeekComputedAhead() throws Exception {
        AheadFixture f = new AheadFixture();
        WhatIfViewModel vm = f.vm();
        vm.maxReplicasProperty().set("50");
        vm.replay();
        assertTrue(vm.rows().isEmpty(), "edited: nothing before the exact replay " + vm.rows());
        assertNull(vm.comparisonProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Replaying week"), vm.statusProperty().get());

        vm.reset();
        vm.kedaListLengthProperty().set("10");
        vm.replay();
        assertTrue(vm.rows().isEmpty(), "another listLength: nothing before the exact replay");
        vm.kedaListLengthProperty().set("");
        vm.replay();
        assertTrue(vm.rows().isEmpty(), "no KEDA run: nothing before the exact replay");

        vm.kedaListLengthProperty().set("5");
        vm.replay();
        assertEquals(WhatIfViewModel.rows(f.entry.comparison(), f.p, f.p), vm.rows(), "unedited again: shown");
        // An edit while it shows: the figures computed ahead (the live policy's) go at once, not left under the
        // edited replay's "Replaying…".
        vm.maxReplicasProperty().set("50");
        vm.replay();
        assertTrue(vm.rows().isEmpty(), vm.rows().toString());
        assertNull(vm.comparisonProperty().get());
        assertTrue(vm.statusProperty().get().startsWith("Replaying week"), vm.statusProperty().get());
        runAll(); // only the last replay shows
        assertEquals(WhatIfViewModel.rows(vm.comparisonProperty().get(), f.p, vm.edited()), vm.rows());
        assertEquals(50, vm.edited().maxReplicas());
        assertTrue(vm.statusProperty().get().startsWith("Replayed week of orders"), vm.statusProperty().get());

        // Stale on the clock: not shown.
        vm.reset();
        f.clock.switchTo(java.time.Clock.offset(f.clock.delegate(), Duration.ofMinutes(13)));
        vm.replay();
        assertTrue(vm.statusProperty().get().startsWith("Replaying week"), vm.statusProperty().get());
        assertNotEquals(WhatIfViewModel.rows(f.entry.comparison(), f.p, f.p), vm.rows(), "16 min old: not shown");
        runAll();
        assertEquals(WhatIfViewModel.rows(vm.comparisonProperty().get(), f.p, f.p), vm.rows());
        assertNotSame(f.entry.comparison(), vm.comparisonProperty().get());
    }
}
