package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.ui.shell.EventStrip;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.supervise.Dialogs;
import io.headroom.ui.supervise.InboxView;
import io.headroom.ui.supervise.ProposalRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: reject asks why, from the {@code R} key and from the card's Reject button; the typed reason
 * reaches the journal's reason field, the event list and the event strip; an empty one keeps "rejected
 * by the operator"; Cancel rejects nothing. Proposals are held by a hand-moved wall ticker, so one stays
 * put while a test acts on it.
 */
class RejectReasonUiTest {
    static final AtomicLong wall = new AtomicLong();
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Session session = Session.sandbox(28, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2),
                new MemoryJournal());
        session.supervisor().holdProposals(Duration.ofSeconds(10), wall::get);
        session.setSpeed(60);
        window = ConsoleWindow.open(session);
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    @AfterEach
    void closeWhatIsOpen() throws Exception {
        ConsoleDialogs.closeOthers(view());
    }

    static MainView view() {
        return window.view();
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    static List<JournalRecord> journal() {
        return window.session().journal().history().records();
    }

    static ProposalRow aProposal() throws Exception {
        AtomicReference<ProposalRow> seen = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> {
            seen.set(onFx(() -> view().supervisionViewModel().pending().stream().findFirst().orElse(null)));
            return seen.get() != null;
        });
        return seen.get();
    }

    static void show(String cls) throws Exception {
        ConsoleDialogs.show(view(), cls);
    }

    /** The reason field of the reject dialog, once it shows, with the robot aimed at its window. */
    TextField reasonField() throws Exception {
        return ConsoleDialogs.field(robot, view(), Dialogs.REASON_ID);
    }

    static JournalRecord rejection(ProposalRow p) throws Exception {
        AtomicReference<JournalRecord> r = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            r.set(journal().stream().filter(x -> x.kind() == Kind.REJECTED && p.id().equals(x.proposalId()))
                    .findFirst().orElse(null));
            return r.get() != null;
        });
        return r.get();
    }

    void focusConsole() throws Exception {
        robot.targetWindow(view().getScene().getWindow());
        robot.clickOn(ConsoleWindow.find(robot, "#" + ClassControls.STATE_ID));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    void rAsksWhyAndTheTypedReasonReachesTheJournalTheEventsAndTheStrip() throws Exception {
        ProposalRow p = aProposal();
        show(p.className());
        focusConsole();
        Typing.keys(robot, KeyCode.R);
        TextField reason = reasonField();
        Window dialog = onFx(() -> reason.getScene().getWindow());
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.REJECTED && p.id().equals(r.proposalId())),
                "nothing rejected before asked");
        Typing.write(robot, "batch window, leave it");
        Typing.keys(robot, KeyCode.ENTER); // Reject is the default button
        JournalRecord r = rejection(p);
        assertEquals("batch window, leave it", r.reason(), "the reason is the journal entry's own field");
        assertEquals(p.className(), r.className());
        String said = "Rejected " + p.className() + " " + p.from() + " → " + p.to() + " (batch window, leave it)";
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().eventsViewModel().events().stream()
                .anyMatch(e -> e.text().contains(said))));
        Label headline = onFx(() -> (Label) view().lookup("#" + EventStrip.HEADLINE_ID));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(headline::getText).contains(said));
        assertTrue(onFx(() -> !dialog.isShowing()), "the dialog closed");
    }

    @Test
    void theRejectButtonAsksTooCancelRejectsNothingAndAnEmptyReasonSaysRejectedByTheOperator() throws Exception {
        ProposalRow p = aProposal();
        // The other classes observe meanwhile: no new card moves p's under the pointer on its way to the button.
        List<String> others = window.session().loop().classes().stream().map(c -> c.name())
                .filter(n -> !n.equals(p.className())).toList();
        java.util.Map<String, Mode> was = new java.util.HashMap<>();
        for (String other : others) {
            was.put(other, window.session().supervisor().state().of(other).mode());
            window.session().supervisor().setMode(other, Mode.OBSERVE).get(10, TimeUnit.SECONDS);
        }
        try {
            rejectByTheButton(p);
        } finally {
            for (String other : others) {
                window.session().supervisor().setMode(other, was.get(other)).get(10, TimeUnit.SECONDS);
            }
        }
    }

    void rejectByTheButton(ProposalRow p) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().supervisionViewModel().pending()
                .stream().allMatch(r -> r.className().equals(p.className()))));
        show(p.className());
        robot.targetWindow(view().getScene().getWindow());
        Button reject = rejectButtonOf(p);
        robot.clickOn(centreOf(p));
        try {
            reasonField();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no dialog after a click on " + onFx(() -> reject.localToScreen(
                    reject.getBoundsInLocal()) + " visible " + reject.isVisible() + " disabled " + reject.isDisabled()
                    + " window " + reject.getScene().getWindow().getX() + "," + reject.getScene().getWindow().getY()
                    + " " + reject.getScene().getWindow().getWidth() + "x" + reject.getScene().getWindow().getHeight()
                    + " status " + view().supervisionViewModel().statusProperty().get()));
        }
        Typing.keys(robot, KeyCode.ESCAPE);
        WaitForAsyncUtils.waitForFxEvents();
        assertNotNull(onFx(() -> view().supervisionViewModel().current(p)), "Cancel: still waiting");
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.REJECTED && p.id().equals(r.proposalId())));

        robot.targetWindow(view().getScene().getWindow());
        robot.moveTo(ConsoleWindow.find(robot, "#" + ClassControls.STATE_ID)); // off the button: a new click on it
        robot.clickOn(centreOf(p));
        reasonField();
        Typing.keys(robot, KeyCode.ENTER);
        assertEquals("rejected by the operator", rejection(p).reason());
    }

    /**
     * Where {@code p}'s Reject button is on screen now: looked up again while a redraw of the inbox has taken the
     * button found out of the window (its card drawn anew), until one is in the window.
     */
    javafx.geometry.Point2D centreOf(ProposalRow p) throws Exception {
        AtomicReference<javafx.geometry.Point2D> at = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            Button b = rejectButtonOf(p);
            at.set(onFx(() -> {
                javafx.geometry.Bounds r = b.getScene() == null ? null : b.localToScreen(b.getBoundsInLocal());
                return r == null ? null : new javafx.geometry.Point2D(r.getCenterX(), r.getCenterY());
            }));
            return at.get() != null;
        });
        return at.get();
    }

    /** The Reject button on {@code p}'s card in the inbox. */
    Button rejectButtonOf(ProposalRow p) throws Exception {
        AtomicReference<Button> b = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
            b.set(onFx(() -> {
                Node inbox = view().lookup("#" + InboxView.LIST_ID);
                for (Node n : inbox.lookupAll(".list-cell")) {
                    // The card as drawn: the list's sizing cell holds items too, but is never shown.
                    if (n instanceof ListCell<?> cell && cell.isVisible() && cell.getItem() instanceof ProposalRow r
                            && r.id().equals(p.id())) {
                        return n.lookupAll(".button").stream().filter(x -> x instanceof Button btn
                                && btn.getText().equals("Reject")).map(x -> (Button) x).findFirst().orElse(null);
                    }
                }
                return null;
            }));
            return b.get() != null;
        });
        return b.get();
    }
}
