package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Typing;
import io.headroom.ui.supervise.Dialogs;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 11's keyboard items in the real console on the sandbox: the {@code ?} help lists every key
 * from the one registry (and every key it lists works), the {@code Ctrl+K} palette finds, runs and
 * refuses with why, Escape closes the help, the palette, a window and a dialog, and Tab reaches the
 * top bar's controls.
 */
class KeysUiTest {
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        Session session = Session.sandbox(5, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2),
                new MemoryJournal());
        window = ConsoleWindow.open(session);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> onFx(() -> view().detailViewModel().actionableProperty().get()));
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    /** Whatever a test left open is closed, so the next one starts from the console alone. */
    @AfterEach
    void closeWhatIsOpen() throws Exception {
        onFx(() -> {
            for (Window w : List.copyOf(Window.getWindows())) {
                if (w != view().getScene().getWindow() && w instanceof Stage s) {
                    s.close();
                }
            }
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        if (onFx(() -> visible(HelpOverlay.ID) || visible(CommandPalette.ID))) {
            Typing.keys(robot, KeyCode.ESCAPE);
        }
        WaitForAsyncUtils.waitForFxEvents();
    }

    static MainView view() {
        return window.view();
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    boolean visible(String id) {
        Node n = view().lookup("#" + id);
        return n != null && n.isVisible() && n.getParent() != null && n.getParent().isVisible();
    }

    /** The console window in front with the focus on its content, not a text field. */
    void focusConsole() throws Exception {
        onFx(() -> {
            ((Stage) view().getScene().getWindow()).toFront();
            view().lookup("#" + TopBar.JOURNAL_ID).requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        robot.targetWindow(view().getScene().getWindow());
    }

    /** Key events are real (the scene's dispatch, as a keyboard's), waited for once per gesture: {@link Typing}. */
    void typeQuestionMark() {
        Typing.write(robot, "?");
    }

    void ctrl(KeyCode k) {
        Typing.keys(robot, KeyCode.CONTROL, k);
    }

    void key(KeyCode k) {
        Typing.keys(robot, k);
    }

    void write(String text) {
        Typing.write(robot, text);
    }

    /** The key event a key of the registry stands for (a press, or a typed character). */
    static KeyEvent eventFor(Commands.Key key) {
        if (key.typed() != null) {
            return new KeyEvent(KeyEvent.KEY_TYPED, key.typed(), "", KeyCode.UNDEFINED, false, false, false, false);
        }
        KeyCodeCombination c = (KeyCodeCombination) key.combination();
        boolean ctrl = c.getShortcut() == KeyCombination.ModifierValue.DOWN
                || c.getControl() == KeyCombination.ModifierValue.DOWN;
        return new KeyEvent(KeyEvent.KEY_PRESSED, "", "", c.getCode(), c.getShift() == KeyCombination.ModifierValue.DOWN,
                ctrl, false, false);
    }

    @Test
    void questionMarkListsEveryKeyAndEveryListedKeyIsBound() throws Exception {
        focusConsole();
        typeQuestionMark();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(HelpOverlay.ID)));
        List<String> listed = onFx(() -> view().lookup("#" + HelpOverlay.ID).lookupAll("." + HelpOverlay.KEY).stream()
                .map(n -> ((Label) n).getText()).toList());
        Commands commands = view().commands();
        List<Commands.Command> bound = onFx(commands::bound);
        assertTrue(bound.size() >= 10, "the console has its keys: " + bound);
        // Every key of the registry is listed, and every accelerator anyone put on the scene too.
        for (Commands.Command c : bound) {
            assertTrue(listed.contains(c.key().display()), c.key().display() + " (" + c.title() + ") is listed: "
                    + listed);
        }
        Set<KeyCombination> accelerators = onFx(() -> Set.copyOf(view().getScene().getAccelerators().keySet()));
        for (KeyCombination k : accelerators) {
            assertTrue(listed.contains(k.getDisplayText()), "the scene's accelerator " + k.getDisplayText()
                    + " is in the help: " + listed);
        }
        // The inbox's footer names keys too: each is one of the registry's.
        for (String part : io.headroom.ui.supervise.InboxView.SHORTCUTS.split(" · ")) {
            String k = part.trim().split(" ")[0];
            assertTrue(bound.stream().anyMatch(c -> c.key().display().equals(k)), "the inbox footer's " + k
                    + " is a key of the registry");
        }
        // Every listed key reaches its command through the same dispatch the scene uses.
        for (String shown : listed) {
            Commands.Command c = bound.stream().filter(b -> b.key().display().equals(shown)).findFirst().orElse(null);
            assertNotNull(c, shown + " is a key of the registry");
            assertEquals(c, commands.match(eventFor(c.key()), false).orElse(null), shown + " dispatches to " + c.title());
        }
        // While the help shows, a bare letter does nothing: only Escape, ? and the Ctrl keys work.
        String before = onFx(() -> view().supervisionViewModel().statusProperty().get());
        key(KeyCode.F);
        assertNull(onFx(() -> inDialog("#" + Dialogs.REASON_ID)), "F did not open a freeze dialog under the help");
        assertEquals(before, onFx(() -> view().supervisionViewModel().statusProperty().get()));
        key(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(() -> visible(HelpOverlay.ID)));
        typeQuestionMark();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(HelpOverlay.ID)));
        typeQuestionMark();
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(() -> visible(HelpOverlay.ID)));
    }

    @Test
    void ctrlKFindsTheJournalAndEnterOpensItThenEscapeClosesTheWindow() throws Exception {
        focusConsole();
        ctrl(KeyCode.K);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(CommandPalette.ID)));
        assertTrue(onFx(() -> view().getScene().getFocusOwner() instanceof TextField f
                && CommandPalette.QUERY_ID.equals(f.getId())), "the caret is in the search field");
        write("journ");
        ListView<?> list = onFx(() -> (ListView<?>) view().lookup("#" + CommandPalette.LIST_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> !list.getItems().isEmpty()
                && ((PaletteViewModel.Item) list.getItems().get(0)).title().equals("Open the journal")));
        key(KeyCode.ENTER);
        Stage journal = waitForStage("Headroom journal");
        assertFalse(onFx(() -> visible(CommandPalette.ID)), "the palette closed before the command ran");
        // Escape closes the secondary window, as a dialog.
        onFx(() -> {
            journal.requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        key(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(journal::isShowing));
    }

    @Test
    void paletteArrowsMoveAndADisabledCommandSaysWhyAndStaysOpen() throws Exception {
        focusConsole();
        String shown = onFx(() -> view().detailViewModel().classNameProperty().get());
        ctrl(KeyCode.K);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(CommandPalette.ID)));
        write("open class " + shown);
        ListView<?> list = onFx(() -> (ListView<?>) view().lookup("#" + CommandPalette.LIST_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> list.getItems().size() >= 1));
        PaletteViewModel.Item item = onFx(() -> (PaletteViewModel.Item) list.getItems().get(0));
        assertEquals("Open class " + shown, item.title());
        assertFalse(item.enabled(), "the class shown cannot be opened again");
        key(KeyCode.ENTER);
        Label message = onFx(() -> (Label) view().lookup("#" + CommandPalette.MESSAGE_ID));
        assertEquals("Open class " + shown + ": " + shown + " is already shown", onFx(message::getText));
        assertTrue(onFx(() -> visible(CommandPalette.ID)));
        // Another class: arrows move the highlight, Enter opens it.
        ctrl(KeyCode.A); // the query's text, all of it (one key each, not a backspace per character)
        key(KeyCode.BACK_SPACE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> ((TextField) view().lookup(
                "#" + CommandPalette.QUERY_ID)).getText().isEmpty()));
        write("open class");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> list.getItems().size() == 5));
        int first = onFx(() -> list.getSelectionModel().getSelectedIndex());
        key(KeyCode.DOWN);
        key(KeyCode.DOWN);
        int now = onFx(() -> list.getSelectionModel().getSelectedIndex());
        assertEquals((first + 2) % 5, now);
        PaletteViewModel.Item target = onFx(() -> (PaletteViewModel.Item) list.getItems().get(now));
        if (!target.enabled()) {
            key(KeyCode.DOWN);
        }
        String chosen = onFx(() -> ((PaletteViewModel.Item) list.getSelectionModel().getSelectedItem()).title())
                .substring("Open class ".length());
        key(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> chosen.equals(onFx(() -> view().detailViewModel().classNameProperty().get())));
        assertFalse(onFx(() -> visible(CommandPalette.ID)));
        // Escape closes the palette without running anything.
        ctrl(KeyCode.K);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(CommandPalette.ID)));
        key(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(() -> visible(CommandPalette.ID)));
        assertEquals(chosen, onFx(() -> view().detailViewModel().classNameProperty().get()));
    }

    @Test
    void freezeFromThePaletteAsksTheButtonsQuestionsEscapeCancelsAndApplyIsJournaled() throws Exception {
        focusConsole();
        String cls = onFx(() -> view().detailViewModel().classNameProperty().get());
        ctrl(KeyCode.K);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> visible(CommandPalette.ID)));
        write("freeze " + cls);
        key(KeyCode.ENTER);
        TextField reason = (TextField) waitForDialogNode("#" + Dialogs.REASON_ID);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(reason::isFocused));
        Window dialog = onFx(() -> reason.getScene().getWindow());
        // Escape closes the dialog as Cancel (the focus in its reason field): nothing is frozen.
        key(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> !dialog.isShowing()));
        assertNull(onFx(() -> view().supervisionViewModel().of(cls).freeze()), "Escape froze nothing");

        ctrl(KeyCode.K);
        write("freeze " + cls);
        key(KeyCode.ENTER);
        TextField again = (TextField) waitForDialogNode("#" + Dialogs.REASON_ID);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(again::isFocused)); // the dialog asks for a reason
        robot.targetWindow(onFx(() -> again.getScene().getWindow())); // where the robot's typed characters go
        write("palette test");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(again::getText).equals("palette test"));
        // Apply is the default button and looks it: Enter applies.
        assertTrue(onFx(() -> again.getScene().getRoot().lookupAll(".button").stream()
                .anyMatch(b -> b.getPseudoClassStates().stream().anyMatch(p -> p.getPseudoClassName().equals("default"))
                        && ((javafx.scene.control.Button) b).getText().equals("Apply"))));
        key(KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                () -> onFx(() -> view().supervisionViewModel().of(cls).freeze() != null));
        assertTrue(window.session().journal().history().records().stream()
                .anyMatch(r -> r.toString().contains("palette test")), "the typed reason is journaled");
        onFx(() -> view().supervisionViewModel().unfreeze(cls, "test done"));
    }

    @Test
    void escapeClosesTheWhatIfWindow() throws Exception {
        focusConsole();
        ctrl(KeyCode.K);
        write("what-if");
        key(KeyCode.ENTER);
        Stage whatIf = waitForStage("What if");
        onFx(() -> {
            whatIf.requestFocus();
            return null;
        });
        WaitForAsyncUtils.waitForFxEvents();
        key(KeyCode.ESCAPE);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(whatIf::isShowing));
    }

    @Test
    void tabReachesEveryTopBarControl() throws Exception {
        focusConsole();
        Set<String> reached = new LinkedHashSet<>();
        List<String> wanted = List.of(TopBar.FREEZE_ALL_ID, TopBar.JOURNAL_ID, TopBar.SETTINGS_ID, TopBar.THEME_ID,
                TopBar.KEYS_ID);
        for (int i = 0; i < 80 && !reached.containsAll(wanted); i++) {
            key(KeyCode.TAB);
            String id = onFx(() -> {
                Node f = view().getScene().getFocusOwner();
                return f == null ? null : f.getId();
            });
            if (id != null) {
                reached.add(id);
            }
        }
        assertTrue(reached.containsAll(wanted), "Tab reached " + reached);
        // The speed buttons of the sandbox are in the order too.
        assertTrue(onFx(() -> view().lookupAll(".speed .toggle-button").stream().allMatch(Node::isFocusTraversable)));
    }

    Stage waitForStage(String titlePart) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> stage(titlePart)) != null);
        return onFx(() -> stage(titlePart));
    }

    static Stage stage(String titlePart) {
        for (Window w : new ArrayList<>(Window.getWindows())) {
            if (w instanceof Stage s && s.isShowing() && s.getTitle() != null && s.getTitle().contains(titlePart)) {
                return s;
            }
        }
        return null;
    }

    Node waitForDialogNode(String query) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> inDialog(query)) != null);
        return onFx(() -> inDialog(query));
    }

    Node inDialog(String query) {
        Window console = view().getScene().getWindow();
        return robot.lookup(query).queryAll().stream().filter(n -> n.isVisible() && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow() != console
                && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
    }
}
