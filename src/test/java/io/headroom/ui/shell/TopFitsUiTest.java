package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.overview.OverviewView;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.Scene;
import javafx.scene.input.MouseButton;
import javafx.stage.Stage;
import io.headroom.ui.Styles;
import io.headroom.ui.fx.FxExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * At 1280×800 the built-in sandbox's six classes showed five and a half rows: the last class was under the scroll
 * bar. The upper part now grows to show every row (up to 45 % of the split), and a divider the operator moved stays
 * where they put it.
 */
class TopFitsUiTest {
    Session session;
    MainView view;
    Stage stage;
    final FxRobot robot = new FxRobot();

    @AfterEach
    void close() throws Exception {
        if (stage != null) {
            WaitForAsyncUtils.asyncFx(() -> {
                view.dispose();
                stage.close();
            }).get(20, TimeUnit.SECONDS);
        }
        if (session != null) {
            session.close();
        }
    }

    private void open() throws Exception {
        open(Session.builtIn(7, Instant.parse("2026-12-01T13:00:00Z"), Duration.ofMinutes(2), new MemoryJournal(),
                null), 6);
    }

    /** The console in a window of 1280×800 from its first layout, as on a screen of that size. */
    private void open(Session s, int classes) throws Exception {
        session = s;
        org.testfx.api.FxToolkit.registerPrimaryStage(); // the toolkit, started once per test JVM
        WaitForAsyncUtils.asyncFx(() -> {
            view = new MainView(s, FxExecutor.get());
            Scene scene = new Scene(view, 1280, 800);
            Styles.install(scene);
            Styles.paintDark(scene);
            stage = new Stage();
            stage.setScene(scene);
            stage.show();
        }).get(20, TimeUnit.SECONDS);
        s.startAsync(Duration.ZERO);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() ->
                view.overviewViewModel().rows().size() == classes));
    }

    @Test
    void fiveClassesKeepTheDefaultShare() throws Exception {
        open(Session.sandbox(7, Instant.parse("2026-12-01T13:00:00Z"), Duration.ofMinutes(2), new MemoryJournal()), 5);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> rowsWhole() == 5));
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(MainView.TOP_SHARE, ConsoleWindow.onFx(() -> split().getDividerPositions()[0]), 0.01,
                "five rows fit the default: the charts keep their room");
    }

    @Test
    void everyClassOfTheBuiltInSandboxIsShownWholeAt1280x800() throws Exception {
        open();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> rowsWhole() == 6));
        assertEquals(6, (int) ConsoleWindow.onFx(this::rowsWhole), "six rows, each whole inside the table");
        double share = ConsoleWindow.onFx(() -> split().getDividerPositions()[0]);
        assertTrue(share <= TopFits.MAX_SHARE + 0.01, "the charts keep the rest: " + share);

    }

    @Test
    void aDividerTheOperatorMovedStaysWhereTheyPutIt() throws Exception {
        open();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> rowsWhole() == 6));
        Node divider = ConsoleWindow.onFx(() -> split().lookup(".split-pane-divider"));
        robot.drag(divider, MouseButton.PRIMARY).dropBy(0, -80);
        WaitForAsyncUtils.waitForFxEvents();
        double dragged = ConsoleWindow.onFx(this::topHeight);
        assertTrue(ConsoleWindow.onFx(this::rowsWhole) < 6, "the operator made it smaller");
        WaitForAsyncUtils.asyncFx(() -> stage.setHeight(820)).get(10, TimeUnit.SECONDS); // a resize: a fit would grow it
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals(dragged, ConsoleWindow.onFx(this::topHeight), 2, "the operator's height stands");
        assertTrue(ConsoleWindow.onFx(this::rowsWhole) < 6, "not grown back");
    }

    private double topHeight() {
        split().layout();
        return split().getItems().get(0).getLayoutBounds().getHeight();
    }

    private SplitPane split() {
        return (SplitPane) view.lookup(".split-pane");
    }

    /** How many class rows lie whole inside the table's rows area. FX thread. */
    private int rowsWhole() {
        TableView<?> table = (TableView<?>) view.lookup("#" + OverviewView.TABLE_ID);
        table.layout();
        Node flow = table.lookup(".virtual-flow");
        Bounds area = flow.localToScene(flow.getLayoutBounds());
        int whole = 0;
        for (Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof TableRow<?> row && row.getItem() != null && row.isVisible()) {
                Bounds b = row.localToScene(row.getLayoutBounds());
                if (b.getMinY() >= area.getMinY() - 0.5 && b.getMaxY() <= area.getMaxY() + 0.5) {
                    whole++;
                }
            }
        }
        return whole;
    }
}
