package io.headroom.ui.whatif;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.WarmUp;
import io.headroom.whatif.WeekAhead;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The week what-if computed ahead (issue 29) in the console: after the warm-up, the class in view's week is replayed
 * in the background with its live policy; its What-if window then shows the week's figures the moment the week is
 * chosen, saying when they were computed, and the exact replay to the window's end replaces them.
 */
class WhatIfWeekAheadUiTest {
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void theClassInViewsWeekIsComputedAheadAndShownTheMomentTheWeekIsChosen() throws Exception {
        console = WeekConsoles.open();
        Session s = console.session();
        WarmUp w = onFx(() -> console.view().warmUpWhatIf(Duration.ZERO));
        assertTrue(w.done().get(120, TimeUnit.SECONDS), "the warm-up replayed its slice");
        String cls = onFx(() -> console.view().detailViewModel().classNameProperty().get());
        Policy live = s.loop().classes().stream().filter(c -> c.name().equals(cls)).findFirst().orElseThrow().policy();
        WeekAhead ahead = onFx(() -> console.view().weekAhead());
        // Once the class has been in view 10 s, its week is replayed in the background.
        WaitForAsyncUtils.waitFor(240, TimeUnit.SECONDS, () -> ahead.lookup(cls, live,
                ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isPresent());
        WeekAhead.Entry entry = ahead.lookup(cls, live, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).orElseThrow();
        assertTrue(entry.comparison().seconds() > 6 * 86_400, "the sandbox's week: " + entry.comparison().seconds());

        WhatIfViewModel vm = onFx(() -> console.view().openWhatIf(cls));
        FxRobot robot = new FxRobot();
        Label said = (Label) ConsoleWindow.find(robot, "#" + WhatIfView.STATUS_ID);
        TableView<?> table = (TableView<?>) ConsoleWindow.find(robot, "#" + WhatIfView.TABLE_ID);
        // The week chosen: in the same turn of the FX thread, before any background work could have come back, the
        // figures are there (in the table), said to be the week computed ahead (on screen), and the exact replay runs.
        List<Object> atOnce = onFx(() -> {
            vm.windowMinutesProperty().set(WhatIfViewModel.WEEK_MINUTES);
            return List.of(List.copyOf(vm.rows()), said.getText(), vm.runningProperty().get(),
                    vm.comparisonProperty().get(), table.getItems().size());
        });
        @SuppressWarnings("unchecked")
        List<WhatIfViewModel.Row> rows = (List<WhatIfViewModel.Row>) atOnce.get(0);
        String status = (String) atOnce.get(1);
        assertEquals(WhatIfViewModel.rows(entry.comparison(), live, live), rows, status);
        assertEquals(7, rows.size());
        assertEquals(7, atOnce.get(4), "the rows on screen");
        assertTrue(status.startsWith("Week of " + cls + " to ") && status.contains(" (computed ")
                && status.contains(" in the background); replaying to "), status);
        assertTrue((Boolean) atOnce.get(2), "the exact replay runs");
        assertSame(entry.comparison(), atOnce.get(3), "the charts draw it too");

        // Then the exact replay to the window's end replaces the figures and the words.
        WaitForAsyncUtils.waitFor(400, TimeUnit.SECONDS, () -> onFx(() -> !vm.runningProperty().get()));
        String exact = onFx(() -> vm.statusProperty().get());
        System.out.println("week what-if of " + cls + " computed ahead: at once \"" + status + "\"; then \"" + exact
                + "\"");
        assertTrue(exact.startsWith("Replayed week of " + cls + "'s load"), exact);
        assertFalse(exact.contains("in the background"), exact);
        assertNotSame(entry.comparison(), onFx(() -> vm.comparisonProperty().get()));
        assertEquals(WhatIfViewModel.rows(onFx(() -> vm.comparisonProperty().get()), live, live),
                onFx(() -> List.copyOf(vm.rows())));
        assertTrue(onFx(said::getText).startsWith("Replayed week of " + cls), onFx(said::getText));
    }

    /** A reload's console (the process warmed already): the weeks ahead with no second warm-up replay. */
    @Test
    void aLaterConsoleComputesTheWeekAheadWithNoWarmUpReplay() throws Exception {
        console = WeekConsoles.open();
        Session s = console.session();
        WarmUp w = onFx(() -> console.view().computeWeeksAhead());
        String cls = onFx(() -> console.view().detailViewModel().classNameProperty().get());
        Policy live = s.loop().classes().stream().filter(c -> c.name().equals(cls)).findFirst().orElseThrow().policy();
        WeekAhead ahead = onFx(() -> console.view().weekAhead());
        WaitForAsyncUtils.waitFor(240, TimeUnit.SECONDS, () -> ahead.lookup(cls, live,
                ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isPresent());
        assertEquals(0, w.replaysStarted(), "no warm-up replay in a later console");
    }
}
