package io.headroom.ui.shell;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.fx.FxExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Closing the console with classes held asks, per class, to hand back or keep the pause: one class is
 * handed back (its freeze lifted, journaled), the other kept (journaled with its end); the sandbox cannot
 * write a pause into a cluster, and the dialog says so before the console goes. With nothing held, the
 * console closes at once.
 */
class ExitDialogUiTest {
    final FxRobot robot = new FxRobot();
    final MemoryJournal journal = new MemoryJournal();
    final CompletableFuture<Void> exited = new CompletableFuture<>();
    ConsoleWindow console;
    Session session;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    void open() throws Exception {
        session = Session.sandbox(5, Instant.now(), Duration.ofMinutes(2), journal);
        session.warmUp(Duration.ofMinutes(2));
        console = ConsoleWindow.open(session);
        onFx(() -> {
            ExitDialog.guard(stage(), () -> session, FxExecutor.get(), () -> exited.complete(null));
            return null;
        });
    }

    Stage stage() {
        return (Stage) console.view().getScene().getWindow();
    }

    void requestClose() throws Exception {
        onFx(() -> {
            stage().fireEvent(new WindowEvent(stage(), WindowEvent.WINDOW_CLOSE_REQUEST));
            return null;
        });
    }

    List<JournalRecord> journaled(JournalRecord.Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    @Test
    void heldClassesAreHandedBackOrKeptAsChosenAndAFailureIsSaidBeforeTheConsoleGoes() throws Exception {
        open();
        assertTrue(session.supervisor().freeze("payments-steady", Duration.ofMinutes(30), "incident 812")
                .get(10, TimeUnit.SECONDS).ok());
        Instant pinEnd = session.clock().instant().plus(Duration.ofMinutes(45));
        assertTrue(session.supervisor().setOverride("search-interactive", 4, pinEnd, "reindex")
                .get(10, TimeUnit.SECONDS).ok());

        requestClose();
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#"
                + ExitDialog.KEEP_PREFIX + "search-interactive").tryQuery().isPresent()));
        assertFalse(exited.isDone(), "the console waits for the operator");
        assertTrue(onFx(() -> robot.lookup("#" + ExitDialog.HAND_BACK_PREFIX + "payments-steady")
                .queryAs(javafx.scene.control.RadioButton.class).isSelected()), "hand back is the default");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_PREFIX + "search-interactive"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));

        // The sandbox keeps nothing once the console is gone: said, and the console waits for a second click.
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#" + ExitDialog.STATUS_ID)
                .queryAs(Labeled.class).getText().contains("cannot keep a pause after the console exits")));
        assertFalse(exited.isDone());
        assertNull(session.supervisor().state().of("payments-steady").freeze(), "handed back: the freeze is lifted");
        assertNotNull(session.supervisor().state().of("search-interactive").override(), "kept: the pin stands");
        JournalRecord back = journaled(JournalRecord.Kind.HANDED_BACK).get(0);
        assertEquals("payments-steady", back.className());
        assertTrue(back.reason().startsWith("handed back at exit: frozen until"), back.reason());
        JournalRecord kept = journaled(JournalRecord.Kind.PAUSE_KEPT).get(0);
        assertEquals("search-interactive", kept.className());
        assertEquals(pinEnd, kept.until());

        assertEquals("Close the console", onFx(() -> robot.lookup("#" + ExitDialog.EXIT_ID).queryButton().getText()));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));
        exited.get(10, TimeUnit.SECONDS);
    }

    @Test
    void withNothingHeldTheConsoleClosesAtOnce() throws Exception {
        open();
        requestClose();
        exited.get(10, TimeUnit.SECONDS);
        assertTrue(journaled(JournalRecord.Kind.HANDED_BACK).isEmpty());
        assertFalse(onFx(() -> robot.lookup("#" + ExitDialog.EXIT_ID).tryQuery().isPresent()));
    }

    @Test
    void ctrlQAsksTheSameAsClosingTheWindow() throws Exception {
        open();
        assertTrue(session.supervisor().freeze("payments-steady", Duration.ofMinutes(30), "incident 812")
                .get(10, TimeUnit.SECONDS).ok());
        onFx(() -> {
            stage().requestFocus();
            return null;
        });
        robot.press(KeyCode.CONTROL).press(KeyCode.Q).release(KeyCode.Q).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#"
                + ExitDialog.HAND_BACK_PREFIX + "payments-steady").tryQuery().isPresent()));
        assertFalse(exited.isDone(), "Ctrl+Q waits for the operator, as closing the window does");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));
        exited.get(10, TimeUnit.SECONDS);
        assertEquals("payments-steady", journaled(JournalRecord.Kind.HANDED_BACK).get(0).className());
    }

    @Test
    void ctrlQWithNothingHeldClosesAtOnce() throws Exception {
        open();
        onFx(() -> {
            stage().requestFocus();
            return null;
        });
        robot.press(KeyCode.CONTROL).press(KeyCode.Q).release(KeyCode.Q).release(KeyCode.CONTROL);
        exited.get(10, TimeUnit.SECONDS);
    }

    @Test
    void cancelKeepsTheConsoleOpenAndChangesNothing() throws Exception {
        open();
        assertTrue(session.supervisor().setMode("enrichment", io.headroom.supervise.Mode.AUTO)
                .get(10, TimeUnit.SECONDS).ok());
        requestClose();
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#" + ExitDialog.CANCEL_ID)
                .tryQuery().isPresent()));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.CANCEL_ID));
        assertFalse(exited.isDone());
        assertEquals(io.headroom.supervise.Mode.AUTO, session.supervisor().state().of("enrichment").mode());
        assertTrue(journaled(JournalRecord.Kind.HANDED_BACK).isEmpty());
    }
}
