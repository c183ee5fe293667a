package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Styles;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javafx.scene.Node;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The workloads file's errors (issue 28): "Edit the file" never does nothing visible (a desktop without an
 * editor ignores the request): it shows the file's path with a button that copies it; and Enter reads the
 * file again rather than opening the sandbox, so a file fixed in the operator's own editor comes up.
 */
class ConfigProblemViewUiTest {
    @TempDir
    Path dir;
    final FxRobot robot = new FxRobot();
    final List<String> chosen = new CopyOnWriteArrayList<>();
    Stage own;

    @AfterEach
    void close() throws Exception {
        if (own != null) {
            FxToolkit.setupFixture(own::close);
        }
    }

    void show() throws Exception {
        FxToolkit.registerPrimaryStage();
        own = ConsoleWindow.onFx(Stage::new);
        FxToolkit.setupFixture(() -> {
            ConfigProblemView v = new ConfigProblemView(dir.resolve("w.yaml"), List.of("w.yaml:3: classes[0].name: required"));
            v.setOnSandbox(() -> chosen.add("sandbox"));
            v.setOnEdit(() -> chosen.add("edit")); // as on a desktop with no editor: nothing else happens
            v.setOnReload(() -> chosen.add("reload"));
            v.setOnQuit(() -> chosen.add("quit"));
            Scene scene = new Scene(v, 1000, 480);
            Styles.install(scene);
            own.setScene(scene);
            own.show();
            own.toFront();
        });
        robot.targetWindow(own);
    }

    @Test
    void editTheFileShowsThePathAndCopiesIt() throws Exception {
        show();
        assertFalse(ConsoleWindow.onFx(() -> shown(robot.lookup("#" + ConfigProblemView.PATH_ID).query())));
        robot.clickOn(ConsoleWindow.find(robot, "#" + ConfigProblemView.EDIT_ID));
        assertEquals(List.of("edit"), chosen);
        assertTrue(ConsoleWindow.onFx(() -> shown(robot.lookup("#" + ConfigProblemView.PATH_ID).query())
                && shown(robot.lookup("#" + ConfigProblemView.COPY_ID).query())), "the path and its copy button");
        String path = dir.resolve("w.yaml").toAbsolutePath().toString();
        String status = ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.STATUS_ID).queryAs(Label.class)
                .getText());
        assertTrue(status.contains(path) && status.contains("If none opens"), status);
        assertEquals(path, ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.PATH_ID)
                .queryAs(javafx.scene.control.TextField.class).getText()));
        Node copy = ConsoleWindow.find(robot, "#" + ConfigProblemView.COPY_ID);
        robot.clickOn(copy);
        assertEquals(path, ConsoleWindow.onFx(() -> javafx.scene.input.Clipboard.getSystemClipboard().getString()));
        assertTrue(ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.STATUS_ID).queryAs(Label.class)
                .getText()).startsWith("Copied " + path), "says it was copied");
    }

    /** Visible with every parent: on screen. */
    static boolean shown(Node n) {
        for (Node x = n; x != null; x = x.getParent()) {
            if (!x.isVisible()) {
                return false;
            }
        }
        return n.getScene() != null;
    }

    @Test
    void enterReadsTheFileAgainNeverTheSandbox() throws Exception {
        show();
        robot.clickOn(ConsoleWindow.find(robot, "#" + ConfigProblemView.PROBLEMS_ID));
        robot.type(KeyCode.ENTER);
        assertEquals(List.of("reload"), chosen, "Enter reloads the file: the sandbox takes its own click");
    }
}
