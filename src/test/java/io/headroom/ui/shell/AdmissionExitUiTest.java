package io.headroom.ui.shell;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.fx.FxExecutor;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.RadioButton;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * At exit the console asks about the admission it published (design.md §2b): expire now is the default, set
 * OPEN writes an OPEN entry for hours, journaled as a hand-back; with nothing published it exits at once.
 */
class AdmissionExitUiTest {
    static final String CLS = "search-interactive";
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
    }

    void ask() throws Exception {
        onFx(() -> {
            Stage stage = (Stage) console.view().getScene().getWindow();
            AdmissionExitDialog.ask(stage, () -> session, FxExecutor.get(), () -> exited.complete(null));
            return null;
        });
    }

    WorkloadRef target() {
        return session.loop().classes().stream().filter(c -> c.name().equals(CLS)).findFirst().orElseThrow().target();
    }

    AdmissionEntry published() {
        return session.loop().cluster().admissions().published(target(), CLS).orElse(null);
    }

    /** Publishes the class's admission (auto mode, the sandbox sped up until it is there). */
    void publish() throws Exception {
        session.supervisor().setAdmissionPolicies(Map.of(CLS, AdmissionPolicy.onMissing(true, "conservative")));
        assertTrue(session.supervisor().setMode(CLS, Mode.AUTO).get(10, TimeUnit.SECONDS).ok());
        session.setSpeed(10);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> published() != null);
        session.setSpeed(1);
    }

    /** A click on the window's close box: true when the console held the close (to ask), false when it let it close. */
    boolean closeWindow() throws Exception {
        return onFx(() -> {
            Stage stage = (Stage) console.view().getScene().getWindow();
            javafx.stage.WindowEvent e = new javafx.stage.WindowEvent(stage, javafx.stage.WindowEvent.WINDOW_CLOSE_REQUEST);
            stage.getOnCloseRequest().handle(e);
            return e.isConsumed();
        });
    }

    boolean asked() throws Exception {
        return onFx(() -> robot.lookup("#" + AdmissionExitDialog.CANCEL_ID).tryQuery().isPresent());
    }

    /**
     * Issue 30: the admission question cancelled once, the next close asked nothing and exited (the hand-back
     * step had already counted the console as exiting). Auto mode is a hold by hand, so the hand-back asks first;
     * the class is set back to supervised there so only admission is left to ask about.
     */
    @Test
    void cancellingTheAdmissionQuestionAsksAgainAtTheNextClose() throws Exception {
        open();
        publish();
        assertTrue(session.supervisor().setMode(CLS, Mode.SUPERVISED).get(10, TimeUnit.SECONDS).ok());
        onFx(() -> {
            Stage stage = (Stage) console.view().getScene().getWindow();
            ExitDialog.guard(stage, () -> session, FxExecutor.get(), go -> AdmissionExitDialog.ask(stage,
                    () -> session, FxExecutor.get(), go), () -> exited.complete(null)); // as HeadroomApp
            return null;
        });

        assertTrue(closeWindow());
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, this::asked);
        robot.clickOn(ConsoleWindow.find(robot, "#" + AdmissionExitDialog.CANCEL_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !asked());
        assertFalse(exited.isDone(), "cancelled: the console stays");

        assertTrue(closeWindow(), "the second close is held to ask again, not let through to close the window");
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, this::asked);
        assertFalse(exited.isDone());
        robot.clickOn(ConsoleWindow.find(robot, "#" + AdmissionExitDialog.EXIT_ID));
        exited.get(15, TimeUnit.SECONDS);
        assertTrue(published().expired(session.clock().instant()), "expired now, the default");
    }

    @Test
    void withNothingPublishedTheConsoleExitsAtOnce() throws Exception {
        open();
        ask();
        exited.get(10, TimeUnit.SECONDS);
    }

    @Test
    void publishedAdmissionIsSetOpenAsChosenAndJournaled() throws Exception {
        open();
        session.supervisor().setAdmissionPolicies(Map.of(CLS, AdmissionPolicy.onMissing(true, "conservative")));
        assertTrue(session.supervisor().setMode(CLS, Mode.AUTO).get(10, TimeUnit.SECONDS).ok());
        session.setSpeed(10);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> published() != null);
        session.setSpeed(1); // the exit's hold on the class lasts a minute of the session's time

        ask();
        WaitForAsyncUtils.waitFor(15, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#"
                + AdmissionExitDialog.OPEN_PREFIX + CLS).tryQuery().isPresent()));
        assertFalse(exited.isDone(), "the console waits for the operator");
        assertTrue(onFx(() -> robot.lookup("#" + AdmissionExitDialog.EXPIRE_PREFIX + CLS)
                .queryAs(RadioButton.class).isSelected()), "expire now is the default");

        robot.clickOn(ConsoleWindow.find(robot, "#" + AdmissionExitDialog.OPEN_PREFIX + CLS));
        robot.clickOn(ConsoleWindow.find(robot, "#" + AdmissionExitDialog.EXIT_ID));
        exited.get(15, TimeUnit.SECONDS);

        AdmissionEntry open = published();
        assertEquals(AdmissionVerdict.State.OPEN, open.state());
        assertTrue(open.expiresAt().isAfter(session.clock().instant().plus(Duration.ofHours(3))), open.toString());
        assertTrue(journal.replay().records().stream().anyMatch(r -> r.kind() == JournalRecord.Kind.HANDED_BACK
                && CLS.equals(r.className()) && r.detail().startsWith("admission set OPEN")));
    }
}
