package io.headroom.ui.shell;

import javafx.animation.PauseTransition;
import javafx.scene.control.Label;
import javafx.util.Duration;

/** A transient notice over the window's corner (a freeze or an override ran out); a click dismisses it. */
public final class Toast extends Label {
    public static final String ID = "toast";
    /** How long a notice stays, in real time whatever the sandbox's speed. */
    static final Duration SHOWN_FOR = Duration.seconds(10);

    private final PauseTransition hide = new PauseTransition(SHOWN_FOR);

    public Toast() {
        setId(ID);
        getStyleClass().add("toast");
        setWrapText(true);
        setMaxWidth(420);
        setVisible(false);
        hide.setOnFinished(e -> setVisible(false));
        setOnMouseClicked(e -> {
            hide.stop();
            setVisible(false);
        });
    }

    /** Shows {@code text} (replacing what shows) for a while. */
    public void show(String text) {
        setText(text);
        setVisible(true);
        autosize();
        hide.playFromStart();
    }
}
