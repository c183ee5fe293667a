package io.headroom.ui.overview;

import static io.headroom.ui.overview.OverviewViewModelTest.row;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.history.ClassHistory;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import javafx.collections.ListChangeListener;
import org.junit.jupiter.api.Test;

/** The overview's order (severity, stable, held, sorted), STUCK, the work bar and the last 15 minutes, without a window. */
class OverviewOrderTest {

    static List<String> names(OverviewViewModel vm) {
        return vm.rows().stream().map(ClassRow::name).toList();
    }

    /** The order the brief asks for, written out: severity, then the order classes were first seen. */
    static List<String> expectedBySeverity(SandboxConsole c) {
        List<String> classes = c.session().loop().classes().stream().map(WorkloadClass::name).toList();
        return classes.stream().sorted(Comparator.comparing((String n) -> row(c, n).severityProperty().get())
                .thenComparing(classes::indexOf)).toList();
    }

    @Test
    void severityIsDataWorstFirst() {
        List<ClassRow.StateChip> none = List.of();
        assertEquals(List.of(Severity.AGE_OBJECTIVE, Severity.STALLED, Severity.STUCK, Severity.NO_DATA, Severity.HELD,
                Severity.PROPOSAL, Severity.STANDING, Severity.OK), List.of(Severity.values()), "the order of the rows");
        assertEquals(Severity.AGE_OBJECTIVE, Severity.of(List.of(ClassRow.Alert.CEILING, ClassRow.Alert.AGE_BREACH),
                true, none), "the worst alert wins");
        assertEquals(Severity.STUCK, Severity.of(List.of(ClassRow.Alert.STUCK, ClassRow.Alert.TELEMETRY_STALE), false, none));
        assertEquals(Severity.NO_DATA, Severity.of(List.of(ClassRow.Alert.PROBLEM), false, none));
        assertEquals(Severity.HELD, Severity.of(List.of(ClassRow.Alert.DEPENDENCY_SATURATED), true, none));
        assertEquals(Severity.PROPOSAL, Severity.of(List.of(), true,
                List.of(new ClassRow.StateChip(ClassRow.State.FROZEN, "FROZEN"))));
        assertEquals(Severity.STANDING, Severity.of(List.of(), false,
                List.of(new ClassRow.StateChip(ClassRow.State.ADMISSION_CLOSED, "ADMISSION CLOSED"))));
        assertEquals(Severity.OK, Severity.of(List.of(), false, List.of(new ClassRow.StateChip(ClassRow.State.AUTO, "AUTO"))),
                "auto mode is a choice, not trouble");
    }

    @Test
    void rowsAreWorstFirstAndMoveOnlyWhenAClassChangesTier() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            List<Integer> permutations = new ArrayList<>();
            List<String> unexplained = new ArrayList<>();
            c.overview.rows().addListener((ListChangeListener<ClassRow>) ch -> {
                while (ch.next()) {
                    if (ch.wasPermutated()) {
                        permutations.add(1);
                    }
                }
            });
            int tiersChanged = 0;
            for (int i = 0; i < 120; i++) { // half an hour at 15 s
                Map<String, Severity> before = tiers(c);
                List<String> order = names(c.overview);
                int moves = permutations.size();
                c.tick(1);
                assertEquals(expectedBySeverity(c), names(c.overview), "tick " + i);
                boolean changed = !before.equals(tiers(c));
                tiersChanged += changed ? 1 : 0;
                if (permutations.size() > moves && !changed) {
                    unexplained.add("tick " + i + ": " + order + " → " + names(c.overview));
                }
            }
            assertEquals(List.of(), unexplained, "rows moved while no class changed tier");
            assertTrue(tiersChanged > 0, "seed 7 changes some class's tier in half an hour (else this proves nothing)");
        }
    }

    private static Map<String, Severity> tiers(SandboxConsole c) {
        return c.overview.rows().stream().collect(Collectors.toMap(ClassRow::name, r -> r.severityProperty().get()));
    }

    @Test
    void whileThePointerHoldsTheOrderANewOrderWaitsAndComesWhenItLeaves() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(3)); // every input has data by then
            List<String> before = names(c.overview);
            String last = before.get(before.size() - 1);
            assertTrue(row(c, last).severityProperty().get().compareTo(Severity.NO_DATA) > 0, tiers(c).toString());
            assertNotEquals(Severity.NO_DATA, row(c, before.get(0)).severityProperty().get(), tiers(c).toString());

            c.overview.holdOrderProperty().set(true);
            ClassSnapshot ok = c.lastTick().classes().stream().filter(s -> s.name().equals(last)).findFirst().orElseThrow();
            ClassSnapshot failed = new ClassSnapshot(ok.cls(), ok.at(), ok.observation(), null, null, null,
                    "workload not found");
            c.overview.apply(new TickResult(ok.at(), List.of(failed), "sandbox", "sandbox"));
            assertEquals(Severity.NO_DATA, row(c, last).severityProperty().get(), "the row itself shows it at once");
            assertEquals(before, names(c.overview), "but it does not move from under the pointer");
            assertTrue(c.overview.orderWaitingProperty().get());

            c.overview.holdOrderProperty().set(false);
            assertFalse(c.overview.orderWaitingProperty().get());
            assertTrue(names(c.overview).indexOf(last) < before.indexOf(last), "it rises when the pointer leaves: "
                    + names(c.overview));
            assertEquals(names(c.overview).stream().sorted(Comparator.comparing((String n) -> row(c, n).severityProperty().get())
                    .thenComparing(before::indexOf)).toList(), names(c.overview));
        }
    }

    @Test
    void aChosenSortPersistsOverTicksAndTheSeverityOrderReturns() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            c.overview.holdOrderProperty().set(true); // the operator's own sort applies at once, even under the pointer
            c.overview.sortProperty().set(new OverviewViewModel.Sort(OverviewViewModel.Column.ARRIVALS, true));
            assertSortedBy(c.overview, r -> r.arrivalRateProperty().get(), true);
            c.overview.holdOrderProperty().set(false);
            for (int i = 0; i < 20; i++) {
                c.tick(1);
                assertSortedBy(c.overview, r -> r.arrivalRateProperty().get(), true);
            }
            c.overview.sortProperty().set(new OverviewViewModel.Sort(OverviewViewModel.Column.CLASS, false));
            assertEquals(names(c.overview).stream().sorted(String.CASE_INSENSITIVE_ORDER).toList(), names(c.overview));

            c.overview.sortBySeverity();
            assertEquals(expectedBySeverity(c), names(c.overview));
        }
    }

    static void assertSortedBy(OverviewViewModel vm, ToDoubleFunction<ClassRow> key, boolean descending) {
        double[] keys = vm.rows().stream().mapToDouble(key).toArray();
        for (int i = 1; i < keys.length; i++) {
            boolean ok = Double.isNaN(keys[i]) || (descending ? keys[i - 1] >= keys[i] : keys[i - 1] <= keys[i]);
            assertTrue(ok, Arrays.toString(keys) + " " + names(vm));
        }
    }

    @Test
    void aFlappingAlertIsCountedEvenWhenItClearedBeforeTheLastLook() {
        ClassHistory h = new ClassHistory("flappy", 1000);
        double t0 = 1_000_000;
        // 30 minutes at 15 s: over a 60 s objective long ago, then three short spikes in the last 15 minutes.
        double[] ages = new double[121];
        Arrays.fill(ages, 10);
        for (int i = 5; i < 10; i++) {
            ages[i] = 300; // 25 minutes ago: outside the window
        }
        ages[70] = 90;
        ages[80] = 240;
        ages[81] = 120;
        ages[100] = 61;
        ages[110] = Double.NaN; // not known then: neither a breach nor a recovery
        for (int i = 0; i < ages.length; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[ClassHistory.Series.OLDEST_AGE.ordinal()] = ages[i];
            h.append(t0 + 15 * i, row);
        }
        AgeTrend t = AgeTrend.of(h, 60);
        assertEquals(3, t.breaches(), t.toString());
        assertFalse(t.breachingNow());
        assertTrue(t.firedAndCleared(), "the alert fired and cleared: the row says so though it is quiet now");
        assertEquals(240, t.peakAge(), 0);
        assertEquals(4.0, t.peakRatio(), 1e-9);
        assertEquals(t0 + 15 * 80, t.peakAt(), 0);
        assertEquals(t0 + 15 * 101, t.clearedAt(), 0);
        assertEquals(AgeTrend.COLUMNS, t.ages().length);
        assertEquals(240, Arrays.stream(t.ages()).filter(v -> !Double.isNaN(v)).max().orElseThrow(), 0,
                "a slice keeps its worst point");
        assertTrue(t.summary().contains("over the objective 3 times, cleared at"), t.summary());

        ages = new double[] {10, 70, 80};
        ClassHistory now = new ClassHistory("over", 10);
        for (int i = 0; i < ages.length; i++) {
            double[] row = new double[ClassHistory.SERIES];
            row[ClassHistory.Series.OLDEST_AGE.ordinal()] = ages[i];
            now.append(t0 + 15 * i, row);
        }
        AgeTrend over = AgeTrend.of(now, 60);
        assertTrue(over.breachingNow());
        assertFalse(over.firedAndCleared());
        assertEquals(AgeTrend.NONE, AgeTrend.of(null, 60));
    }

    @Test
    void eachRowsTrendIsItsDomainHistorysLastQuarterOfAnHour() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(25));
            for (ClassRow r : c.overview.rows()) {
                ClassHistory h = c.session().history().find(r.name());
                ClassHistory.Window w = h.last(AgeTrend.SECONDS);
                double peak = Arrays.stream(w.values(ClassHistory.Series.OLDEST_AGE)).filter(v -> !Double.isNaN(v))
                        .max().orElse(Double.NaN);
                AgeTrend t = r.trendProperty().get();
                assertEquals(peak, t.peakAge(), 0, r.name());
                assertEquals(h.lastTime(), t.to(), 0, r.name());
                assertEquals(r.ageObjectiveProperty().get(), t.objective(), 0, r.name());
            }
        }
    }

    @Test
    void stuckPodsShowInTheAlertsAndTheWorkBarIsTheDetailsFiveCounts() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            assertTrue(c.runUntil(() -> !c.ticks().isEmpty() && c.lastTick().classes().stream()
                    .anyMatch(s -> s.decision() != null && !s.decision().stuckPods().isEmpty()), Duration.ofMinutes(30)),
                    "the sandbox hangs a worker (SandboxCatalog)");
            ClassSnapshot stuck = c.lastTick().classes().stream()
                    .filter(s -> s.decision() != null && !s.decision().stuckPods().isEmpty()).findFirst().orElseThrow();
            ClassRow r = row(c, stuck.name());
            assertTrue(r.alertsProperty().get().contains(ClassRow.Alert.STUCK), r.alertsProperty().get().toString());
            assertTrue(r.alertDetailProperty().get().contains(stuck.decision().stuckPods().get(0)), r.alertDetailProperty().get());
            assertTrue(r.alertDetailProperty().get().contains("capacity is lower than the replica count"));
            assertTrue(r.severityProperty().get().compareTo(Severity.STUCK) <= 0);
            for (ClassSnapshot s : c.lastTick().classes()) {
                if (s.decision() != null && s.decision().stuckPods().isEmpty()) {
                    assertFalse(row(c, s.name()).alertsProperty().get().contains(ClassRow.Alert.STUCK), s.name());
                }
            }
            for (ClassRow row : c.overview.rows()) {
                c.overview.select(row.name());
                assertEquals(c.detail.workProperty().get(), row.workProperty().get(), row.name());
            }
        }
    }
}
