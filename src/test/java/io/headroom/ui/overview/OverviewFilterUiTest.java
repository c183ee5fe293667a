package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * `/` in the console puts the cursor in the overview's filter; typing narrows the rows; Escape clears
 * it. Every column header explains itself on hover.
 */
class OverviewFilterUiTest {
    final FxRobot robot = new FxRobot();
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    @Test
    void slashFiltersTheOverviewAndEscapeBringsEveryClassBack() throws Exception {
        Session s = Session.sandbox(5, Instant.now(), Duration.ofMinutes(1), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(1));
        console = ConsoleWindow.open(s);
        TableView<?> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5);
        // Headers a narrow window cuts ("Qu…") say their whole title on hover.
        List<String> tips = onFx(() -> table.lookupAll(".column-header").stream()
                .filter(n -> n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null)
                .map(n -> n.getProperties().get("javafx.scene.control.Tooltip"))
                .map(t -> t instanceof javafx.scene.control.Tooltip tt ? tt.getText() : "none").toList());
        assertEquals(12, tips.size(), tips.toString()); // hidden columns (a narrow window) included
        assertTrue(tips.contains("Queue: jobs waiting"), tips.toString());
        assertFalse(tips.contains("none"), tips.toString());
        TextField filter = onFx(() -> robot.lookup("#" + OverviewView.FILTER_ID).queryAs(TextField.class));
        assertFalse(onFx(filter::isVisible), "no room taken until it is used");

        robot.clickOn(table);
        robot.write("/");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(filter::isFocused));
        robot.write("enrich");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 1);
        assertEquals("enrich", onFx(filter::getText), "the slash itself is not typed into the filter");
        assertEquals("enrichment", onFx(() -> ((ClassRow) table.getItems().get(0)).name()));

        robot.type(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(filter::isVisible));
    }
}
