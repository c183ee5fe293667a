package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Launcher;
import io.headroom.session.Session;
import io.headroom.ui.shell.ConfigProblemView;
import io.headroom.ui.shell.MainView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.layout.Background;
import javafx.scene.paint.Paint;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console's start, in the real application: every scene the window shows is dark from its first
 * frame, and a workloads file with errors asks the operator instead of silently opening the sandbox
 * (issue 11, "Errors in plain words").
 */
class StartUpUiTest {
    @TempDir
    Path dir;
    Application app;
    final FxRobot robot = new FxRobot();

    /** One scene the stage was given, as it was at that moment: before it could paint. */
    record Painted(String root, Paint fill, List<String> classes, Paint background) {
    }

    HeadroomApp start(String... extra) throws Exception {
        // Real time: these tests are about the start, and a console ticking at 60× kept the FX thread busy
        // (a tick's redraw every 83 ms) while each test's clean-up waited for it.
        List<String> args = new java.util.ArrayList<>(List.of("--speed=1",
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir), // not a first run: no welcome
                "--journal=" + dir.resolve("journal.jsonl")));
        args.addAll(List.of(extra));
        app = FxToolkit.setupApplication(HeadroomApp.class, args.toArray(String[]::new));
        return (HeadroomApp) app;
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app);
        }
        FxToolkit.setupStage(Stage::hide); // as the other UI tests leave it: the next one shows its own scene
    }

    @Test
    void everySceneTheWindowShowsIsDarkBeforeItPaints() throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        List<Painted> painted = new CopyOnWriteArrayList<>();
        List<Scene> scenes = new CopyOnWriteArrayList<>();
        // Each root the window shows, as it is when it is put in (before a pulse paints it): the
        // window keeps one scene and swaps its root, so both the scene and its root are watched.
        javafx.beans.value.ChangeListener<javafx.scene.Parent> rootRecord = (o, old, root) ->
                record(root.getScene() != null ? root.getScene() : stage.getScene(), painted);
        javafx.beans.value.ChangeListener<Scene> record = (o, old, scene) -> {
            if (scene != null) {
                scenes.add(scene);
                scene.rootProperty().addListener(rootRecord);
                record(scene, painted);
            }
        };
        // A real launch starts with an empty window; an earlier test class in this JVM may have left its
        // console's scene on TestFX's shared stage, which the app would then reuse without a new scene.
        FxToolkit.setupFixture(() -> {
            stage.setScene(null);
            stage.getIcons().clear(); // an earlier test's console may have given this shared stage its icon
            stage.sceneProperty().addListener(record);
        });
        HeadroomApp headroom = start();
        headroom.ready().get(60, TimeUnit.SECONDS);
        FxToolkit.setupFixture(() -> {
            stage.sceneProperty().removeListener(record);
            scenes.forEach(s -> s.rootProperty().removeListener(rootRecord));
        });
        assertTrue(painted.size() >= 2, "a placeholder at once, then the console: " + painted);
        assertEquals(1, scenes.size(), "one scene: its stylesheets are parsed once, the console swaps its root");
        assertEquals("StackPane", painted.get(0).root(), "the window shows before the session is open");
        assertEquals("MainView", painted.get(painted.size() - 1).root());
        for (Painted p : painted) {
            assertEquals(Styles.DARK_BACKGROUND, p.fill(), "no white behind the root: " + p);
            assertTrue(p.classes().contains(Styles.THEME_DARK), p.toString());
            assertEquals(Styles.DARK_BACKGROUND, p.background(), "the root's own background: " + p);
        }
    }

    @Test
    void aSessionOpenedWhileJavaFxStartedIsTheFirstSceneTheWindowShows() throws Exception {
        Stage stage = FxToolkit.registerPrimaryStage();
        List<Painted> painted = new CopyOnWriteArrayList<>();
        javafx.beans.value.ChangeListener<Scene> record = (o, old, scene) -> {
            if (scene != null) {
                scene.rootProperty().addListener((r, was, root) -> record(scene, painted));
                record(scene, painted);
            }
        };
        FxToolkit.setupFixture(() -> {
            stage.setScene(null);
            stage.sceneProperty().addListener(record);
        });
        // As Console.launch does: the session begins opening before the application starts; here it is
        // open by then (the sandbox usually is, on a real start, before JavaFX's toolkit is up).
        String[] args = {"--speed=60", "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl")};
        EarlyOpening.begin(args);
        EarlyOpening early = EarlyOpening.pending();
        assertTrue(early != null, "the opening began");
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, early::opened);
        app = FxToolkit.setupApplication(HeadroomApp.class, args);
        Session session = ((HeadroomApp) app).ready().get(60, TimeUnit.SECONDS);
        FxToolkit.setupFixture(() -> stage.sceneProperty().removeListener(record));
        assertTrue(session.isSandbox());
        assertNull(EarlyOpening.pending(), "the application took the opening begun for it");
        assertEquals(1, painted.size(), "no \"Opening …\" placeholder before the console: " + painted);
        Painted first = painted.get(0);
        assertEquals("MainView", first.root());
        assertEquals(Styles.DARK_BACKGROUND, first.fill(), "no white behind the root: " + first);
        assertTrue(first.classes().contains(Styles.THEME_DARK), first.toString());
        assertEquals(Styles.DARK_BACKGROUND, first.background(), "the root's own background: " + first);
        java.util.concurrent.Callable<Boolean> showing = stage::isShowing;
        assertTrue(FxToolkit.setupFixture(showing), "the window shows");
        // Its icon is decoded off the FX thread (not on the first frame's path) and given to the window after.
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> FxToolkit.setupFixture(() -> stage.getIcons().size() == 1
                && stage.getIcons().get(0).getWidth() == 64));
    }

    private static void record(Scene scene, List<Painted> painted) {
        scene.getRoot().applyCss(); // what the first frame will draw
        Background bg = ((javafx.scene.layout.Region) scene.getRoot()).getBackground();
        painted.add(new Painted(scene.getRoot().getClass().getSimpleName(), scene.getFill(),
                List.copyOf(scene.getRoot().getStyleClass()),
                bg == null || bg.getFills().isEmpty() ? null : bg.getFills().get(0).getFill()));
    }

    @Test
    void theDarkFillIsTheTokensBackground() throws Exception {
        String tokens = Files.readString(Path.of("styles/tokens.css"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("-hr-bg:\\s*(#[0-9a-fA-F]{6});").matcher(tokens);
        assertTrue(m.find(), "the dark theme's -hr-bg comes first in tokens.css");
        assertEquals(javafx.scene.paint.Color.web(m.group(1)), Styles.DARK_BACKGROUND);
    }

    @Test
    void aWorkloadsFileWithASyntaxErrorAsksInsteadOfOpeningTheSandbox() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:9090"}
                classes:
                  - name: [payments
                """);
        FxToolkit.registerPrimaryStage();
        HeadroomApp headroom = start("--config=" + workloads);
        Launcher.Rejected rejected = headroom.rejected().get(30, TimeUnit.SECONDS);
        assertEquals(workloads, rejected.file());
        Label problems = ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.PROBLEMS_ID).queryAs(Label.class));
        assertTrue(ConsoleWindow.onFx(problems::getText).startsWith("workloads.yaml:4: malformed YAML"),
                ConsoleWindow.onFx(problems::getText));
        assertNull(headroom.session(), "nothing opened while the operator decides");
        assertFalse(headroom.ready().isDone());

        // Edited, reloaded, still wrong: the new errors show.
        Files.writeString(workloads, "classes: 12\n");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConfigProblemView.RELOAD_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> ConsoleWindow.onFx(() -> robot
                .lookup("#" + ConfigProblemView.PROBLEMS_ID).queryAs(Label.class).getText())
                .contains("workloads.yaml:1: classes: expected a list, got a number (12)"));

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConfigProblemView.SANDBOX_ID));
        Session s = headroom.ready().get(60, TimeUnit.SECONDS);
        assertTrue(s.isSandbox(), "the sandbox, because the operator chose it");
        Scene scene = ConsoleWindow.onFx(() -> robot.window(0).getScene());
        String warning = ConsoleWindow.onFx(() -> ((MainView) scene.getRoot()).viewModel().warningProperty().get());
        assertTrue(warning.startsWith("Workloads file rejected: workloads.yaml:1: "), warning);
    }

    @Test
    void theQuestionsButtonsAndKeys() throws Exception {
        FxToolkit.registerPrimaryStage();
        List<String> chosen = new CopyOnWriteArrayList<>();
        ConfigProblemView[] view = new ConfigProblemView[1];
        Stage own = ConsoleWindow.onFx(Stage::new); // its own window: the primary stage keeps the console's size
        try {
            questions(own, view, chosen);
        } finally {
            FxToolkit.setupFixture(own::close);
        }
    }

    private void questions(Stage stage, ConfigProblemView[] view, List<String> chosen) throws Exception {
        FxToolkit.setupFixture(() -> {
            Stage s = stage;
            view[0] = new ConfigProblemView(dir.resolve("w.yaml"), List.of("w.yaml:3: classes[0].name: required"));
            view[0].setOnSandbox(() -> chosen.add("sandbox"));
            view[0].setOnEdit(() -> chosen.add("edit"));
            view[0].setOnReload(() -> chosen.add("reload"));
            view[0].setOnQuit(() -> chosen.add("quit"));
            Scene scene = new Scene(view[0], 800, 400);
            Styles.install(scene);
            s.setScene(scene);
            s.show();
            s.toFront();
        });
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConfigProblemView.QUIT_ID));
        assertEquals(List.of("quit"), chosen);
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConfigProblemView.EDIT_ID));
        assertEquals(List.of("quit", "edit"), chosen);
        assertTrue(ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.RELOAD_ID)
                .queryButton().isDefaultButton()), "after editing, Enter reloads");
        robot.type(javafx.scene.input.KeyCode.ESCAPE);
        assertEquals(List.of("quit", "edit", "quit"), chosen, "Escape quits");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConfigProblemView.SANDBOX_ID));
        assertEquals("sandbox", chosen.get(chosen.size() - 1));
        assertTrue(ConsoleWindow.onFx(() -> robot.lookup("#" + ConfigProblemView.SANDBOX_ID).queryButton().isDisabled()),
                "chosen once: no second session while the first opens");
    }
}
