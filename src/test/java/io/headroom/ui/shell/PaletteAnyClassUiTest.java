package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleDialogs;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Typing;
import io.headroom.ui.supervise.Dialogs;
import io.headroom.ui.supervise.ProposalRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: the {@code Ctrl+K} palette acts on any class and pod by name, not only the class in view.
 * "frz pay" freezes payments-steady while another class is shown (the README's example), "override led"
 * finds Override on ledger-replay, "pin" finds Override, a proposal is rejected with a typed reason, and
 * the console's other actions (pod drain, node drain, quit, theme, what-if, journal) are there with
 * their keys.
 */
class PaletteAnyClassUiTest {
    static final AtomicLong wall = new AtomicLong();
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Session session = Session.sandbox(7, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2),
                new MemoryJournal());
        session.supervisor().holdProposals(Duration.ofSeconds(10), wall::get);
        session.setSpeed(60);
        window = ConsoleWindow.open(session);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> onFx(() -> view().detailViewModel().latest("payments-steady") != null
                        && view().detailViewModel().latest("payments-steady").decision() != null
                        && view().detailViewModel().latest("ledger-replay") != null));
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    @AfterEach
    void closeWhatIsOpen() throws Exception {
        ConsoleDialogs.closeOthers(view());
        if (onFx(() -> view().lookup("#" + CommandPalette.ID) != null
                && view().lookup("#" + CommandPalette.ID).isVisible())) {
            Typing.keys(robot, KeyCode.ESCAPE);
        }
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

    static void show(String cls) throws Exception {
        ConsoleDialogs.show(view(), cls);
    }

    /** Ctrl+K from the console's content, then the query typed; the palette's rows once they answer it. */
    List<PaletteViewModel.Item> search(String query) throws Exception {
        onFx(() -> {
            ((Stage) view().getScene().getWindow()).toFront();
            view().lookup("#" + TopBar.JOURNAL_ID).requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.targetWindow(view().getScene().getWindow());
        Typing.keys(robot, KeyCode.CONTROL, KeyCode.K);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> view().getScene().getFocusOwner()
                instanceof TextField f && CommandPalette.QUERY_ID.equals(f.getId())));
        Typing.write(robot, query);
        TextField field = onFx(() -> (TextField) view().lookup("#" + CommandPalette.QUERY_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(field::getText).equals(query));
        return rows();
    }

    @SuppressWarnings("unchecked")
    List<PaletteViewModel.Item> rows() throws Exception {
        return onFx(() -> List.copyOf(((ListView<PaletteViewModel.Item>) view().lookup("#" + CommandPalette.LIST_ID))
                .getItems()));
    }

    TextField dialogField(String id) throws Exception {
        return ConsoleDialogs.field(robot, view(), id);
    }

    @Test
    void frzPayThenEnterFreezesPaymentsSteadyWhileAnotherClassIsInView() throws Exception {
        show("ledger-replay");
        List<PaletteViewModel.Item> found = search("frz pay");
        assertEquals("Freeze payments-steady…", found.get(0).title(), found.toString());
        Typing.keys(robot, KeyCode.ENTER);
        TextField reason = dialogField(Dialogs.REASON_ID);
        assertEquals("Freeze payments-steady", onFx(() -> ((Stage) reason.getScene().getWindow()).getTitle()),
                "the freeze dialog is the named class's, not the class in view's");
        Typing.write(robot, "palette frz");
        Typing.keys(robot, KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(r -> r.kind() == Kind.FROZEN
                && "payments-steady".equals(r.className()) && "palette frz".equals(r.reason())));
        assertTrue(journal().stream().noneMatch(r -> r.kind() == Kind.FROZEN && "ledger-replay".equals(r.className())));
        assertEquals("ledger-replay", onFx(() -> view().detailViewModel().classNameProperty().get()),
                "the view stays where the operator was");
        onFx(() -> view().supervisionViewModel().unfreeze("payments-steady", "test done"));
    }

    @Test
    void showOrGoToAClassFindsOpenClassAndEnterShowsIt() throws Exception {
        show("payments-steady");
        assertEquals("Open class ledger-replay", search("go to ledger").get(0).title());
        Typing.keys(robot, KeyCode.ESCAPE);
        assertEquals("Open class ledger-replay", search("show ledger").get(0).title(),
                "the words an operator types for it, not only the title's");
        Typing.keys(robot, KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> "ledger-replay".equals(onFx(() -> view().detailViewModel().classNameProperty().get())));
    }

    @Test
    void overrideLedAndPinFindOverrideAndEveryActionOfTheConsoleIsThereWithItsKey() throws Exception {
        show("payments-steady");
        assertEquals("Override ledger-replay…", search("override led").get(0).title());
        Typing.keys(robot, KeyCode.ESCAPE);
        List<PaletteViewModel.Item> pin = search("pin");
        assertEquals("Override payments-steady…", pin.get(0).title(), "a synonym, the class in view first: " + pin);
        Typing.keys(robot, KeyCode.ESCAPE);
        assertEquals("F", search("freeze payments").get(0).key(), "the class in view's row shows its key");
        Typing.keys(robot, KeyCode.ESCAPE);
        assertEquals("", search("freeze ledger").get(0).key(), "F acts on the class in view only");
        Typing.keys(robot, KeyCode.ESCAPE);
        String pod = onFx(() -> view().detailViewModel().latest("ledger-replay").workload().pods().get(0).name());
        assertTrue(search("drain pod " + pod).get(0).title().startsWith("Drain pod " + pod + " of ledger-replay"),
                rows().toString());
        Typing.keys(robot, KeyCode.ESCAPE);
        for (String[] q : new String[][] {{"node drain", "Node drain…"}, {"quit", "Quit Headroom"},
                {"theme", "Switch theme"}, {"what-if led", "What-if… for ledger-replay"},
                {"journal", "Open the journal"}}) {
            List<PaletteViewModel.Item> r = search(q[0]);
            assertTrue(!r.isEmpty() && r.get(0).title().startsWith(q[1]), q[0] + " → " + r);
            Typing.keys(robot, KeyCode.ESCAPE);
        }
        PaletteViewModel.Item quit = search("quit").get(0);
        assertTrue(quit.key().endsWith("Q"), "Quit shows its key: " + quit.key());
    }

    @Test
    void rejectWithAReasonFromThePaletteForAClassNotInView() throws Exception {
        AtomicReference<ProposalRow> seen = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> {
            seen.set(onFx(() -> view().supervisionViewModel().pending().stream().findFirst().orElse(null)));
            return seen.get() != null;
        });
        ProposalRow p = seen.get();
        String other = p.className().equals("nightly-batch") ? "ledger-replay" : "nightly-batch";
        show(other);
        List<PaletteViewModel.Item> found = search("reject " + p.className());
        assertEquals("Reject " + p.className() + " " + p.from() + " → " + p.to() + " (with a reason)…",
                found.get(0).title());
        Typing.keys(robot, KeyCode.ENTER);
        dialogField(Dialogs.REASON_ID);
        Typing.write(robot, "not during the batch");
        Typing.keys(robot, KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> journal().stream().anyMatch(r -> r.kind() == Kind.REJECTED
                && p.id().equals(r.proposalId()) && "not during the batch".equals(r.reason())));
    }
}
