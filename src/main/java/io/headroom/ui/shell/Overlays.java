package io.headroom.ui.shell;

import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.StackPane;

/**
 * Where the help and the palette show, over the console's centre: a scrim that closes them when
 * clicked, one card at a time. The focus goes back where it was when they close.
 */
final class Overlays extends StackPane {
    private final HelpOverlay help;
    /** Built the first time it opens (fast start: the first frame does not style a hidden field and list). */
    private final java.util.function.Supplier<CommandPalette> makePalette;
    private CommandPalette palette;
    private final PaletteViewModel paletteVm;
    private Node returnFocus;

    Overlays(HelpOverlay help, java.util.function.Supplier<CommandPalette> palette, PaletteViewModel paletteVm) {
        this.help = help;
        this.makePalette = palette;
        this.paletteVm = paletteVm;
        getStyleClass().add("overlay-scrim");
        setVisible(false);
        setPadding(new Insets(24));
        getChildren().add(help);
        StackPane.setAlignment(help, Pos.TOP_CENTER);
        help.setVisible(false);
        setOnMouseClicked(e -> {
            if (e.getTarget() == this) {
                close();
            }
        });
        paletteVm.showingProperty().addListener((o, was, now) -> {
            if (!now && paletteShowing()) {
                hide(this.palette);
            }
        });
    }

    boolean helpShowing() {
        return help.isVisible();
    }

    boolean paletteShowing() {
        return palette != null && palette.isVisible();
    }

    void toggleHelp() {
        if (help.isVisible()) {
            close();
            return;
        }
        close();
        remember();
        help.refresh();
        show(help);
        help.requestFocus();
    }

    void togglePalette() {
        if (paletteShowing()) {
            close();
            return;
        }
        close();
        remember();
        if (palette == null) {
            palette = makePalette.get();
            palette.setVisible(false);
            StackPane.setAlignment(palette, Pos.TOP_CENTER);
            getChildren().add(palette);
        }
        paletteVm.open();
        show(palette);
        palette.focusQuery();
    }

    /** Escape closes what shows; {@code ?} closes the help. True when the key was theirs. */
    boolean handle(KeyEvent e) {
        if (!isVisible()) {
            return false;
        }
        boolean escape = e.getEventType() == KeyEvent.KEY_PRESSED && e.getCode() == KeyCode.ESCAPE;
        boolean question = help.isVisible() && e.getEventType() == KeyEvent.KEY_TYPED && "?".equals(e.getCharacter());
        if (escape || question) {
            e.consume();
            close();
            return true;
        }
        return false;
    }

    void close() {
        if (paletteShowing()) {
            paletteVm.close(); // hides the palette through its listener
        }
        if (help.isVisible()) {
            hide(help);
        }
    }

    private void remember() {
        returnFocus = getScene() == null ? null : getScene().getFocusOwner();
    }

    private void show(Node card) {
        card.setVisible(true);
        setVisible(true);
    }

    private void hide(Node card) {
        card.setVisible(false);
        setVisible(help.isVisible() || paletteShowing());
        if (!isVisible() && returnFocus != null && returnFocus.getScene() != null) {
            returnFocus.requestFocus();
        }
    }
}
