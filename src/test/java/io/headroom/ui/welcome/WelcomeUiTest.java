package io.headroom.ui.welcome;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.session.Session;
import io.headroom.session.Settings;
import io.headroom.ui.HeadroomApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The first run (issue 16) in the real application: with no settings file the sandbox opens as
 * promised and the welcome shows over it; its answer is remembered, so the next start goes straight
 * to the console. Saved settings (an earlier version's too) never show it.
 */
class WelcomeUiTest {
    @TempDir
    Path dir;
    Application app;
    final FxRobot robot = new FxRobot();

    HeadroomApp start(Path settings) throws Exception {
        FxToolkit.registerPrimaryStage();
        // Real time: the welcome is about the first run, not the sandbox's pace; at 60× the sandbox's ticks
        // kept the FX thread busy while the test waited on it.
        app = FxToolkit.setupApplication(HeadroomApp.class, "--speed=1", "--settings=" + settings,
                "--journal=" + dir.resolve("journal.jsonl"));
        return (HeadroomApp) app;
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app);
        }
        FxToolkit.setupStage(Stage::hide);
    }

    /** On the FX thread, which the sandbox's warm-up keeps busy on a loaded machine: a generous deadline. */
    static <T> T fx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

    boolean showing(String id) throws Exception {
        return fx(() -> robot.lookup("#" + id).tryQuery().map(n -> n.getScene().getWindow().isShowing())
                .orElse(false));
    }

    @Test
    void aFirstRunWelcomesOverTheRunningSandboxAndTheTourIsRemembered() throws Exception {
        Path settings = dir.resolve("config/settings.json");
        HeadroomApp headroom = start(settings);
        Session session = headroom.ready().get(60, TimeUnit.SECONDS);
        assertTrue(session.isSandbox(), "nothing configured: the sandbox, as the README promises");
        WelcomeView welcome = headroom.welcomeShown().get(60, TimeUnit.SECONDS);
        assertTrue(showing(WelcomeView.TOUR_ID));
        assertTrue(showing(WelcomeView.OPEN_ID) && showing(WelcomeView.IMPORT_ID), "three choices");
        assertFalse(Files.exists(settings), "nothing is saved before the operator answers");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + WelcomeView.TOUR_ID));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> Files.exists(settings));
        assertFalse(fx(() -> welcome.stage().isShowing()), "one click dismisses it");
        Settings saved = Settings.load(settings);
        assertTrue(saved.welcomed(), "remembered");
        assertNull(saved.workloadsFile(), "the tour is the sandbox");
        assertTrue(headroom.session() == session, "the sandbox behind it kept running, not reopened");
    }

    @Test
    void savedSettingsNeverWelcome() throws Exception {
        Path settings = dir.resolve("settings.json");
        Files.writeString(settings, "{\"workloadsFile\": null}\n"); // written before the welcome existed
        HeadroomApp headroom = start(settings);
        headroom.ready().get(60, TimeUnit.SECONDS);
        // The welcome would show on the FX thread right where the session is started after the console's
        // first frame; the session going live (CONSOLE_OPENED in its journal) comes after that.
        Path journal = dir.resolve("journal.jsonl");
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> Files.exists(journal) && Files.readString(journal).contains("CONSOLE_OPENED"));
        WaitForAsyncUtils.waitForFxEvents();
        assertFalse(headroom.welcomeShown().isDone());
        assertFalse(showing(WelcomeView.TOUR_ID));
    }
}
