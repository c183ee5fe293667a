package io.headroom.ui.fx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import javafx.beans.property.SimpleStringProperty;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A tooltip given through {@link Tips} is not made with its control (no popup built for the first frame), yet
 * its words are there at once for a screen reader and for tests, and the real {@link Tooltip} with the same
 * (and following) words is installed the first time the control takes the focus or the pointer enters it.
 */
class TipsUiTest {
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void stage() throws Exception {
        FxToolkit.registerPrimaryStage();
    }

    @Test
    void madeOnFirstFocusWithTheSameWordsAndFollowingThem() throws Exception {
        Button first = new Button("First");
        Button second = new Button("Second");
        SimpleStringProperty words = new SimpleStringProperty("Freeze or unfreeze this class (F)");
        FxToolkit.setupSceneRoot(() -> {
            Tips.set(first, "Back to the default order");
            Tips.bind(second, words, t -> t.setWrapText(true));
            return new HBox(new Button("elsewhere"), first, second); // the first focus goes to "elsewhere"
        });
        FxToolkit.showStage();
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(second.getTooltip(), "no Tooltip made with the control");
        assertFalse(Tips.made(second));
        assertEquals("Freeze or unfreeze this class (F)", Tips.text(second));
        assertEquals("Freeze or unfreeze this class (F)", second.getAccessibleHelp(), "read out as the tip was");
        robot.interact(second::requestFocus);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> second.getTooltip() != null);
        assertEquals("Freeze or unfreeze this class (F)", second.getTooltip().getText());
        assertTrue(second.getTooltip().isWrapText(), "set up as asked");
        robot.interact(() -> words.set("Unfreeze this class (F)"));
        assertEquals("Unfreeze this class (F)", second.getTooltip().getText(), "follows its words once made");
        assertEquals("Unfreeze this class (F)", Tips.text(second));
        assertNull(first.getTooltip(), "the other control's tip still waits");
    }

    @Test
    void madeWhenThePointerEntersANodeThatIsNoControl() throws Exception {
        Label counts = new Label("12");
        Pane box = new Pane(counts);
        FxToolkit.setupSceneRoot(() -> {
            Tips.set(box, "Jobs waiting for capacity");
            box.setPrefSize(200, 100);
            return new HBox(new Button("elsewhere"), box);
        });
        FxToolkit.showStage();
        WaitForAsyncUtils.waitForFxEvents();
        assertNull(box.getProperties().get("javafx.scene.control.Tooltip"), "not installed yet");
        robot.moveTo(box);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> Tips.made(box));
        Object installed = box.getProperties().get("javafx.scene.control.Tooltip");
        assertTrue(installed instanceof Tooltip t && "Jobs waiting for capacity".equals(t.getText()),
                "installed with its words: " + installed);
        Tips.set(box, "Jobs waiting for capacity (changed)");
        assertSame(installed, box.getProperties().get("javafx.scene.control.Tooltip"), "one tooltip, not another");
        assertEquals("Jobs waiting for capacity (changed)", ((Tooltip) installed).getText());
    }
}
