package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import javafx.geometry.Bounds;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;

/** A focused control in a scroll pane is brought into view whole, with room for its ring, and no further. */
class FocusRevealUiTest {

    @Test
    void aControlFocusedBelowTheFoldOrAtItsEdgeIsShownWholeWithItsRing() throws Exception {
        FxToolkit.registerPrimaryStage();
        Object[] made = onFx(() -> {
            Button top = new Button("top");
            Region gap = new Region();
            gap.setMinHeight(600);
            Button below = new Button("Drain…");
            Region after = new Region();
            after.setMinHeight(600);
            VBox content = new VBox(top, gap, below, after);
            ScrollPane scroll = new ScrollPane(content);
            scroll.setFitToWidth(true);
            FocusReveal.install(scroll);
            Stage stage = new Stage();
            stage.setScene(new Scene(scroll, 300, 200));
            stage.show();
            return new Object[] {stage, scroll, top, below};
        });
        Stage stage = (Stage) made[0];
        ScrollPane scroll = (ScrollPane) made[1];
        Button top = (Button) made[2];
        Button below = (Button) made[3];
        try {
            onFx(() -> {
                top.requestFocus();
                scroll.layout();
                return null;
            });
            assertEquals(0, onFx(scroll::getVvalue), 1e-9, "the first control is in view: nothing moves");
            onFx(() -> {
                below.requestFocus();
                scroll.layout();
                return null;
            });
            Bounds shown = onFx(() -> scroll.sceneToLocal(below.localToScene(below.getLayoutBounds())));
            Bounds viewport = onFx(scroll::getViewportBounds);
            assertTrue(shown.getMinY() >= FocusReveal.MARGIN - 0.5 && shown.getMaxY() <= viewport.getHeight()
                    - FocusReveal.MARGIN + 0.5 + scroll.getPadding().getTop(), "whole, with its ring's room: " + shown);
            assertTrue(shown.getMaxY() >= viewport.getHeight() - FocusReveal.MARGIN - 1,
                    "scrolled only as far as needed, to the bottom edge: " + shown);
        } finally {
            onFx(() -> {
                stage.hide();
                return null;
            });
        }
    }
}
