package io.headroom.ui.shell;

import io.headroom.ui.Styles;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Insets;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The frame the hand-back dialogs share (at exit, {@link ExitDialog}; at start, {@link LeftoversView}): a modal
 * window over the console with a heading, an intro, rows of choices that scroll, a status that grows the window
 * when it has several lines, and a row of buttons; themed as the console.
 */
final class ChoiceDialog {
    private ChoiceDialog() {
    }

    /** A modal window over {@code owner}, titled "Headroom — {@code title}". */
    static Stage stage(Window owner, String title) {
        Stage dialog = new Stage();
        dialog.initOwner(owner);
        dialog.initModality(Modality.WINDOW_MODAL);
        dialog.setTitle("Headroom — " + title);
        return dialog;
    }

    /** The rows' grid. */
    static GridPane grid() {
        GridPane grid = new GridPane();
        grid.setHgap(16);
        grid.setVgap(6);
        return grid;
    }

    /** The status line, bound to {@code text}. */
    static Label status(String id, ObservableValue<String> text) {
        Label status = new Label();
        status.setId(id);
        status.setWrapText(true);
        status.setMinHeight(Region.USE_PREF_SIZE);
        status.textProperty().bind(text);
        return status;
    }

    /**
     * Lays out and shows {@code dialog}: heading, intro, the {@code rows} of {@code grid} scrolling, {@code extra}
     * (may be empty), the status and the buttons.
     */
    static void show(Stage dialog, Window owner, String title, String intro, GridPane grid, int rows, Label status,
                     HBox buttons, double width, Node... extra) {
        Label heading = new Label(title);
        heading.getStyleClass().add(Styles.SECTION_TITLE);
        Label text = new Label(intro);
        text.setWrapText(true);
        text.setMinHeight(Region.USE_PREF_SIZE);
        text.getStyleClass().add(Styles.MUTED);
        ScrollPane scroll = new ScrollPane(grid);
        scroll.setFitToWidth(true);
        scroll.setPrefViewportHeight(Math.min(360, 60.0 * Math.max(1, rows)));
        VBox root = new VBox(12, heading, text, scroll);
        root.getChildren().addAll(extra);
        root.getChildren().addAll(status, buttons);
        root.setPadding(new Insets(20));
        root.setPrefWidth(width);
        Scene scene = new Scene(root);
        Styles.install(scene);
        if (owner != null && owner.getScene() != null) {
            root.getStyleClass().addAll(owner.getScene().getRoot().getStyleClass().filtered(
                    c -> c.equals(Styles.THEME_DARK) || c.equals(Styles.THEME_LIGHT)));
        }
        Styles.paintDark(scene);
        dialog.setScene(scene);
        // A status of several lines (what failed, which end is refused) grows the dialog, never cut short.
        status.textProperty().addListener((o, a, b) -> io.headroom.ui.fx.FxExecutor.nextTurn(dialog::sizeToScene));
        io.headroom.ui.fx.DialogFit.keepInside(dialog); // grown or not, inside the console's window, buttons in view
        dialog.show();
        // Rows differ in height (a wrapped line, an owner under it, choices on two lines): size the rows' pane to
        // what they need once laid out, up to most of the screen, so no row the operator must choose on starts
        // out of sight below a short scroll pane.
        double cap = Math.max(240, javafx.stage.Screen.getPrimary().getVisualBounds().getHeight() * 0.55);
        double need = grid.prefHeight(scroll.getViewportBounds().getWidth());
        if (need > scroll.getPrefViewportHeight()) {
            scroll.setPrefViewportHeight(Math.min(need, cap));
            dialog.sizeToScene();
        }
    }
}
