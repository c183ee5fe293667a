package io.headroom.ui.shell;

import io.headroom.ui.fx.Tips;
import javafx.beans.value.ObservableValue;
import javafx.scene.control.Label;
import javafx.scene.control.OverrunStyle;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;

/**
 * A line of the shell's strips (incident banner, event strip): it takes the room its row leaves,
 * ends in "…" where it does not fit, and shows the whole text on hover, so nothing is lost at a
 * narrow window.
 */
final class OneLine {

    private OneLine() {
    }

    /** A label showing {@code text}, with {@code styleClass}, for an {@link HBox} row. */
    static Label of(ObservableValue<String> text, String styleClass) {
        Label label = new Label();
        label.getStyleClass().add(styleClass);
        label.textProperty().bind(text);
        label.setMinWidth(0);
        label.setMaxWidth(Double.MAX_VALUE);
        label.setTextOverrun(OverrunStyle.ELLIPSIS);
        Tips.bind(label, label.textProperty());
        HBox.setHgrow(label, Priority.ALWAYS);
        return label;
    }
}
