package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.HeadroomApp;
import io.headroom.ui.supervise.ClassControls;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The class's actions are disabled until there is a decision to act on: not enabled while the
 * console waits for its first control tick (issue 11, "Errors in plain words").
 */
class ActionsWaitForADecisionUiTest {
    final FxRobot robot = new FxRobot();
    Session session;
    MainView view;

    @AfterEach
    void close() throws Exception {
        FxToolkit.setupStage(s -> {
            if (view != null) {
                view.dispose();
            }
            s.hide();
        });
        session.close();
    }

    boolean disabled(String id) throws Exception {
        return ConsoleWindow.onFx(() -> robot.lookup("#" + id).queryButton().isDisabled());
    }

    @Test
    void theClassActionsAreDisabledUntilTheFirstDecision() throws Exception {
        session = Session.sandbox(7, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(1), new MemoryJournal());
        FxToolkit.registerPrimaryStage();
        FxToolkit.setupStage(s -> view = HeadroomApp.show(s, session));
        WaitForAsyncUtils.waitForFxEvents();
        assertTrue(disabled(ClassControls.FREEZE_ID), "no tick yet: nothing to freeze");
        assertTrue(disabled(ClassControls.OVERRIDE_ID));
        assertTrue(disabled(ClassControls.DRAIN_ID));

        session.startAsync(Duration.ofSeconds(30));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !disabled(ClassControls.FREEZE_ID));
        assertTrue(!disabled(ClassControls.OVERRIDE_ID), "a decision: the class's actions are enabled");
    }
}
