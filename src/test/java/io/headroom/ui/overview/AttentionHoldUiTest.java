package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.time.ManualClock;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Typing;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: rows never re-order under the operator's keyboard. Down×3 aimed at a class while the
 * sandbox changes a class's tier (a freeze lifts a quiet class over the aimed one) lands on the class
 * aimed at, and {@code F} asks to freeze that class; the new order comes once the keys are quiet.
 */
class AttentionHoldUiTest {
    final FxRobot robot = new FxRobot();
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        onFx(() -> {
            for (Window w : List.copyOf(Window.getWindows())) {
                if (console != null && w != console.view().getScene().getWindow() && w instanceof Stage s) {
                    s.close();
                }
            }
            return null;
        });
        if (console != null) {
            console.close();
        }
    }

    @Test
    void downThreeTimesLandsOnTheClassAimedAtWhileTheTiersShift() throws Exception {
        Session s = Session.sandbox(7, Instant.now(), Duration.ofMinutes(5), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(5));
        console = ConsoleWindow.open(s);
        OverviewViewModel vm = console.view().overviewViewModel();
        ManualClock wall = new ManualClock(Instant.now());
        onFx(() -> {
            vm.setAttentionClock(wall);
            return null;
        });
        TableView<ClassRow> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> console.view().detailViewModel()
                .actionableProperty().get()));
        robot.moveTo(onFx(() -> (javafx.scene.Node) robot.lookup("#" + io.headroom.ui.shell.TopBar.CONTEXT_ID).query())); // the pointer holds nothing
        // A quiet class at the bottom, below a quiet one in the first four rows: frozen, it will rank above them.
        List<String> before = WaitForAsyncUtils.asyncFx(() -> names(table)).get();
        String lifted = before.get(4);
        assertEquals(Severity.OK, onFx(() -> row(table, lifted).severityProperty().get()), tiers(table));
        assertTrue(onFx(() -> before.subList(1, 4).stream().anyMatch(n -> row(table, n).severityProperty().get()
                == Severity.OK)), "a quiet class in rows 2 to 4, for the freeze to overtake: " + tiers(table));

        onFx(() -> {
            table.requestFocus();
            table.getSelectionModel().clearAndSelect(0);
            table.getFocusModel().focus(0);
            return null;
        });
        List<String> shown = onFx(() -> names(table));
        String aimed = shown.get(3);
        Typing.keys(robot, KeyCode.DOWN);
        // The sandbox shifts a tier under the keys: the class at the bottom is frozen.
        s.supervisor().freeze(lifted, Duration.ofHours(1), "tier shift under the keys").get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> row(table, lifted).severityProperty().get()
                == Severity.STANDING));
        assertEquals(shown, onFx(() -> names(table)), "the rows keep their order under the keyboard");
        assertTrue(onFx(() -> vm.orderWaitingProperty().get()), "the new order waits");
        Typing.keys(robot, KeyCode.DOWN);
        Typing.keys(robot, KeyCode.DOWN);
        assertEquals(aimed, onFx(() -> table.getSelectionModel().getSelectedItem().name()));
        assertEquals(aimed, onFx(() -> table.getFocusModel().getFocusedItem().name()), "the focus is on it too");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> aimed.equals(onFx(() -> console.view().detailViewModel()
                .classNameProperty().get())));
        assertEquals(shown, onFx(() -> names(table)));

        // The action goes to the class aimed at.
        Typing.keys(robot, KeyCode.F);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> Window.getWindows().stream()
                .anyMatch(w -> w instanceof Stage st && st.isShowing() && ("Freeze " + aimed).equals(st.getTitle()))));
        Typing.keys(robot, KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> Window.getWindows().stream()
                .noneMatch(w -> w instanceof Stage st && st.isShowing() && ("Freeze " + aimed).equals(st.getTitle()))));

        // Quiet keys for a few seconds: the new order comes, once, and the selection stays with its class.
        wall.advance(OverviewViewModel.QUIET.plusSeconds(1));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> !onFx(() -> vm.orderWaitingProperty().get()));
        List<String> after = onFx(() -> names(table));
        assertTrue(after.indexOf(lifted) < shown.indexOf(lifted), "the frozen class rose: " + after);
        assertEquals(aimed, onFx(() -> table.getSelectionModel().getSelectedItem().name()));
    }

    @Test
    void theDetailOpensOnTheWorstClass() throws Exception {
        // As the console starts on the sandbox: the first ticks have no rates yet, so every class ties.
        Session s = Session.sandbox(7, Instant.now(), io.headroom.session.Launcher.WARM_UP, new MemoryJournal());
        s.setSpeed(10);
        console = ConsoleWindow.open(s);
        OverviewViewModel vm = console.view().overviewViewModel();
        TableView<ClassRow> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5
                && onFx(() -> console.view().supervisionViewModel().stateProperty().get()) != null);
        double at = s.history().find("enrichment").lastTime();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> s.history().find("enrichment").lastTime() > at + 10);
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> {
                ClassRow top = table.getItems().get(0);
                return !vm.orderWaitingProperty().get() && top.name().equals(console.view().detailViewModel()
                        .classNameProperty().get()) && table.getItems().stream().allMatch(r -> top.severityProperty()
                        .get().compareTo(r.severityProperty().get()) <= 0);
            }));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("the detail shows the worst class: " + tiers(table) + ", shown: "
                    + onFx(() -> console.view().detailViewModel().classNameProperty().get()), e);
        }
    }

    private static ClassRow row(TableView<ClassRow> table, String name) {
        return table.getItems().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    private static List<String> names(TableView<ClassRow> table) {
        return table.getItems().stream().map(ClassRow::name).toList();
    }

    private static String tiers(TableView<ClassRow> table) throws Exception {
        return onFx(() -> table.getItems().stream().map(r -> r.name() + ":" + r.severityProperty().get()).toList())
                .toString();
    }
}
