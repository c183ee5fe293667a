package io.headroom.ui.fx;

import io.headroom.ui.AttentionHold;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.beans.value.ChangeListener;
import javafx.scene.Node;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.util.Duration;

/**
 * Feeds an {@link AttentionHold} from the list it guards: the pointer on it holds, and a key pressed or
 * a click anywhere in it (its cells' buttons included) or the focus arriving in it touches it. While an
 * order waits, the hold is looked at again each half second, since a touch's hold ends with time.
 */
public final class AttentionArea {
    private AttentionArea() {
    }

    private static boolean inside(Node n, Node area) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p == area) {
                return true;
            }
        }
        return false;
    }

    public static void follow(Node area, AttentionHold hold) {
        hold.pointerProperty().bind(area.hoverProperty());
        area.addEventFilter(KeyEvent.KEY_PRESSED, e -> hold.touch());
        area.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> hold.touch());
        // The keyboard focus arriving from outside, read from the scene's focus owner. Not focusWithin: a list's or
        // table's cell turns that on whenever it is its focus model's cell, keyboard focus or not, and cells are
        // re-indexed on every change (the hold would never end). Not a move inside either (a card leaving hands its
        // button's focus to the list): that is not the operator's doing, and keys pressed inside touch it anyway.
        ChangeListener<Node> owner = (o, was, now) -> {
            if (now != null && inside(now, area) && (was == null || !inside(was, area))) {
                hold.touch();
            }
        };
        area.sceneProperty().addListener((o, was, now) -> {
            if (was != null) {
                was.focusOwnerProperty().removeListener(owner);
            }
            if (now != null) {
                now.focusOwnerProperty().addListener(owner);
            }
        });
        if (area.getScene() != null) {
            area.getScene().focusOwnerProperty().addListener(owner);
        }
        Timeline quiet = new Timeline(new KeyFrame(Duration.millis(500), e -> hold.releaseIfQuiet()));
        quiet.setCycleCount(Animation.INDEFINITE);
        hold.waitingProperty().addListener((o, was, waits) -> {
            if (waits) {
                quiet.play();
            } else {
                quiet.stop();
            }
        });
    }
}
