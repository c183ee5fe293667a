package io.headroom.ui.fx;

import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;

/**
 * Escape closes a secondary window (What-if, Journal, Nodes), as it closes a dialog. The key is the
 * window's last: a control that uses Escape first (a field that clears, an open list) keeps it.
 */
public final class EscapeCloses {
    private EscapeCloses() {
    }

    /** Makes Escape close {@code stage}; returns it, for chaining where the window is opened. */
    public static Stage install(Stage stage) {
        stage.addEventHandler(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE && !e.isConsumed() && !e.isShortcutDown() && !e.isAltDown()) {
                e.consume();
                stage.close();
            }
        });
        return stage;
    }
}
