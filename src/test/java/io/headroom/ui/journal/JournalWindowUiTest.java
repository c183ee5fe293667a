package io.headroom.ui.journal;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The journal window in the real console: an action taken while it is open appears on top without
 * reopening it and without losing the operator's selection; typing searches; the operator-actions
 * preset leaves out what the console did on its own; the count says how many of how many.
 */
class JournalWindowUiTest {
    final FxRobot robot = new FxRobot();
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        onFx(() -> {
            List.copyOf(Window.getWindows()).stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                    && s.getTitle().startsWith("Headroom journal")).forEach(Window::hide);
            return null;
        });
        if (console != null) {
            console.close();
        }
    }

    static Stage journalStage() {
        return (Stage) Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                && s.getTitle().startsWith("Headroom journal")).findFirst().orElse(null);
    }

    @SuppressWarnings("unchecked")
    static <T extends Node> T in(Stage stage, String id) {
        return (T) stage.getScene().getRoot().lookup("#" + id);
    }

    @Test
    void liveUpdatesSearchAndTheOperatorPresetInTheRealWindow() throws Exception {
        Session s = Session.sandbox(11, Instant.now(), Duration.ofMinutes(1), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(1));
        console = ConsoleWindow.open(s);
        String cls = s.loop().classes().get(0).name();
        // Live: the journal says the console opened (a freeze before that would be replaced by the restored state).
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> s.journal().history().records().stream()
                .anyMatch(r -> r.kind() == Kind.CONSOLE_OPENED));
        var frozenNow = s.supervisor().freeze(cls, Duration.ofMinutes(30), "Incident 4711: DB failover")
                .get(10, TimeUnit.SECONDS);
        assertTrue(frozenNow.ok(), frozenNow.message());

        // Opening builds a window: on a loaded machine that takes longer than onFx waits.
        WaitForAsyncUtils.asyncFx(() -> console.view().openJournal()).get(120, TimeUnit.SECONDS);
        Stage stage = onFx(JournalWindowUiTest::journalStage);
        TableView<JournalRow> table = onFx(() -> in(stage, JournalView.TABLE_ID));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().stream()
                .anyMatch(r -> r.kind() == Kind.FROZEN)));
        Label clusterStatus = onFx(() -> in(stage, JournalView.CLUSTER_STATUS_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(clusterStatus::getText).contains("sandbox"));

        // The operator selects the freeze; an action taken meanwhile appears on top, the selection stays.
        JournalRow frozen = onFx(() -> table.getItems().stream().filter(r -> r.kind() == Kind.FROZEN).findFirst()
                .orElseThrow());
        onFx(() -> {
            table.getSelectionModel().select(frozen);
            return null;
        });
        var lifted = s.supervisor().unfreeze(cls, "failover done").get(10, TimeUnit.SECONDS);
        assertTrue(lifted.ok(), lifted.message());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().stream()
                .anyMatch(r -> r.kind() == Kind.UNFROZEN)));
        assertEquals(frozen, onFx(() -> table.getSelectionModel().getSelectedItem()), "the selection is kept");
        // One read of the rows: the live console may journal a new row on top between two reads.
        List<JournalRow> rows = onFx(() -> List.copyOf(table.getItems()));
        assertTrue(rows.stream().noneMatch(r -> r.at().isAfter(rows.get(0).at())), "newest first: " + rows);

        // Search: case-insensitive, through the reason.
        TextField search = onFx(() -> in(stage, JournalView.SEARCH_ID));
        robot.clickOn(search);
        io.headroom.ui.Typing.write(robot, "incident 4711");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 1);
        assertEquals(Kind.FROZEN, onFx(() -> table.getItems().get(0).kind()));
        Label count = onFx(() -> in(stage, JournalView.COUNT_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(count::getText).startsWith("1 of "));

        onFx(() -> {
            search.clear();
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) > 1);

        // The operator-actions preset: the freeze and the unfreeze, not what the console did on its own.
        robot.clickOn((Node) onFx(() -> in(stage, JournalView.PRESET_ID)));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "Operator actions"));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().stream()
                .map(JournalRow::kind).toList()).equals(List.of(Kind.UNFROZEN, Kind.FROZEN)));
        int total = onFx(() -> s.journal().history().records().size());
        assertTrue(total > 2, "the console journaled more than the operator did");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(count::getText).startsWith("2 of "));
    }
}
