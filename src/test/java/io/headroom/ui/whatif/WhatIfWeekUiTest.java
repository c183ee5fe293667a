package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.history.ClassHistory;
import io.headroom.history.ClassHistory.Series;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadSource;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The What-if window's week (issue 29): "week" beside the day's ranges replays the class's week of history, and the
 * "With predictive" column shows the live policy with the floors auto mode would have held, fewer seconds over the
 * objective at the weekday mornings, with a sentence on what the floors did.
 */
class WhatIfWeekUiTest extends WhatIfWindowFixture {
    /** Monday 2026-11-30 00:00 UTC. */
    static final double MONDAY = io.headroom.testing.OfficeWeek.MONDAY;

    /** Eight days at a point a minute (the console's week tier): 1 job/s, 60 jobs/s 09:00–17:00 on weekdays. */
    static ClassHistory weekTier() {
        return io.headroom.testing.OfficeWeek.history(MONDAY, 8 * 1440, 60);
    }

    @Test
    void theWeekRangeReplaysTheWeekWithAPredictiveColumn() throws Exception {
        FxToolkit.registerPrimaryStage();
        Policy live = Policy.builder().slotsPerReplica(4).minReplicas(1).maxReplicas(100).maxAgeSeconds(20.0)
                .pollIntervalSeconds(30).build();
        ClassHistory week = weekTier();
        // The day's history: the last day of the same load (what the console keeps at its tick).
        ClassHistory day = new ClassHistory("orders", 1442);
        week.scan(Series.ARRIVAL_RATE, week.lastTime() - 86_400, week.lastTime() + 1, (t, v) -> {
            double[] row = new double[ClassHistory.SERIES];
            Arrays.fill(row, Double.NaN);
            row[Series.ARRIVAL_RATE.ordinal()] = v;
            row[Series.MEAN_SERVICE.ordinal()] = 2;
            row[Series.QUEUE_LENGTH.ordinal()] = 0;
            row[Series.REPLICAS.ordinal()] = 2;
            day.append(t, row);
        });
        WhatIfViewModel vm = new WhatIfViewModel("orders", live, LoadSource.of(() -> day), background,
                Platform::runLater, ComparisonTable.SEED);
        vm.setWeek(LoadSource.of(() -> week));
        vm.setZone(java.time.ZoneOffset.UTC);
        open(vm);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> vm.comparisonProperty().get() != null));

        TableView<?> table = onFx(() -> robot.lookup("#" + WhatIfView.TABLE_ID).queryAs(TableView.class));
        TableColumn<?, ?> column = onFx(() -> table.getColumns().stream()
                .filter(c -> WhatIfView.PREDICTIVE_COLUMN_ID.equals(c.getId())).findFirst().orElseThrow());
        assertEquals("With predictive", onFx(column::getText));
        assertTrue(onFx(column::isVisible));

        // The week is offered beside the day's ranges, and chosen on screen.
        ChoiceBox<?> range = onFx(() -> robot.lookup("#" + WhatIfView.WINDOW_ID).queryAs(ChoiceBox.class));
        assertTrue(onFx(() -> range.getItems().contains(1440) && range.getItems().contains(WhatIfViewModel.WEEK_MINUTES)));
        robot.clickOn(range);
        robot.clickOn("week");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.windowMinutesProperty().get()
                == WhatIfViewModel.WEEK_MINUTES));
        assertEquals("pinned at Tue 00:00–Tue 00:00", onFx(() -> robot.lookup("#" + WhatIfView.PINNED_ID)
                .queryAs(Label.class).getText()), "the week up to the newest point");
        WaitForAsyncUtils.waitFor(300, TimeUnit.SECONDS, () -> onFx(() -> !vm.runningProperty().get()
                && vm.comparisonProperty().get() != null && vm.comparisonProperty().get().seconds() > 6 * 86_400));

        String status = onFx(() -> vm.statusProperty().get());
        assertTrue(status.startsWith("Replayed week of orders's load") && status.contains("predictive floors"), status);
        WhatIfViewModel.Row over = onFx(() -> vm.rows().stream().filter(r -> r.what().equals("Time over objective"))
                .findFirst().orElseThrow());
        double liveSeconds = Double.parseDouble(over.current().substring(0, over.current().indexOf(' ')));
        double predictiveSeconds = Double.parseDouble(over.predictive().substring(0, over.predictive().indexOf(' ')));
        assertTrue(predictiveSeconds < liveSeconds, "the floors ahead of the mornings: " + over);
        assertTrue(onFx(() -> vm.rows().stream().allMatch(r -> !r.predictive().isEmpty())), "a figure in every row");
        // The column shows the row's figure on screen.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup(".table-cell").queryAll().stream()
                .anyMatch(n -> n instanceof javafx.scene.control.TableCell<?, ?> c && c.getTableColumn() == column
                        && over.predictive().equals(c.getText()))));
        Label said = onFx(() -> robot.lookup("#" + WhatIfView.PREDICTIVE_ID).queryAs(Label.class));
        assertTrue(onFx(said::isVisible));
        assertTrue(onFx(said::getText).startsWith("With predictive: ") && onFx(said::getText)
                .contains("forecast floors held"), onFx(said::getText));
    }
}
