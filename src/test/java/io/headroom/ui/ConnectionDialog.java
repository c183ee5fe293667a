package io.headroom.ui;

import io.headroom.ui.welcome.ConnectionProgressView;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;

/** The real application's connection dialog as the operator sees it, read on the FX thread (for the UI tests). */
final class ConnectionDialog {
    private ConnectionDialog() {
    }

    /** Whether the dialog shows. */
    static boolean shows(HeadroomApp app) throws Exception {
        return ConsoleWindow.onFx(() -> app.connectionProgress() != null && app.connectionProgress().stage().isShowing());
    }

    /** Its endpoint lines, as shown. */
    static List<String> lines(HeadroomApp app) throws Exception {
        return ConsoleWindow.onFx(() -> ((VBox) app.connectionProgress().stage().getScene()
                .lookup("#" + ConnectionProgressView.ENDPOINTS_ID)).getChildren().stream()
                .map(n -> ((Label) n).getText()).toList());
    }

    static String headline(HeadroomApp app) throws Exception {
        return ConsoleWindow.onFx(() -> ((Label) app.connectionProgress().stage().getScene()
                .lookup("#" + ConnectionProgressView.HEADLINE_ID)).getText());
    }

    /** A button of the dialog: shown (with its row), enabled and inside the window, i.e. offered. */
    static boolean offered(HeadroomApp app, String id) throws Exception {
        return ConsoleWindow.onFx(() -> {
            Node n = app.connectionProgress().stage().getScene().lookup("#" + id);
            for (Node p = n; p != null; p = p.getParent()) {
                if (!p.isVisible()) {
                    return false;
                }
            }
            if (n == null || n.isDisabled() || !app.connectionProgress().stage().isShowing()) {
                return false;
            }
            // Inside the window, not below its bottom edge: the window grows with what it offers.
            javafx.geometry.Bounds b = n.localToScene(n.getLayoutBounds());
            javafx.scene.Scene scene = n.getScene();
            return b.getMinX() >= -0.5 && b.getMinY() >= -0.5 && b.getMaxX() <= scene.getWidth() + 0.5
                    && b.getMaxY() <= scene.getHeight() + 0.5;
        });
    }
}
