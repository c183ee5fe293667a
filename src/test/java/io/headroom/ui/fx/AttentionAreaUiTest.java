package io.headroom.ui.fx;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.time.ManualClock;
import io.headroom.ui.AttentionHold;
import java.time.Instant;
import java.util.List;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ListView;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * What counts as the operator's attention on a list: the keyboard focus arriving in it from outside. Not a
 * cell's focus-model focus (a list's cells turn their {@code focused} on, and their parents' focusWithin,
 * whenever they are its focus model's cell, keyboard focus or not, and they are re-indexed on every change:
 * counted, that held the inbox's order for good), nor the focus moving inside it.
 */
class AttentionAreaUiTest {
    final ManualClock wall = new ManualClock(Instant.parse("2026-01-01T12:00:00Z"));
    final AttentionHold hold = new AttentionHold(wall, () -> { });
    Stage stage;
    ListView<String> list;
    Button outside;

    @AfterEach
    void close() throws Exception {
        onFx(() -> {
            stage.close();
            return null;
        });
    }

    void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        onFx(() -> {
            list = new ListView<>();
            list.getItems().setAll("a", "b", "c");
            outside = new Button("elsewhere");
            VBox root = new VBox(outside, list);
            AttentionArea.follow(list, hold);
            stage = new Stage();
            stage.setScene(new Scene(root, 300, 300));
            stage.show();
            outside.requestFocus();
            list.getFocusModel().focus(0); // the focus model's cell, as a selection leaves it
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void cellsReindexedUnderTheFocusModelWhileTheKeyboardIsElsewhereHoldNothing() throws Exception {
        show();
        assertFalse(onFx(hold::held));
        for (int i = 0; i < 5; i++) {
            int n = i;
            onFx(() -> {
                list.getItems().add(0, "new " + n); // every cell re-indexed, the focused one among them
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertTrue(onFx(() -> outside.isFocused()), "the keyboard stayed outside");
        assertFalse(onFx(hold::held), "no hold without the operator");
    }

    @Test
    void theFocusArrivingFromOutsideHoldsForTheQuietTimeAndMovingInsideDoesNotRenewIt() throws Exception {
        show();
        onFx(() -> {
            list.requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(onFx(hold::held), "the focus arrived");
        wall.advance(AttentionHold.QUIET.minusSeconds(1));
        Button inside = onFx(() -> {
            Button b = new Button("inside");
            list.setPlaceholder(b);
            list.getItems().clear(); // the placeholder shows, inside the list
            return b;
        });
        WaitForAsyncUtils.waitForFxEvents();
        onFx(() -> {
            inside.requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(onFx(inside::isFocused));
        wall.advance(java.time.Duration.ofSeconds(2));
        assertFalse(onFx(hold::held), "a move inside is not an arrival: the hold ended on time");
        onFx(() -> {
            outside.requestFocus();
            list.getItems().setAll(List.of("x"));
            list.requestFocus();
            return null;
        });
        assertTrue(onFx(hold::held), "back from outside: held again");
    }
}
