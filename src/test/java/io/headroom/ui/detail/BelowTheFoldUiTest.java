package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.loop.TickResult;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The decision panel's foot (reasons, terms, ceilings, inputs) is left out of the console's first frame and added,
 * filled and in order, right after it (issue 28: a sixth of the first frame's nodes, below the fold at any size).
 */
class BelowTheFoldUiTest {

    @Test
    void theFootJoinsRightAfterTheFirstFrameFilledAndInOrder() throws Exception {
        org.testfx.api.FxToolkit.registerPrimaryStage();
        Clock clock = Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC);
        DetailViewModel vm = new DetailViewModel(clock, Runnable::run);
        DetailView[] view = new DetailView[1];
        Stage[] stage = new Stage[1];
        WaitForAsyncUtils.asyncFx(() -> {
            vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90)),
                    "dev", "test")));
            vm.select("a");
            view[0] = new DetailView(vm, clock);
            view[0].buildBelowTheFoldAfterFirstFrame(Platform::runLater);
            assertFalse(view[0].belowTheFoldShown(), "not in the first frame");
            assertTrue(sections(view[0]).contains("FORECAST"));
            assertFalse(sections(view[0]).contains("TERMS"));
            stage[0] = new Stage();
            stage[0].setScene(new Scene(view[0], 1280, 800));
            stage[0].show();
        }).get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> WaitForAsyncUtils.asyncFx(view[0]::belowTheFoldShown)
                .get());
        List<String> after = WaitForAsyncUtils.asyncFx(() -> sections(view[0])).get();
        assertEquals(List.of("THE WORK", "FORECAST", "PODS", "TERMS", "CEILINGS", "INPUTS"),
                after.stream().filter(List.of("THE WORK", "FORECAST", "PODS", "TERMS", "CEILINGS", "INPUTS")::contains)
                        .toList(), "the foot after PODS, in its order");
        assertTrue(WaitForAsyncUtils.asyncFx(() -> vm.terms().size()).get() > 0, "the terms are there to fill it");
        WaitForAsyncUtils.asyncFx(() -> stage[0].close()).get();
    }

    /** The section titles in the view, in order. */
    static List<String> sections(Parent root) {
        List<String> out = new java.util.ArrayList<>();
        walk(root, out);
        return out;
    }

    private static void walk(Node n, List<String> out) {
        if (n instanceof Label l && l.getStyleClass().contains(io.headroom.ui.Styles.SECTION_TITLE)) {
            out.add(l.getText());
        }
        if (n instanceof javafx.scene.control.ScrollPane sp && sp.getChildrenUnmodifiable().isEmpty()
                && sp.getContent() != null) { // no skin yet: its content is not among its children
            walk(sp.getContent(), out);
        }
        if (n instanceof Parent p) {
            for (Node c : p.getChildrenUnmodifiable()) {
                walk(c, out);
            }
        }
    }
}
