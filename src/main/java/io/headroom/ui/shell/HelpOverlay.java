package io.headroom.ui.shell;

import io.headroom.ui.Styles;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.VBox;

/**
 * The {@code ?} overlay: every key of the console, read from the {@link Commands} registry when it
 * opens, grouped by section. Escape or {@code ?} closes it (the console's key dispatch does).
 */
public final class HelpOverlay extends VBox {
    public static final String ID = "help-overlay";
    /** Style class of each key shown (the test reads them back). */
    public static final String KEY = "key-cap";
    public static final String KEY_TITLE = "key-title";

    private final Commands commands;

    public HelpOverlay(Commands commands) {
        this.commands = commands;
        setId(ID);
        getStyleClass().addAll("overlay-card", "help-overlay");
        setFocusTraversable(true);
        setAccessibleText("Keyboard shortcuts");
        setMaxWidth(760);
        setMaxHeight(USE_PREF_SIZE);
        setAlignment(Pos.TOP_LEFT);
    }

    /** Fills the list from the registry as it is now. */
    public void refresh() {
        getChildren().clear();
        Label title = new Label("Keys");
        title.getStyleClass().add("overlay-title");
        GridPane grid = new GridPane();
        grid.getStyleClass().add("key-grid");
        int row = 0;
        for (Commands.Section section : Commands.Section.values()) {
            List<Commands.Command> inSection = commands.bound().stream()
                    .filter(c -> c.section() == section).toList();
            if (inSection.isEmpty()) {
                continue;
            }
            Label head = new Label(section.title());
            head.getStyleClass().add(Styles.SECTION_TITLE);
            grid.add(head, 0, row++, 2, 1);
            for (Commands.Command c : inSection) {
                Label key = new Label(c.key().display());
                key.getStyleClass().add(KEY); // the UI font (Styles.KEY_FONT): O and 0 look alike in the monospace
                Label what = new Label(c.title());
                what.getStyleClass().add(KEY_TITLE);
                what.setWrapText(true);
                key.setAccessibleText(c.key().display() + ": " + c.title());
                grid.addRow(row++, key, what);
            }
        }
        Label foot = new Label("In the palette: ↑ ↓ move, Enter runs, Escape closes. Escape also closes the"
                + " What-if, Journal and Nodes windows and every dialog. Tab moves through every control. Ctrl+Q quits, asking first"
                + " about held classes as closing the window does.");
        foot.getStyleClass().add(Styles.MUTED);
        foot.setWrapText(true);
        Label close = new Label("Escape or ? closes this list");
        close.getStyleClass().add(Styles.MUTED);
        getChildren().addAll(title, grid, foot, close);
    }
}
