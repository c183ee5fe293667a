package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.time.ManualClock;
import io.headroom.ui.shell.TopBar;
import io.headroom.ui.supervise.InboxView;
import io.headroom.ui.supervise.ProposalRow;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.input.MouseButton;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: the inbox's cards never move between the operator's aim and the click. The pointer rests on
 * a card's Approve; another class's proposal then appears above it, or goes from above it; the click
 * approves the proposal aimed at. The one that went stays greyed where it was, the new one comes below,
 * and the class order comes back once the pointer has left and the inbox is quiet.
 */
class InboxHoldUiTest {
    final FxRobot robot = new FxRobot();
    final AtomicLong ticker = new AtomicLong();
    final ManualClock wall = new ManualClock(Instant.now());
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            ConsoleDialogs.closeOthers(console.view());
            console.close();
        }
    }

    /** The sandbox in supervised mode, its proposals held still by a hand-moved wall ticker; the inbox timed on {@link #wall}. */
    SupervisionViewModel open() throws Exception {
        Session s = Session.sandbox(28, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2),
                new MemoryJournal());
        s.supervisor().holdProposals(Duration.ofSeconds(10), ticker::get);
        s.setSpeed(60);
        console = ConsoleWindow.open(s);
        // The smallest window the console is made for: the inbox shows two or three cards, the rest a scroll away.
        org.testfx.api.FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        SupervisionViewModel vm = console.view().supervisionViewModel();
        onFx(() -> {
            vm.setAttentionClock(wall);
            return null;
        });
        robot.targetWindow(console.view().getScene().getWindow());
        quiet();
        return vm;
    }

    void awayFromTheInbox() throws Exception {
        robot.moveTo(ConsoleWindow.find(robot, "#" + TopBar.CONTEXT_ID));
    }

    /** The pointer off the inbox, and no key, click or focus in it for the quiet time (the window's first focus may be there). */
    void quiet() throws Exception {
        awayFromTheInbox();
        wall.advance(io.headroom.ui.AttentionHold.QUIET.plusSeconds(1));
    }

    /** Two cards, one above the other. */
    record TwoCards(ProposalRow upper, ProposalRow aimed) {
    }

    /** Two pending proposals that Approve takes at once (no large scale-down, no forecast floor), upper first. */
    static TwoCards twoPlain(SupervisionViewModel vm) throws Exception {
        AtomicReference<List<ProposalRow>> seen = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> {
            seen.set(onFx(() -> vm.proposals().stream().filter(r -> r.pending() && !r.largeScaleDown()
                    && !r.forecast()).toList()));
            return seen.get().size() >= 2;
        });
        return new TwoCards(seen.get().get(0), seen.get().get(1));
    }

    List<JournalRecord> journal() {
        return console.session().journal().history().records();
    }

    /** The Approve button of {@code p}'s card as drawn now, or null. FX thread. */
    Button approveOf(ProposalRow p) {
        for (Node n : console.view().lookup("#" + InboxView.LIST_ID).lookupAll(".list-cell")) {
            if (n instanceof ListCell<?> c && ConsoleWindow.shown(c) && c.getItem() instanceof ProposalRow r && r.id().equals(p.id())) {
                return (Button) c.lookupAll(".button").stream()
                        .filter(b -> b instanceof Button x && "Approve".equals(x.getText())).findFirst().orElse(null);
            }
        }
        return null;
    }

    /**
     * Rests the pointer on {@code p}'s Approve. Until the pointer is on the inbox nothing holds the cards, so a card
     * can move while the pointer travels to where it was: aimed again, with a deadline, until that very button is
     * under the pointer; from then on the inbox holds still.
     */
    void aimAt(SupervisionViewModel vm, ProposalRow p) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Button approve;
        do {
            onFx(() -> {
                @SuppressWarnings("unchecked")
                javafx.scene.control.ListView<ProposalRow> list = (javafx.scene.control.ListView<ProposalRow>)
                        console.view().lookup("#" + InboxView.LIST_ID);
                if (!wholeInView(list, approveOf(p))) { // a short window shows fewer cards: the operator scrolls first
                    list.getItems().stream().filter(r -> r.id().equals(p.id())).findFirst()
                            .ifPresent(r -> list.scrollTo(list.getItems().indexOf(r)));
                }
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            approve = onFx(() -> approveOf(p));
            if (approve != null) {
                robot.moveTo(approve);
                WaitForAsyncUtils.waitForFxEvents();
            }
        } while (!onAimed(approve, p) && System.nanoTime() < deadline);
        assertTrue(onAimed(approve, p), "the pointer rests on " + p.className() + "'s Approve");
        assertTrue(onFx(() -> vm.attention().held()), "the inbox holds still under the pointer");
    }

    static boolean wholeInView(Node list, Node n) {
        return n != null && list.localToScreen(list.getBoundsInLocal()).contains(n.localToScreen(n.getBoundsInLocal()));
    }

    /** Whether the pointer is on {@code approve} and it is still {@code p}'s. */
    boolean onAimed(Button approve, ProposalRow p) throws Exception {
        return approve != null && onFx(() -> approve.isHover() && approveOf(p) == approve);
    }

    List<String> cards(SupervisionViewModel vm) throws Exception {
        return onFx(() -> vm.proposals().stream().map(r -> r.className() + (r.pending() ? "" : " (gone)")).toList());
    }

    void approvedIsTheAimedOne(SupervisionViewModel vm, ProposalRow aimed) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> journal().stream()
                    .anyMatch(r -> r.kind() == Kind.APPROVED && aimed.id().equals(r.proposalId())));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("not approved: " + aimed + "; status: " + onFx(() -> vm.statusProperty().get())
                    + "; cards: " + cards(vm) + "; journal: " + journal().stream().map(r -> r.kind() + " "
                    + r.className()).toList(), e);
        }
        assertEquals(List.of(aimed.className()), journal().stream().filter(r -> r.kind() == Kind.APPROVED)
                .map(JournalRecord::className).toList(), "only the proposal aimed at is approved");
    }

    /** The pointer leaves and the inbox is quiet: the class order comes back, without the gone cards. */
    void release(SupervisionViewModel vm) throws Exception {
        quiet();
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> !vm.attention().waitingProperty().get()
                && vm.proposals().stream().allMatch(ProposalRow::pending) && vm.heldNoteProperty().get().isEmpty()));
    }

    @Test
    void aProposalAppearingAboveTheAimedCardComesBelowAndTheClickApprovesTheAimedOne() throws Exception {
        SupervisionViewModel vm = open();
        TwoCards two = twoPlain(vm);
        ProposalRow upper = two.upper();
        ProposalRow aimed = two.aimed();
        // The upper class goes to observe mode: its proposal leaves the inbox; back in supervised mode, it comes again.
        assertTrue(console.session().supervisor().setMode(upper.className(), Mode.OBSERVE).get(10, TimeUnit.SECONDS)
                .ok());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.proposals().stream()
                .noneMatch(r -> r.className().equals(upper.className()))));

        aimAt(vm, aimed);
        List<String> before = cards(vm);
        assertTrue(console.session().supervisor().setMode(upper.className(), Mode.SUPERVISED)
                .get(10, TimeUnit.SECONDS).ok());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> vm.proposalOf(upper.className()) != null));
        WaitForAsyncUtils.waitForFxEvents(); // the cards laid out as the inbox now shows them
        List<String> held = cards(vm);
        String note = onFx(() -> vm.heldNoteProperty().get());
        boolean noteShown = onFx(() -> console.view().lookup("#" + InboxView.HELD_ID).isVisible());

        robot.clickOn(MouseButton.PRIMARY); // where the pointer rests, aimed at before the proposal came
        approvedIsTheAimedOne(vm, aimed);
        assertEquals(before.indexOf(aimed.className()), held.indexOf(aimed.className()), "the aimed card did not move: "
                + before + " then " + held);
        assertTrue(held.indexOf(upper.className()) > held.indexOf(aimed.className()),
                "the new proposal came below the others, not above where the class order has it: " + held);
        assertTrue(note.endsWith(" new below"), note);
        assertTrue(noteShown, "and the inbox said so");
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> cards(vm).contains(aimed.className() + " (gone)"));
        assertEquals(held.indexOf(aimed.className()), cards(vm).indexOf(aimed.className() + " (gone)"),
                "the approved card stays where it was while the pointer is on it");
        ProposalRow approved = onFx(() -> vm.proposals().stream().filter(r -> r.id().equals(aimed.id())).findFirst()
                .orElseThrow());
        assertTrue(onFx(() -> approveOf(approved).getParent().getParent().getStyleClass().contains("card-gone")),
                "greyed");
        String said = onFx(() -> approveOf(approved).getParent().getParent().lookupAll(".label").stream()
                .map(n -> (Label) n).filter(l -> l.getText().startsWith("No longer waiting: "))
                .map(l -> l.getText() + " | " + io.headroom.ui.fx.Tips.text(l)).findFirst().orElse(""));
        assertTrue(said.matches("No longer waiting: (.+) \\| No longer waiting: \\1"),
                "says what became of it, whole in the tooltip however narrow the card: " + said);

        release(vm);
        assertTrue(cards(vm).contains(upper.className()), cards(vm).toString());
        assertTrue(!cards(vm).contains(aimed.className()) || onFx(() -> vm.proposalOf(aimed.className())) != null,
                "the approved card left: " + cards(vm));
    }

    @Test
    void aProposalGoingFromAboveTheAimedCardLeavesItsCardGreyedAndTheClickApprovesTheAimedOne() throws Exception {
        SupervisionViewModel vm = open();
        TwoCards two = twoPlain(vm);
        ProposalRow upper = two.upper();
        ProposalRow aimed = two.aimed();
        aimAt(vm, aimed);
        List<String> before = cards(vm);
        // Decided elsewhere while the operator aims (another console, an expiry, a withdrawal).
        assertTrue(console.session().supervisor().reject(upper.id(), "decided in another console")
                .get(10, TimeUnit.SECONDS).ok());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> vm.current(upper) == null));
        WaitForAsyncUtils.waitForFxEvents();
        List<String> after = cards(vm);

        robot.clickOn(MouseButton.PRIMARY);
        approvedIsTheAimedOne(vm, aimed);
        assertEquals(before.indexOf(upper.className()), after.indexOf(upper.className() + " (gone)"),
                "its card stayed where it was: " + after);
        assertEquals(before.indexOf(aimed.className()), after.indexOf(aimed.className()));
        ProposalRow gone = onFx(() -> vm.proposals().stream().filter(r -> r.id().equals(upper.id())).findFirst()
                .orElseThrow());
        assertTrue(gone.gone().startsWith("rejected"), gone.gone());
        release(vm);
        assertTrue(!cards(vm).contains(upper.className()) || onFx(() -> vm.proposalOf(upper.className())) != null,
                cards(vm).toString());
    }

    @Test
    void whenTheFocusedButtonsProposalLeavesTheFocusGoesToTheListNotToTheCardInItsPlace() throws Exception {
        SupervisionViewModel vm = open();
        ProposalRow upper = twoPlain(vm).upper();
        Button approve = onFx(() -> approveOf(upper));
        onFx(() -> {
            approve.requestFocus(); // as Tab brings it there
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(approve::isFocused));
        quiet(); // the focus stays on the card, the hold it gave has passed: the card leaves at once
        assertTrue(console.session().supervisor().reject(upper.id(), "decided in another console")
                .get(10, TimeUnit.SECONDS).ok());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> cards(vm).stream()
                .noneMatch(c -> c.startsWith(upper.className())));
        WaitForAsyncUtils.waitForFxEvents();
        Node focused = onFx(() -> console.view().getScene().getFocusOwner());
        assertEquals(InboxView.LIST_ID, focused == null ? null : focused.getId(),
                "not a button of the card drawn in its place: " + focused);
    }
}
