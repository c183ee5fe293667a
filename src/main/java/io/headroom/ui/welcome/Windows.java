package io.headroom.ui.welcome;

import io.headroom.ui.Styles;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/** A window of the first run: owned by the console, modal to it, in its theme, closed by Escape. */
final class Windows {
    private Windows() {
    }

    static Stage modal(Window owner, Parent root, String title, Runnable onEscape) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
            stage.initModality(Modality.WINDOW_MODAL);
        }
        Scene scene = new Scene(root);
        Styles.install(scene);
        Styles.paintDark(scene);
        if (owner != null && owner.getScene() != null
                && owner.getScene().getRoot().getStyleClass().contains(Styles.THEME_LIGHT)) {
            root.getStyleClass().remove(Styles.THEME_DARK);
            root.getStyleClass().add(Styles.THEME_LIGHT);
        }
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE) {
                e.consume();
                onEscape.run();
            }
        });
        stage.setScene(scene);
        stage.setTitle(title);
        return stage;
    }
}
