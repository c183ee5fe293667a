package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.TeamEvents;
import io.headroom.cluster.EventResult;
import io.headroom.cluster.TeamEvent;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.supervise.TeamTimeline;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.supervise.Dialogs;
import io.headroom.ui.supervise.InboxView;
import io.headroom.ui.supervise.ProposalRow;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 11's safety items in the real console window, on the sandbox at 60×: keys act on the class
 * in view and echo what they did; typed reasons reach the journal and the team timeline; a
 * withdrawn proposal's dialog closes and says why; a proposal stays actionable for a minimum of
 * wall time; an override over a ceiling asks; undo goes several levels and is journaled as undo;
 * a drain below what the decision wants asks first.
 *
 * <p>The wall-time ticker the supervisor holds proposals by is moved by hand here, so a proposal
 * stays put until a test moves it: nothing depends on the sandbox's speed.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ActionSafetyUiTest {
    static final AtomicLong wall = new AtomicLong();
    static final List<TeamEvent> events = new CopyOnWriteArrayList<>();
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Map<String, WorkloadRef> targets = new LinkedHashMap<>();
        SandboxCatalog.defaultClasses().forEach(e -> targets.put(e.workloadClass().name(), e.workloadClass().target()));
        // The team timeline as the console would have it, posting to a cluster that only records.
        TeamEvents recorder = (TeamEvents) Proxy.newProxyInstance(TeamEvents.class.getClassLoader(),
                new Class<?>[] {TeamEvents.class}, (proxy, m, args) -> {
                    if (m.getName().equals("postEvent")) {
                        events.add((TeamEvent) args[1]);
                        return EventResult.ok();
                    }
                    throw new UnsupportedOperationException(m.getName());
                });
        TeamTimeline journal = new TeamTimeline(new MemoryJournal(), recorder, targets, Runnable::run, p -> { });
        Session session = Session.sandbox(11, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2), journal);
        session.supervisor().holdProposals(Duration.ofSeconds(10), wall::get);
        session.setSpeed(60);
        window = ConsoleWindow.open(session);
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    /** A dialog a failed test left open would take the next test's keys: close all but the console. */
    @org.junit.jupiter.api.AfterEach
    void closeWhatIsOpen() throws Exception {
        onFx(() -> {
            for (javafx.stage.Window w : List.copyOf(javafx.stage.Window.getWindows())) {
                if (w != view().getScene().getWindow() && w instanceof javafx.stage.Stage s) {
                    s.close();
                }
            }
            return null;
        });
    }

    static MainView view() {
        return window.view();
    }

    static Session session() {
        return window.session();
    }

    static List<JournalRecord> journal() {
        return session().journal().history().records();
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    /**
     * Brings {@code cls} into view, as a click on its row does, until the detail shows it: a select
     * before the overview lists the class does nothing, and a selection made just before (a proposal
     * card's, which also shows its class) may still land after this one.
     */
    static void show(String cls) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> {
            if (cls.equals(view().detailViewModel().classNameProperty().get())) {
                return true;
            }
            view().overviewViewModel().select(cls);
            return false;
        }));
    }

    /** A class with a pending proposal (other than {@code not}), once there is one. */
    static ProposalRow proposalOtherThan(String not) throws Exception {
        return proposalOtherThan(not, false);
    }

    /**
     * A class with a pending proposal (other than {@code not}); with {@code plainApproval}, one that
     * approves without the large scale-down question (which proposal comes first depends on timing).
     */
    static ProposalRow proposalOtherThan(String not, boolean plainApproval) throws Exception {
        java.util.concurrent.atomic.AtomicReference<ProposalRow> seen = new java.util.concurrent.atomic.AtomicReference<>();
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> {
            seen.set(onFx(() -> view().supervisionViewModel().pending().stream()
                    .filter(r -> !r.className().equals(not) && !(plainApproval && r.largeScaleDown()))
                    .findFirst().orElse(null)));
            return seen.get() != null;
        });
        return seen.get();
    }

    static String status() throws Exception {
        return onFx(() -> view().supervisionViewModel().statusProperty().get());
    }

    static void waitStatus(String part) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> status().contains(part));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("status never said \"" + part + "\": " + status());
        }
    }

    static ClassSnapshot latest(String cls) throws Exception {
        return onFx(() -> view().detailViewModel().latest(cls));
    }

    void type(KeyCode... keys) {
        for (KeyCode k : keys) {
            robot.press(k).release(k);
        }
    }

    /** A node on screen now (closed dialogs leave their nodes behind). */
    Node waitForNode(String query) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> showing(query)) != null);
        return onFx(() -> showing(query));
    }

    Node showing(String query) {
        return robot.lookup(query).queryAll().stream().filter(n -> n.isVisible() && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
    }

    /** A node in a dialog (another window than the console's): the banner has an Undo button too. */
    Node waitForDialogNode(String query) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> inDialog(query)) != null);
        return onFx(() -> inDialog(query));
    }

    Node inDialog(String query) {
        javafx.stage.Window console = view().getScene().getWindow();
        return robot.lookup(query).queryAll().stream().filter(n -> n.isVisible() && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow() != console
                && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
    }

    void waitGone(String query) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> showing(query)) == null);
    }

    /** Focus back on the main window's content (not a text field), as after a click on the overview. */
    void focusOverview() throws Exception {
        // TestFX keeps its target window across test classes: aim at this console's window.
        robot.targetWindow(view().getScene().getWindow());
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ClassControls.STATE_ID));
        WaitForAsyncUtils.waitForFxEvents();
    }

    @Test
    @Order(1)
    void keysActOnTheClassInViewNotARememberedSelection() throws Exception {
        String quiet = "payments-steady";
        session().supervisor().setMode(quiet, Mode.OBSERVE).get(10, TimeUnit.SECONDS); // never a proposal
        ProposalRow p = proposalOtherThan(quiet, true);
        onFx(() -> {
            view().supervisionViewModel().selectedProperty().set(view().supervisionViewModel().current(p));
            return null;
        });
        show(quiet);
        focusOverview();
        // The click that took the focus off any field lands where the class controls' status line was; on a busy
        // machine a redraw may put the inbox under it (a click on a card shows its class): the class in view is
        // made the quiet one again before the key, as the test is about keys, not that click.
        show(quiet);
        type(KeyCode.A);
        waitStatus("No proposal is waiting for " + quiet + ": nothing approved");
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.APPROVED), "the remembered card is not approved");
        assertNotNull(onFx(() -> view().supervisionViewModel().current(p)), "still waiting");

        // Typing into a text field: the letters are the field's.
        TextField field = onFx(() -> {
            TextField f = new TextField();
            f.setId("typing-test");
            view().setBottom(f);
            return f;
        });
        show(p.className());
        // The field takes the focus as a click would give it; a click aimed from the test's thread could land
        // beside it while the window is still laying out the detail just shown (seen under a loaded suite).
        onFx(() -> {
            field.requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(field::isFocused));
        type(KeyCode.A, KeyCode.R, KeyCode.O, KeyCode.D);
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("arod", onFx(field::getText));
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.APPROVED || r.kind() == Kind.REJECTED));
        assertNull(onFx(() -> showing("#" + Dialogs.REPLICAS_ID)), "no dialog opened from the text field");
        onFx(() -> {
            view().setBottom(null);
            return null;
        });

        // With the class in view, A approves its proposal and says so in words.
        focusOverview();
        type(KeyCode.A);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(
                r -> r.kind() == Kind.APPLIED && p.id().equals(r.proposalId())));
        waitStatus("Approved " + p.className() + " " + p.from() + " → " + p.to());
        assertTrue(status().contains("Ctrl+Z"), "says it can be undone: " + status());
        session().supervisor().setMode(quiet, Mode.SUPERVISED).get(10, TimeUnit.SECONDS);
    }

    @Test
    @Order(2)
    void theReasonTypedForAnotherValueReachesTheJournalAndTheTeamTimeline() throws Exception {
        ProposalRow p = proposalOtherThan("");
        show(p.className());
        focusOverview();
        type(KeyCode.O);
        Node spinner = waitForNode("#" + Dialogs.REPLICAS_ID);
        int other = Math.max(p.from(), p.to()) + 1; // a scale-up: no large scale-down question
        onFx(() -> {
            ((Spinner<?>) spinner).getEditor().setText(Integer.toString(other));
            return null;
        });
        robot.clickOn(waitForNode("#" + Dialogs.REASON_ID)).write("db failover in progress");
        robot.clickOn(waitForNode("Apply"));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(
                r -> r.kind() == Kind.APPROVED && p.id().equals(r.proposalId())));
        JournalRecord approved = journal().stream().filter(r -> r.kind() == Kind.APPROVED
                && p.id().equals(r.proposalId())).findFirst().orElseThrow();
        assertEquals(other, approved.after());
        assertTrue(approved.reason().contains("db failover in progress"), approved.reason());
        assertFalse(approved.reason().contains("chosen in the inbox"), approved.reason());
        assertTrue(events.stream().anyMatch(e -> e.reason().equals("HeadroomApproved")
                && e.message().contains("db failover in progress")), "the team event carries it: " + events);
        waitStatus("Approved " + p.className() + " " + p.from() + " → " + other);
    }

    @Test
    @Order(3)
    void aDialogWhoseProposalIsWithdrawnClosesAndSaysWhy() throws Exception {
        ProposalRow p = proposalOtherThan("");
        show(p.className());
        focusOverview();
        type(KeyCode.O);
        waitForNode("#" + Dialogs.REPLICAS_ID);
        // Observe mode withdraws the proposal at the next tick (the operator's own choice: not held).
        session().supervisor().setMode(p.className(), Mode.OBSERVE).get(10, TimeUnit.SECONDS);
        waitGone("#" + Dialogs.REPLICAS_ID);
        waitStatus("no longer waiting");
        String said = status();
        assertTrue(said.contains(p.className() + " " + p.from() + " → " + p.to()), said);
        assertTrue(said.contains("withdrawn: observe mode"), said);
        assertFalse(said.contains(p.id()), "no internal id: " + said);
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.APPROVED && p.id().equals(r.proposalId())));
        session().supervisor().setMode(p.className(), Mode.SUPERVISED).get(10, TimeUnit.SECONDS);
    }

    @Test
    @Order(4)
    void atSixtyTimesAProposalStaysActionableForItsMinimumRealTime() throws Exception {
        ProposalRow p = proposalOtherThan("");
        // Five sandbox minutes (the proposal's lifetime) and more pass in a few seconds at 60×, in under
        // one at 600× (the hold counts the hand-moved wall ticker, not the sandbox's speed).
        session().setSpeed(600);
        try {
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                    () -> session().clock().instant().isAfter(p.expiresAt().plus(Duration.ofMinutes(2))));
        } finally {
            session().setSpeed(60);
        }
        ProposalRow still = onFx(() -> view().supervisionViewModel().current(p));
        assertNotNull(still, "still actionable after its sandbox lifetime");
        assertEquals(List.of(p.from(), p.to()), List.of(still.from(), still.to()), "and unchanged");
        show(p.className());
        focusOverview();
        type(KeyCode.R);
        waitForDialogNode("#" + Dialogs.REASON_ID); // R asks why (issue 28); Enter rejects without a reason
        type(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(
                r -> r.kind() == Kind.REJECTED && p.id().equals(r.proposalId())));
        waitStatus("Rejected " + p.className() + " " + p.from() + " → " + p.to());
    }

    @Test
    @Order(5)
    void anOverrideOverACeilingAsksAndAFreezeShowsWhatApplies() throws Exception {
        String cls = "enrichment";
        show(cls);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> latest(cls) != null && latest(cls).decision() != null);
        Decision d = latest(cls).decision();
        CeilingResult ceiling = d.ceilings().stream().filter(c -> c.name().equals("db-connections")).findFirst()
                .orElseThrow();
        int over = ceiling.limit() + 4;
        for (int round = 0; round < 2; round++) {
            robot.clickOn(waitForNode("#" + ClassControls.OVERRIDE_ID));
            Node spinner = waitForNode("#" + Dialogs.REPLICAS_ID);
            onFx(() -> {
                ((Spinner<?>) spinner).getEditor().setText(Integer.toString(over));
                return null;
            });
            robot.clickOn(waitForNode("#" + Dialogs.REASON_ID)).write("load test");
            robot.clickOn(waitForNode("Apply"));
            Node warning = waitForNode("Pin anyway");
            assertNotNull(warning);
            String text = onFx(() -> ((javafx.scene.control.DialogPane) robot.lookup(".dialog-pane").queryAll()
                    .stream().filter(n -> n.getScene().getWindow().isShowing()).findFirst().orElseThrow())
                    .getContentText());
            assertTrue(text.contains(over + " is above the db-connections ceiling of " + ceiling.limit()), text);
            if (round == 0) {
                robot.clickOn(waitForNode("Cancel"));
                waitStatus("not pinned: you cancelled after the warning");
                assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.OVERRIDE_SET), "cancel sets nothing");
            } else {
                robot.clickOn(warning);
            }
        }
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(
                r -> r.kind() == Kind.OVERRIDE_SET && cls.equals(r.className())));
        JournalRecord set = journal().stream().filter(r -> r.kind() == Kind.OVERRIDE_SET).findFirst().orElseThrow();
        assertTrue(set.reason().startsWith("load test (acknowledged: ") && set.reason().contains("db-connections"),
                set.reason());

        // Frozen and pinned: the freeze wins, and the class says so.
        session().supervisor().freeze(cls, Duration.ofHours(1), "incident").get(10, TimeUnit.SECONDS);
        Label state = onFx(() -> robot.lookup("#" + ClassControls.STATE_ID).queryAs(Label.class));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(state::getText).startsWith(
                "applies: frozen (freeze beats pin): the pin to " + over + " waits until"));
        session().supervisor().unfreeze(cls, "test").get(10, TimeUnit.SECONDS);
        session().supervisor().clearOverride(cls, "test").get(10, TimeUnit.SECONDS);
    }

    @Test
    @Order(6)
    void ctrlZShowsWhatItUndoesGoesSeveralLevelsAndIsJournaledAsUndo() throws Exception {
        String first = "ledger-replay";
        String second = "nightly-batch";
        show(first);
        onFx(() -> {
            view().supervisionViewModel().freeze(first, Duration.ofHours(1), "undo test");
            return null;
        });
        // The freeze's undo step is there before the override is asked: the state shows the freeze as soon as
        // the supervisor has it, the undo step only when the command's answer reaches the FX thread.
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().supervisionViewModel().undoable()
                .contains("freeze of " + first)));
        onFx(() -> {
            view().supervisionViewModel().setOverride(second, 3, Duration.ofHours(1), "undo test");
            return null;
        });
        // Earlier tests of this class may have left undo steps: wait for this one, the newest.
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().supervisionViewModel()
                .undoable().indexOf("override of " + second + " to 3")) == 0);
        Label undo = onFx(() -> robot.lookup("#" + InboxView.UNDO_ID).queryAs(Label.class));
        assertEquals("Undo: override of " + second + " to 3 (Ctrl+Z)", onFx(undo::getText));

        focusOverview();
        robot.press(KeyCode.CONTROL).press(KeyCode.Z).release(KeyCode.Z).release(KeyCode.CONTROL);
        Node yes = waitForDialogNode("Undo");
        String text = onFx(() -> ((javafx.scene.control.DialogPane) robot.lookup(".dialog-pane").queryAll()
                .stream().filter(n -> n.getScene().getWindow().isShowing()).findFirst().orElseThrow())
                .getContentText());
        assertTrue(text.contains("override of " + second + " to 3") && text.contains("freeze of " + first), text);
        robot.clickOn(yes);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().supervisionViewModel().of(second)
                .override() == null));
        waitStatus("Undid the override of " + second + " to 3");

        focusOverview();
        robot.press(KeyCode.CONTROL).press(KeyCode.Z).release(KeyCode.Z).release(KeyCode.CONTROL);
        robot.clickOn(waitForDialogNode("Undo"));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view().supervisionViewModel().of(first)
                .freeze() == null));
        List<JournalRecord> undone = journal().stream().filter(r -> r.kind() == Kind.UNDONE).toList();
        assertEquals(List.of("override of " + second + " to 3", "freeze of " + first),
                undone.stream().map(JournalRecord::reason).toList());
        assertEquals(2, events.stream().filter(e -> e.reason().equals("HeadroomUndone")).count(), "posted: " + events);
    }

    @Test
    @Order(7)
    void aDrainBelowWhatTheDecisionWantsAsksFirst() throws Exception {
        String cls = "search-interactive";
        show(cls);
        // Observe mode: no proposal gets in the way, the decision still runs.
        session().supervisor().setMode(cls, Mode.OBSERVE).get(10, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> {
            ClassSnapshot s = latest(cls);
            return s != null && s.decision() != null && s.decision().desiredReplicas() >= 1;
        });
        robot.clickOn(waitForNode("#" + ClassControls.DRAIN_ID));
        Node spinner = waitForNode("#" + Dialogs.REPLICAS_ID);
        onFx(() -> {
            ((Spinner<?>) spinner).getEditor().setText("0");
            return null;
        });
        robot.clickOn(waitForNode("Apply"));
        Node warning = waitForNode("Drain to 0 anyway");
        String text = onFx(() -> ((javafx.scene.control.DialogPane) robot.lookup(".dialog-pane").queryAll()
                .stream().filter(n -> n.getScene().getWindow().isShowing()).findFirst().orElseThrow())
                .getContentText());
        assertTrue(text.contains("The decision for " + cls + " wants ") && text.contains("Draining to 0"), text);
        assertNotNull(warning);
        robot.clickOn(waitForNode("Cancel"));
        waitStatus(cls + " not drained: you cancelled after the warning");
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.DRAIN_STARTED), "nothing started");
        session().supervisor().setMode(cls, Mode.SUPERVISED).get(10, TimeUnit.SECONDS);
    }
}
