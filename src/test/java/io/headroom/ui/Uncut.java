package io.headroom.ui;

import java.util.ArrayList;
import java.util.List;

import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.control.Labeled;
import javafx.scene.control.ScrollPane;

/**
 * What a window shows cut: a label or button narrower than its one-line text (drawn with "…"), a wrapped label
 * shorter than its lines, anything reaching past the window's right edge, and a scroll pane whose content is wider
 * than its viewport (a sideways scroll bar). Call on the FX thread, after layout.
 */
public final class Uncut {
    private static final double SLACK = 0.5;

    private Uncut() {
    }

    /** Each cut thing under {@code root}, described; empty when everything is shown whole. */
    public static List<String> cut(Parent root) {
        List<String> found = new ArrayList<>();
        double sceneWidth = root.getScene().getWidth();
        visit(root, sceneWidth, found);
        return found;
    }

    private static void visit(Node n, double sceneWidth, List<String> found) {
        if (!n.isVisible()) {
            return;
        }
        if (n instanceof Labeled l && l.getText() != null && !l.getText().isEmpty()) {
            Bounds b = l.localToScene(l.getLayoutBounds());
            if (!l.isWrapText() && l.getWidth() + SLACK < l.prefWidth(-1)) {
                found.add("'" + l.getText() + "' cut to " + Math.round(l.getWidth()) + " of " + Math.round(l.prefWidth(-1)) + " px");
            } else if (l.isWrapText() && l.getHeight() + SLACK < l.prefHeight(l.getWidth())) {
                found.add("'" + l.getText() + "' has lines hidden");
            }
            if (b.getMaxX() > sceneWidth + SLACK) {
                found.add("'" + l.getText() + "' reaches past the window's edge (" + Math.round(b.getMaxX()) + " > "
                        + Math.round(sceneWidth) + " px)");
            }
        }
        if (n instanceof ScrollPane s && s.getContent() != null
                && s.getContent().getLayoutBounds().getWidth() > s.getViewportBounds().getWidth() + SLACK) {
            found.add("rows scroll sideways (" + Math.round(s.getContent().getLayoutBounds().getWidth()) + " px in "
                    + Math.round(s.getViewportBounds().getWidth()) + ")");
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                visit(c, sceneWidth, found);
            }
        }
    }
}
