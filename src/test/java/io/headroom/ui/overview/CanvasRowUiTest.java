package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.loop.TickResult;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.image.Image;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The overview's drawn rows (CanvasRow) on their own: an overview of the sandbox's classes in a
 * window of a chosen size, its rows changed through their class's values, read back from what
 * the rows drew and from the pixels.
 */
class CanvasRowUiTest {
    OverviewWindow window;
    Stage stage;
    OverviewViewModel vm;
    OverviewView view;

    @BeforeEach
    void open() throws Exception {
        TickResult tick = OverviewWindow.sandboxTick();
        vm = OverviewWindow.applied(tick);
        window = OverviewWindow.show(vm, 1000, 400, 5);
        stage = window.stage;
        view = window.view;
    }

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    private ClassRow row(String name) {
        return vm.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    private OverviewView.DrawnCell cell(String name, String column) throws Exception {
        return onFx(() -> view.drawn(name).stream().filter(c -> c.column().equals(column)).findFirst().orElseThrow());
    }

    @Test
    void aNewValueOfAClassIsDrawnInItsRowAtTheNextPulse() throws Exception {
        String name = onFx(() -> view.shownClasses().get(2));
        onFx(() -> {
            row(name).modeProperty().set("supervised · a mode no class had"); // off screen at this width
            row(name).queueLengthProperty().set(4321);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> cell(name, "Queue").text().equals("4.3k"));
        // Only that row changed: another class's row drew nothing new.
        String other = onFx(() -> view.shownClasses().get(3));
        assertFalse(cell(other, "Queue").text().equals("4.3k"));
    }

    @Test
    void aChipTooWideForTheColumnLeavesTheRoomToTheNarrowerOnesAfterIt() throws Exception {
        String name = onFx(() -> view.shownClasses().get(0));
        onFx(() -> {
            ClassRow r = row(name);
            r.overlaysProperty().set(List.of());
            r.proposalProperty().set("");
            r.drainProperty().set("");
            r.admissionClosedProperty().set("the queue is full");
            r.alertsProperty().set(List.of(ClassRow.Alert.STALLED, ClassRow.Alert.AGE_BREACH));
            stage.setWidth(700); // the alerts column at its least: ADMISSION CLOSED does not fit in it
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> cell(name, "Alerts").whole()
                .equals("ADMISSION CLOSED STALLED AGE"));
        OverviewView.DrawnCell alerts = cell(name, "Alerts");
        // ADMISSION CLOSED is wider than the column: STALLED (and AGE where it fits) show, the rest is "+N".
        assertFalse(alerts.chips().isEmpty(), "a chip shows, not only +N: " + alerts);
        assertEquals("STALLED", alerts.chips().get(0), alerts.toString());
        assertEquals(3 - alerts.chips().size(), alerts.hidden(), alerts.toString());
        assertEquals("ADMISSION CLOSED STALLED AGE", alerts.whole());
        assertTrue(alerts.tip().startsWith("ADMISSION CLOSED · STALLED · AGE"), alerts.tip());
        Image shot = onFx(() -> stage.getScene().snapshot(null));
        Ink ink = Ink.of(shot, alerts);
        assertTrue(ink.found() && ink.right() <= alerts.width() - 8 + 1, "the chips and +1 inside the cell: " + ink);
        assertTrue(ink.right() - ink.left() > 70, "a chip and +N drawn: " + ink);
    }

    @Test
    void whenNotAllChipsFitTheMostUrgentShow() throws Exception {
        String name = onFx(() -> view.shownClasses().get(0));
        onFx(() -> {
            ClassRow r = row(name);
            r.overlaysProperty().set(List.of(new ClassRow.StateChip(ClassRow.State.PINNED, "PINNED 12")));
            r.proposalProperty().set("");
            r.drainProperty().set("");
            r.admissionClosedProperty().set("");
            r.alertsProperty().set(List.of(ClassRow.Alert.AGE_BREACH, ClassRow.Alert.STUCK));
            stage.setWidth(700);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> cell(name, "Alerts").whole().equals("PINNED 12 AGE STUCK"));
        OverviewView.DrawnCell alerts = cell(name, "Alerts");
        assertTrue(alerts.hidden() > 0, "the column is too narrow for all three: " + alerts);
        // STUCK (danger) shows before the warnings PINNED and AGE, which come first in the row's order.
        assertTrue(alerts.chips().contains("STUCK"), alerts.toString());
        // Those shown keep the row's order: states, then alerts in theirs.
        List<String> order = List.of("PINNED 12", "AGE", "STUCK");
        assertEquals(alerts.chips().stream().sorted(java.util.Comparator.comparingInt(order::indexOf)).toList(),
                alerts.chips());
    }

    @Test
    void aTrendThatWentOverAndClearedSaysItsFlagAndFigureWholeInTheNarrowestTrendColumn() throws Exception {
        // "⚑ 13×": over the objective (12.5×) and cleared. The figure is what the operator reads;
        // the line gives way.
        String name = onFx(() -> view.shownClasses().get(1));
        double[] ages = new double[AgeTrend.COLUMNS];
        for (int i = 0; i < ages.length; i++) {
            ages[i] = i == 20 ? 750 : 30;
        }
        AgeTrend cleared = new AgeTrend(0, AgeTrend.SECONDS, ages, 60, 750, 300, 1, false, 330);
        onFx(() -> {
            row(name).trendProperty().set(cleared);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> cell(name, OverviewView.TREND_15).whole().equals("⚑ 13×"));
        OverviewView.DrawnCell c = cell(name, OverviewView.TREND_15);
        assertEquals(96, c.width(), 0.5, "the trend column at its narrowest (its width at 1280×800)");
        assertEquals("⚑ 13×", c.text(), "whole, not cut to '⚑…' (from 10× on, whole numbers)");
        Ink ink = Ink.of(onFx(() -> stage.getScene().snapshot(null)), c);
        assertTrue(ink.found() && ink.right() <= c.width() - 8 + 1, "inside its padding: " + ink);
        assertTrue(ink.left() <= 8 + 1, "the sparkline is still drawn from the cell's left: " + ink);
        ages[20] = 594; // 9.9×: the widest figure with a tenth
        AgeTrend tenths = new AgeTrend(0, AgeTrend.SECONDS, ages, 60, 594, 300, 1, false, 330);
        onFx(() -> {
            row(name).trendProperty().set(tenths);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> cell(name, OverviewView.TREND_15).whole().equals("⚑ 9.9×"));
        assertEquals("⚑ 9.9×", cell(name, OverviewView.TREND_15).text());
    }

    @Test
    void aNarrowColumnCutsItsTextWithAnEllipsisAndTheTooltipSaysItWhole() throws Exception {
        String name = onFx(() -> view.shownClasses().get(1));
        String longName = "kafka-partitions-of-the-ledger-cluster-in-the-east 8";
        onFx(() -> {
            row(name).bindingCeilingProperty().set(longName);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> cell(name, "Ceiling").whole().equals(longName));
        OverviewView.DrawnCell c = cell(name, "Ceiling");
        assertTrue(c.text().endsWith("…") && longName.startsWith(c.text().substring(0, c.text().length() - 1).strip()),
                c.text());
        assertEquals(longName, c.tip());
        Ink ink = Ink.of(onFx(() -> stage.getScene().snapshot(null)), c);
        assertTrue(ink.found() && ink.right() <= c.width() - 8 + 1, "inside its padding: " + ink);
    }

    @Test
    void aThemeChangeRedrawsTheRowsInItsColours() throws Exception {
        String name = onFx(() -> view.shownClasses().get(0));
        assertTrue(inkAgainstBackground(name) > 300, "light words on the dark theme's rows");
        onFx(() -> {
            view.getStyleClass().setAll(Styles.OVERVIEW, Styles.THEME_LIGHT);
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> inkAgainstBackground(name) < -300);
    }

    /**
     * The class name's ink against its row (luminance, −765 to 765): the pixel furthest from the
     * background, positive when lighter than it.
     */
    private int inkAgainstBackground(String name) throws Exception {
        OverviewView.DrawnCell c = cell(name, "Class");
        Image shot = onFx(() -> stage.getScene().snapshot(null));
        javafx.scene.image.PixelReader p = shot.getPixelReader();
        int x0 = (int) c.sceneCorner().getX();
        int y0 = (int) c.sceneCorner().getY();
        int background = lum(p.getArgb(x0 + 2, y0 + 2)); // the padding: no ink
        int most = 0;
        for (int y = y0; y < y0 + c.height() - 1; y++) {
            for (int x = x0; x < x0 + c.width(); x++) {
                int d = lum(p.getArgb(x, y)) - background;
                most = Math.abs(d) > Math.abs(most) ? d : most;
            }
        }
        return most;
    }

    private static int lum(int argb) {
        return (argb >> 16 & 255) + (argb >> 8 & 255) + (argb & 255);
    }
}
