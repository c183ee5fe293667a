package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.ui.Uncut;
import io.headroom.whatif.AdmissionPlacement;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 30 in the What-if window: a class that publishes admission and is placed across spot and on-demand shows
 * admission off vs on (jobs held back, time over the objective of the jobs let in) and placement vs one pool
 * (replica-hours by pool, when the share moved) beside the policy comparison; a class with neither shows none.
 */
class WhatIfAdmissionPlacementUiTest extends WhatIfWindowFixture {
    /** 30 minutes at a 5 s tick: 2 jobs/s of 1 s, a burst to 12 jobs/s from 10 to 20 minutes. */
    static ClassHistory burst() {
        ClassHistory h = new ClassHistory("render", ClassHistory.capacityFor(Duration.ofSeconds(5)));
        for (int i = 0; i <= 360; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = i >= 120 && i < 240 ? 12 : 2;
            row[Series.MEAN_SERVICE.ordinal()] = 1;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 3;
            h.append(1_796_000_000 + 5.0 * i, row);
        }
        return h;
    }

    static final Policy LIVE = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(20).maxAgeSeconds(30.0)
            .pollIntervalSeconds(5).build();

    WhatIfViewModel open(AdmissionPlacement.Ask ask) throws Exception {
        FxToolkit.registerPrimaryStage();
        ClassHistory h = burst();
        WhatIfViewModel vm = new WhatIfViewModel("render", LIVE, LoadSource.of(() -> h), background,
                Platform::runLater, ComparisonTable.SEED);
        vm.setAdmissionPlacement(ask);
        open(vm);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.rows().size() == 7));
        return vm;
    }

    WhatIfViewModel.Row row(WhatIfViewModel vm, String what) throws Exception {
        return onFx(() -> vm.admissionPlacementRows().stream().filter(r -> r.what().equals(what)).findFirst()
                .orElseThrow(() -> new AssertionError("no row '" + what + "' in " + vm.admissionPlacementRows())));
    }

    @Test
    void admissionOffAndOnAndPlacementAgainstOnePoolShowBesideThePolicyComparison() throws Exception {
        WhatIfViewModel vm = open(new AdmissionPlacement.Ask(true, List.of(
                new Placement.PoolSpec("spot", 20, null, 1, null), new Placement.PoolSpec("on-demand", 20, null, 3,
                        null)), new Placement.Timing(Duration.ofSeconds(30), Duration.ofSeconds(120))));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> vm.admissionPlacementRows().size() == 13));
        TableView<?> table = onFx(() -> robot.lookup("#" + WhatIfView.LOOPS_TABLE_ID).queryAs(TableView.class));
        assertTrue(onFx(() -> table.isVisible()));
        assertEquals(List.of("", "Without", "With", "Change"), onFx(() -> table.getColumns().stream()
                .map(c -> c.getText()).toList()));

        WhatIfViewModel.Row header = row(vm, "Admission");
        assertEquals("off", header.current());
        assertEquals("on", header.edited());
        WhatIfViewModel.Row held = row(vm, "Jobs held back by admission");
        assertEquals("0", held.current(), "admission off holds nothing back");
        row(vm, "Time over objective, admitted jobs");

        WhatIfViewModel.Row placed = row(vm, "Placement");
        assertEquals("one pool (spot)", placed.current());
        assertEquals("placed (spot, on-demand)", placed.edited());
        WhatIfViewModel.Row split = row(vm, "Replica-hours by pool");
        assertEquals("spot only", split.current());
        assertTrue(split.edited().matches("spot [0-9.]+ h, on-demand [0-9.]+ h"), split.edited());
        assertFalse(split.edited().endsWith("on-demand 0 h"), "on-demand took work while spot had no nodes");
        assertTrue(row(vm, "Share moved off spot").edited().contains("s after its nodes went"));
        assertEquals(ComparisonTable.Verdict.BETTER, row(vm, "Time over objective").verdict(),
                "placement keeps the burst nearer its objective than spot alone");

        Label said = onFx(() -> robot.lookup("#" + WhatIfView.LOOPS_STATUS_ID).queryAs(Label.class));
        assertTrue(onFx(said::getText).startsWith("Placement: spot's nodes gone from 570 s to 1170 s into the window"),
                onFx(said::getText));
        onFx(() -> {
            stage.getScene().getRoot().applyCss();
            stage.getScene().getRoot().layout();
            assertEquals(List.of(), Uncut.cut((javafx.scene.Parent) said.getParent()), "the section whole");
            return null;
        });
    }

    @Test
    void aClassWithNeitherShowsNoSection() throws Exception {
        WhatIfViewModel vm = open(AdmissionPlacement.Ask.NONE);
        assertTrue(onFx(() -> robot.lookup("#" + WhatIfView.LOOPS_TABLE_ID).tryQuery().isEmpty()));
        assertTrue(onFx(() -> vm.admissionPlacementRows().isEmpty()));
    }
}
