package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/** A click on a header sorts the overview; the third click (or "By severity") brings the severity order back. */
class OverviewSortUiTest {
    final FxRobot robot = new FxRobot();
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void clickingAHeaderSortsAndTheSeverityOrderReturns() throws Exception {
        Session s = Session.sandbox(7, Instant.now(), Duration.ofMinutes(5), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(5));
        s.setSpeed(10); // a tick every 0.5 s: the sort is seen to outlive one without waiting 5 s for it
        console = ConsoleWindow.open(s);
        OverviewViewModel vm = console.view().overviewViewModel();
        TableView<?> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5);
        // The header is looked up again for every click: the table rebuilds its header nodes when the
        // columns that fit change (the window settling to its size), and a detached one has no place.
        java.util.concurrent.Callable<Node> header = () -> onFx(() -> table.lookupAll(".column-header").stream()
                .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null
                        && "Class".equals(h.getTableColumn().getText()) && n.getScene() != null).findFirst().orElseThrow());
        robot.moveTo(header.call()).moveBy(0, -60); // off the table: no order is held for the pointer
        assertNull(onFx(() -> vm.sortProperty().get()), "worst first by default");
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> inSeverityOrder(table)));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(onFx(() -> "held " + vm.holdOrderProperty().get() + " waiting "
                    + vm.orderWaitingProperty().get() + " " + table.getItems().stream().map(r -> ((ClassRow) r).name()
                    + ":" + ((ClassRow) r).severityProperty().get() + ":" + ((ClassRow) r).seen).toList()));
        }
        List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
        javafx.event.EventHandler<javafx.scene.input.MouseEvent> spy = e -> events.add(e.getEventType() + "@" + e.getSceneX()
                + "," + e.getSceneY() + " on " + e.getTarget() + " still " + e.isStillSincePress() + " clicks " + e.getClickCount());
        onFx(() -> { table.getScene().addEventFilter(javafx.scene.input.MouseEvent.ANY, spy); return null; });
        // Where the click landed, said if it did not sort (it once landed a row above a header that the
        // "new order…" notice had pushed down when the pointer reached the rows).
        Node h1 = header.call();
        double top = onFx(() -> table.localToScene(0, 0).getY());
        robot.clickOn(h1);
        try {
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.sortProperty().get()) != null);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError(onFx(() -> "header " + h1.localToScene(h1.getBoundsInLocal()) + " in scene " + (h1.getScene() != null)
                    + " sortOrder " + table.getSortOrder() + " events " + events.stream().filter(x -> !x.startsWith("MOUSE_MOVED")).toList()));
        }
        onFx(() -> { table.getScene().removeEventFilter(javafx.scene.input.MouseEvent.ANY, spy); return null; });
        // Neither "Sorted by …" nor "new order when the pointer leaves the rows" pushes the table down.
        assertEquals(top, onFx(() -> table.localToScene(0, 0).getY()), "the rows stay where the pointer is");
        assertEquals(new OverviewViewModel.Sort(OverviewViewModel.Column.CLASS, false), onFx(() -> vm.sortProperty().get()));
        List<String> shown = onFx(() -> names(table));
        assertEquals(shown.stream().sorted(String.CASE_INSENSITIVE_ORDER).toList(), shown, "A to Z");
        assertTrue(onFx(() -> ConsoleWindow.shown(robot.lookup("#" + OverviewView.BY_SEVERITY_ID).query())), "the way back shows");

        robot.clickOn(header.call());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.sortProperty().get()).descending());
        List<String> down = onFx(() -> names(table));
        assertEquals(down.stream().sorted(String.CASE_INSENSITIVE_ORDER.reversed()).toList(), down, "Z to A");

        // The chosen sort outlives ticks.
        double at = s.history().find("enrichment").lastTime();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> s.history().find("enrichment").lastTime() > at);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(down, onFx(() -> names(table)));

        robot.clickOn(header.call()); // the third click: no sort of the operator's
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.sortProperty().get()) == null);
        robot.moveBy(0, -60); // off the table, so no order is held
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> inSeverityOrder(table)));

        robot.clickOn(header.call());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.sortProperty().get()) != null);
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + OverviewView.BY_SEVERITY_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> vm.sortProperty().get()) == null);
        assertTrue(onFx(() -> table.getSortOrder().isEmpty()), "the header shows no sort either");
        assertFalse(onFx(() -> ConsoleWindow.shown(robot.lookup("#" + OverviewView.BY_SEVERITY_ID).query())));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> inSeverityOrder(table)));
    }


    private static List<String> names(TableView<?> table) {
        return table.getItems().stream().map(r -> ((ClassRow) r).name()).toList();
    }

    private static boolean inSeverityOrder(TableView<?> table) {
        List<ClassRow> rows = table.getItems().stream().map(r -> (ClassRow) r).toList();
        return rows.equals(rows.stream().sorted(Comparator.comparing((ClassRow r) -> r.severityProperty().get())
                .thenComparingInt(r -> r.seen)).toList());
    }
}
