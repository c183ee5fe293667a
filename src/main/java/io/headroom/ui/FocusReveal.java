package io.headroom.ui;

import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.ScrollPane;

/**
 * A scroll pane that brings the control the keyboard focuses into view, with room for its focus ring: a Drain…
 * focused at the viewport's edge showed half its ring, and one below the fold none of it. Only the vertical
 * position moves, and only as far as needed.
 */
public final class FocusReveal {
    /** Room kept around the focused control: its ring is drawn up to 3 px outside it. */
    static final double MARGIN = 6;

    private FocusReveal() {
    }

    /** Installs the reveal on {@code scroll}, for the scene it is in now or later. */
    public static void install(ScrollPane scroll) {
        javafx.beans.value.ChangeListener<Node> reveal = (o, a, n) -> reveal(scroll, n);
        scroll.sceneProperty().addListener((o, was, scene) -> {
            if (was != null) {
                was.focusOwnerProperty().removeListener(reveal);
            }
            if (scene != null) {
                scene.focusOwnerProperty().addListener(reveal);
            }
        });
        Scene now = scroll.getScene();
        if (now != null) {
            now.focusOwnerProperty().addListener(reveal);
        }
    }

    static void reveal(ScrollPane scroll, Node focused) {
        Node content = scroll.getContent();
        if (focused == null || content == null || !inside(focused, content)) {
            return;
        }
        Bounds viewport = scroll.getViewportBounds();
        double contentHeight = content.getLayoutBounds().getHeight();
        double room = contentHeight - viewport.getHeight();
        if (room <= 0) {
            return;
        }
        Bounds b = content.sceneToLocal(focused.localToScene(focused.getLayoutBounds()));
        double span = scroll.getVmax() - scroll.getVmin();
        double top = (scroll.getVvalue() - scroll.getVmin()) / span * room;
        double next = top;
        if (b.getMinY() - MARGIN < top) {
            next = b.getMinY() - MARGIN;
        } else if (b.getMaxY() + MARGIN > top + viewport.getHeight()) {
            next = Math.min(b.getMaxY() + MARGIN - viewport.getHeight(), b.getMinY() - MARGIN);
        }
        if (next != top) {
            scroll.setVvalue(scroll.getVmin() + Math.max(0, Math.min(room, next)) / room * span);
        }
    }

    private static boolean inside(Node n, Node ancestor) {
        for (Node x = n; x != null; x = x.getParent()) {
            if (x == ancestor) {
                return true;
            }
        }
        return false;
    }
}
