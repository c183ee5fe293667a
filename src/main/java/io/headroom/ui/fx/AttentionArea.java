package io.headroom.ui.fx;

import io.headroom.ui.AttentionHold;
import javafx.animation.Animation;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
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

    public static void follow(Node area, AttentionHold hold) {
        hold.pointerProperty().bind(area.hoverProperty());
        area.addEventFilter(KeyEvent.KEY_PRESSED, e -> hold.touch());
        area.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> hold.touch());
        area.focusWithinProperty().addListener((o, was, is) -> {
            if (is) {
                hold.touch();
            }
        });
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
