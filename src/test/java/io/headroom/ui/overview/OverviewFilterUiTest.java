package io.headroom.ui.overview;

import io.headroom.ui.fx.Tips;
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
 * it. Every column header explains itself on hover; the text cells place their text as a label would.
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
                .map(n -> Tips.text(n) == null ? "none" : Tips.text(n)).toList());
        assertEquals(12, tips.size(), tips.toString()); // hidden columns (a narrow window) included
        assertTrue(tips.contains("Queue: jobs waiting"), tips.toString());
        assertFalse(tips.contains("none"), tips.toString());
        // The rows draw each cell's text as a label would: inside the padding, numbers against the
        // right, words against the left, centred in the row. Read from the pixels drawn.
        int placed = onFx(() -> {
            OverviewView view = (OverviewView) table.getParent();
            view.applyCss();
            view.layout();
            javafx.scene.image.Image shot = table.getScene().snapshot(null);
            int n = 0;
            for (String cls : view.shownClasses()) {
                for (OverviewView.DrawnCell c : view.drawn(cls)) {
                    if (c.text().isEmpty() || List.of("15 min", "Work", "Alerts").contains(c.column())) {
                        continue;
                    }
                    Ink ink = Ink.of(shot, c);
                    assertTrue(ink.found(), "drawn: " + c);
                    assertTrue(ink.left() >= 8 - 1 && ink.right() <= c.width() - 8 + 1, c.text() + " inside its padding " + ink);
                    if (List.of("Class", "Mode", "Ceiling").contains(c.column())) {
                        assertEquals(8, ink.left(), 2.5, "words against the left: " + c + " " + ink);
                    } else {
                        assertEquals(c.width() - 8, ink.right(), 2.5, "a number against the right: " + c + " " + ink);
                    }
                    assertEquals(c.height() / 2, (ink.top() + ink.bottom()) / 2, c.height() / 5, "centred in its row: " + c + " " + ink);
                    n++;
                }
            }
            return n;
        });
        assertTrue(placed >= 5 * 5, "every row's class, queue, age and replicas at least: " + placed);
        TextField filter = onFx(() -> robot.lookup("#" + OverviewView.FILTER_ID).queryAs(TextField.class));
        assertFalse(onFx(filter::isVisible), "no room taken until it is used");

        robot.clickOn(table);
        robot.write("/");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(filter::isFocused));
        robot.write("enrich");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 1);
        assertEquals("enrich", onFx(filter::getText), "the slash itself is not typed into the filter");
        assertEquals("enrichment", onFx(() -> ((ClassRow) table.getItems().get(0)).name()));
        // The filter says it hides classes, and how many, even once the cursor has gone back to the rows.
        javafx.scene.control.Label shown = onFx(() -> robot.lookup("#" + OverviewView.SHOWN_ID).queryAs(
                javafx.scene.control.Label.class));
        assertEquals("1 of 5 shown", onFx(shown::getText));
        robot.type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(table::isFocused));
        assertTrue(onFx(() -> shown.isVisible() && filter.isVisible()), "still said with the rows focused");
        assertEquals("1 of 5 shown", onFx(shown::getText));
        robot.clickOn(filter);

        robot.type(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 5);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(filter::isVisible));
        assertFalse(onFx(shown::isVisible), "no filter, nothing hidden, nothing said");
    }
}
