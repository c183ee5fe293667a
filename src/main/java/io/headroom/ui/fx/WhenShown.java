package io.headroom.ui.fx;

import javafx.beans.value.ChangeListener;
import javafx.beans.value.ObservableBooleanValue;
import javafx.collections.ObservableList;
import javafx.scene.Node;

/**
 * Fast start: a node that is hidden when the console opens (a popup list, a switcher for several
 * clusters, a banner with no incident) stays out of the scene graph until it first has to show.
 * JavaFX styles, skins and lays out every node in the scene, shown or not, so each one held back
 * is work the first frame does not do. Once in, it stays (its own visibility hides it again).
 */
public final class WhenShown {
    private WhenShown() {
    }

    /**
     * Puts {@code node} into {@code children} at {@code index} (or last, when there are fewer) now if
     * {@code showing} is true, else the first time it becomes true (on the FX thread, as it changes).
     */
    public static void insert(ObservableList<Node> children, int index, Node node, ObservableBooleanValue showing) {
        if (showing.get()) {
            children.add(Math.min(index, children.size()), node);
            return;
        }
        ChangeListener<Boolean> once = new ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Boolean> o, Boolean was, Boolean now) {
                if (now) {
                    showing.removeListener(this);
                    if (!children.contains(node)) {
                        children.add(Math.min(index, children.size()), node);
                    }
                }
            }
        };
        showing.addListener(once);
    }
}
