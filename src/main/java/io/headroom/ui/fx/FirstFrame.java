package io.headroom.ui.fx;

import java.util.concurrent.Executor;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableValue;
import javafx.scene.Node;
import javafx.scene.Scene;

/**
 * Work that waits for the first frame a node is drawn in: run on {@code fx} after the layout pass of the first pulse
 * once the node is in a scene, so that frame is not styled, laid out and painted with it (issue 28: the console's
 * start). FX thread only.
 */
public final class FirstFrame {
    private FirstFrame() {
    }

    /**
     * Runs {@code then} on {@code fx} once the first pulse with {@code node} in a scene has been laid out: the next
     * pulse when it is in one already (what a node measures then is what the frame shows).
     */
    public static void after(Node node, Executor fx, Runnable then) {
        ChangeListener<Scene> inScene = new ChangeListener<>() {
            @Override
            public void changed(ObservableValue<? extends Scene> o, Scene old, Scene scene) {
                if (scene == null) {
                    return;
                }
                node.sceneProperty().removeListener(this);
                Runnable[] pulse = new Runnable[1];
                pulse[0] = () -> {
                    scene.removePostLayoutPulseListener(pulse[0]);
                    fx.execute(then);
                };
                scene.addPostLayoutPulseListener(pulse[0]);
            }
        };
        if (node.getScene() != null) {
            inScene.changed(node.sceneProperty(), null, node.getScene());
        } else {
            node.sceneProperty().addListener(inScene);
        }
    }
}
