package io.headroom.ui.shell;

import io.headroom.ui.fx.Tips;
import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.CordonMark;
import io.headroom.cluster.NodeRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The top bar at 1280×800 warns of a node Headroom left cordoned (a console that crashed mid-drain left its
 * headroom.io/cordoned-by record): one chip, whole and in view, that opens the Nodes window; gone once uncordoned.
 */
class LeftCordonedUiTest {
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        window = ConsoleWindow.open(Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO,
                new MemoryJournal()));
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
    }

    @AfterAll
    static void close() throws Exception {
        if (window != null) {
            onFx(() -> {
                Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                        && s.getTitle().startsWith("Nodes")).map(w -> (Stage) w).toList().forEach(Stage::close);
                return null;
            });
            window.close();
        }
    }

    Button chip() throws Exception {
        return onFx(() -> robot.lookup("#" + TopBar.LEFT_CORDONED_ID).queryButton());
    }

    @Test
    void aNodeLeftCordonedShowsAChipThatOpensTheNodesWindow() throws Exception {
        onFx(() -> window.view().refreshCordonWarning()).get(30, TimeUnit.SECONDS);
        assertFalse(onFx(() -> chip().isVisible()), "nothing cordoned: no chip");

        NodeRef node = new NodeRef("sandbox", "sandbox-node-2");
        assertTrue(window.session().loop().cluster().nodes().cordon(node, true,
                new CordonMark("bob@desk/1a2b", Instant.now(), "kernel upgrade", "n-7")).ok());
        onFx(() -> window.view().refreshCordonWarning()).get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> chip().isVisible()));
        assertEquals("1 node left cordoned by Headroom", onFx(() -> chip().getText()));
        // Whole and in view at 1280 px: not clipped by the status group, not squeezed into "…". Laid out
        // as the next pulse lays it out: the chip has just become visible, and a read in the same turn
        // would measure it before any layout gave it its width.
        onFx(() -> {
            chip().getScene().getRoot().applyCss();
            chip().getScene().getRoot().layout();
            return null;
        });
        Bounds b = onFx(() -> chip().localToScene(chip().getBoundsInLocal()));
        double width = onFx(() -> chip().getScene().getWidth());
        assertTrue(b.getMaxX() <= width, "chip ends at " + b.getMaxX() + " of " + width);
        Bounds group = onFx(() -> chip().getParent().localToScene(chip().getParent().getBoundsInLocal()));
        assertTrue(b.getMaxX() <= group.getMaxX() + 0.5, "inside its group (not clipped): " + b + " in " + group);
        assertTrue(onFx(() -> chip().getWidth() >= chip().prefWidth(-1) - 0.5), "not squeezed");
        assertTrue(onFx(() -> Tips.text(chip())).contains("cordoned by bob@desk/1a2b"));

        robot.clickOn(chip());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> Window.getWindows().stream().anyMatch(
                w -> w instanceof Stage s && s.isShowing() && s.getTitle() != null
                        && s.getTitle().startsWith("Nodes — sandbox"))));

        assertTrue(window.session().supervisor().uncordon(node, "done").get(30, TimeUnit.SECONDS).ok());
        onFx(() -> window.view().refreshCordonWarning()).get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> !chip().isVisible()));
    }
}
