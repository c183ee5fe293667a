package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.supervise.Outcome;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadSource;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableRow;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The What-if window on screen: a utilization of 1.5 typed by hand is refused beside its field (not
 * clamped to 1), Apply is disabled until it is fixed, and the comparison says better and worse in
 * colour and in words.
 */
class WhatIfValidationUiTest extends WhatIfWindowFixture {
    final List<Policy> applied = new CopyOnWriteArrayList<>();


    static ClassHistory history() {
        ClassHistory h = new ClassHistory("orders", ClassHistory.capacityFor(Duration.ofSeconds(5)));
        for (int i = 0; i <= 720; i++) {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = 3;
            row[Series.MEAN_SERVICE.ordinal()] = 1;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 3;
            h.append(1_796_000_000 + 5.0 * i, row);
        }
        return h;
    }

    @Test
    void aUtilizationAboveOneIsRefusedBesideTheFieldAndApplyWaits() throws Exception {
        FxToolkit.registerPrimaryStage();
        Policy live = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(10).maxAgeSeconds(30.0)
                .pollIntervalSeconds(5).build();
        ClassHistory h = history();
        WhatIfViewModel vm = new WhatIfViewModel("orders", live, LoadSource.of(() -> h), background,
                Platform::runLater, ComparisonTable.SEED);
        vm.setCommit((p, reason) -> {
            applied.add(p);
            return CompletableFuture.completedFuture(Outcome.ok("applied"));
        });
        open(vm);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.rows().size() == 7));

        TextField util = onFx(() -> robot.lookup("#" + WhatIfView.UTILIZATION_ID).queryAs(TextField.class));
        Button apply = onFx(() -> robot.lookup("#" + WhatIfView.APPLY_ID).queryButton());
        Label error = onFx(() -> robot.lookup("#" + WhatIfView.UTILIZATION_ID + WhatIfView.ERROR_SUFFIX)
                .queryAs(Label.class));
        assertFalse(onFx(apply::isDisabled), "valid: Apply is offered");
        assertFalse(onFx(error::isVisible));

        robot.clickOn(util).type(KeyCode.END).eraseText(8).write("1.5").type(KeyCode.TAB);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(error::isVisible));
        assertEquals("1.5 is more than 1: the target is a share of the slots (1 = every slot busy)",
                onFx(error::getText), "a plain message beside the field");
        assertEquals("1.5", onFx(util::getText), "kept as typed, not clamped to 1");
        assertTrue(onFx(apply::isDisabled), "Apply waits until the field is fixed");
        assertTrue(onFx(() -> robot.lookup("#" + WhatIfView.COPY_ID).queryButton().isDisabled()));
        assertTrue(onFx(() -> util.getStyleClass().contains("whatif-invalid")));
        robot.clickOn(apply); // disabled: nothing happens
        assertTrue(applied.isEmpty());
        assertTrue(onFx(() -> robot.lookup("#" + WhatIfView.STATUS_ID).queryLabeled().getText())
                .startsWith("Not replayed: Target utilization: 1.5 is more than 1"));

        // Fixed: the message goes, Apply comes back, and the replay's rows say better or worse.
        robot.clickOn(util).type(KeyCode.END).eraseText(8).write("0.5").type(KeyCode.TAB);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> !error.isVisible() && !apply.isDisabled()));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.rows().size() == 7
                && vm.rows().stream().anyMatch(r -> r.verdict() == ComparisonTable.Verdict.WORSE)));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup(".table-row-cell").queryAll()
                .stream().map(n -> (TableRow<?>) n).filter(r -> r.getItem() != null)
                .anyMatch(r -> r.getStyleClass().contains("whatif-worse")
                        && ((WhatIfViewModel.Row) r.getItem()).change().endsWith("worse"))));
    }

    /** Each replay redraws the charts, the window pinned or not (they used to repaint only on a resize). */
    @Test
    void everyReplayRedrawsTheChartsWithoutAResize() throws Exception {
        FxToolkit.registerPrimaryStage();
        Policy live = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(10).maxAgeSeconds(30.0)
                .pollIntervalSeconds(5).build();
        ClassHistory h = history();
        WhatIfViewModel vm = new WhatIfViewModel("orders", live, LoadSource.of(() -> h), background,
                Platform::runLater, ComparisonTable.SEED);
        open(vm);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.comparisonProperty().get() != null));
        List<io.headroom.ui.chart.TimeChart> charts = onFx(() -> robot.lookup("." + io.headroom.ui.chart.TimeChart.STYLE_CLASS)
                .queryAll().stream().filter(n -> n.getScene() == stage.getScene())
                .map(n -> (io.headroom.ui.chart.TimeChart) n).toList());
        assertEquals(2, charts.size(), "replicas and oldest age");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> charts.stream().allMatch(c -> c.getRedrawCount() > 0)));
        for (String max : List.of("2", "3")) {
            Object before = onFx(() -> vm.comparisonProperty().get());
            long[] drawn = onFx(() -> charts.stream().mapToLong(io.headroom.ui.chart.TimeChart::getRedrawCount).toArray());
            onFx(() -> {
                vm.maxReplicasProperty().set(max);
                return null;
            });
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.comparisonProperty().get() != null
                    && vm.comparisonProperty().get() != before));
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> charts.get(0).getRedrawCount() > drawn[0]
                    && charts.get(1).getRedrawCount() > drawn[1]));
        }
    }
}
