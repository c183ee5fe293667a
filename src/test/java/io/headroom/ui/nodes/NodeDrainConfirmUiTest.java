package io.headroom.ui.nodes;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.shell.TopBar;
import io.headroom.ui.supervise.ClassControls;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Labeled;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableView;
import javafx.scene.text.Text;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28, node drain at 1280×800 in the real console on the sandbox: node names told apart on screen (they
 * were all "sandbox-n…"); Drain node asks first, with the pods per class and the budget, and its buttons inside
 * the window; Cancel starts nothing; Drain starts it, and its journal event names the class; the top bar's
 * "1 node left cordoned" chip follows the cluster: it comes when the drain is cancelled and goes on Uncordon,
 * with the Nodes window still open (it stayed until the window closed).
 */
class NodeDrainConfirmUiTest {
    static ConsoleWindow window;
    static MemoryJournal journal = new MemoryJournal();
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        window = ConsoleWindow.open(Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO, journal));
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            onFx(() -> {
                Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                        && (s.getTitle().startsWith("Nodes") || s.getTitle().startsWith("Headroom — Drain")))
                        .map(w -> (Stage) w).toList().forEach(Stage::close);
                return null;
            });
            window.close();
        }
    }

    static Stage stage(String titleStart) throws Exception {
        return onFx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage s && s.isShowing()
                && s.getTitle() != null && s.getTitle().startsWith(titleStart)).map(w -> (Stage) w).findFirst()
                .orElse(null));
    }

    static <T extends Node> T in(Stage s, String id) throws Exception {
        @SuppressWarnings("unchecked")
        T n = onFx(() -> (T) s.getScene().lookup("#" + id));
        return n;
    }

    static void fire(Button b) throws Exception {
        onFx(() -> {
            b.fire();
            return null;
        });
    }

    /** What a name cell shows on screen: its text as drawn (cut, with its ellipsis), not the item behind it. */
    static Map<String, String> shownNames(TableView<?> table) throws Exception {
        return onFx(() -> {
            table.applyCss();
            table.layout();
            Map<String, String> out = new java.util.TreeMap<>();
            for (Node n : table.lookupAll(".table-cell")) {
                if (n instanceof TableCell<?, ?> c && c.getItem() != null && c.getTableColumn() != null
                        && c.getTableColumn().getStyleClass().contains(NodeDrainView.NAME_COLUMN)) {
                    Text t = (Text) c.lookup(".text");
                    out.put(String.valueOf(c.getItem()), t == null ? "" : t.getText());
                    assertEquals(c.getItem(), c.getTooltip().getText(), "the whole name in a tooltip");
                }
            }
            return out;
        });
    }

    static void assertInside(Node n, Stage console) throws Exception {
        Bounds b = onFx(() -> n.localToScreen(n.getLayoutBounds()));
        double x0 = onFx(console::getX);
        double y0 = onFx(console::getY);
        double x1 = x0 + onFx(console::getWidth);
        double y1 = y0 + onFx(console::getHeight);
        assertTrue(b.getMinX() >= x0 - 0.5 && b.getMinY() >= y0 - 0.5 && b.getMaxX() <= x1 + 0.5
                && b.getMaxY() <= y1 + 0.5, n.getId() + " at " + b + " inside the 1280×800 window " + x0 + "," + y0
                + " to " + x1 + "," + y1);
    }

    List<JournalRecord> journaled(JournalRecord.Kind kind) {
        return journal.appendedAfter(0).orElse(List.of()).stream().filter(r -> r.kind() == kind).toList();
    }

    @Test
    @SuppressWarnings("unchecked")
    void drainNodeAsksWithThePodsPerClassCancelStartsNothingConfirmStartsAndTheChipFollows() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals("payments-steady"))));
        onFx(() -> {
            window.view().overviewViewModel().select("payments-steady");
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() ->
                "payments-steady".equals(window.view().detailViewModel().classNameProperty().get())));
        Stage console = onFx(() -> (Stage) window.view().getScene().getWindow());
        fire(onFx(() -> robot.lookup("#" + ClassControls.NODES_ID).queryButton()));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> stage("Nodes — sandbox") != null);
        Stage nodes = stage("Nodes — sandbox");
        TableView<NodeDrainViewModel.NodeRow> table = in(nodes, NodeDrainView.TABLE_ID);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 2);

        // Two nodes that differ only at the end are told apart on screen.
        Map<String, String> shown = shownNames(table);
        assertEquals(List.of("sandbox-node-1", "sandbox-node-2"), List.copyOf(shown.keySet()));
        assertNotEquals(shown.get("sandbox-node-1"), shown.get("sandbox-node-2"), "shown: " + shown);
        assertTrue(shown.get("sandbox-node-1").endsWith("1") && shown.get("sandbox-node-2").endsWith("2"),
                "their ends in view: " + shown);
        // Still so when the column is narrower than the names (a longer pool name, a larger font, the operator's
        // hand on the column's edge): cut in the middle, never at the end where they differ.
        onFx(() -> {
            var name = table.getColumns().stream().filter(c -> c.getStyleClass().contains(NodeDrainView.NAME_COLUMN))
                    .findFirst().orElseThrow();
            name.setMinWidth(10);
            name.setPrefWidth(70);
            name.setMaxWidth(70);
            return null;
        });
        Map<String, String> narrow = shownNames(table);
        assertNotEquals("sandbox-node-1", narrow.get("sandbox-node-1"), "cut at 70 px: " + narrow);
        assertNotEquals(narrow.get("sandbox-node-1"), narrow.get("sandbox-node-2"), "told apart at 70 px: " + narrow);

        onFx(() -> {
            table.getSelectionModel().select(0);
            return null;
        });
        Button drain = in(nodes, NodeDrainView.DRAIN_ID);
        fire(drain);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> stage("Headroom — Drain sandbox-node-1?") != null);
        Stage confirm = stage("Headroom — Drain sandbox-node-1?");
        javafx.scene.layout.VBox pods = in(confirm, NodeDrainConfirmView.PODS_ID);
        List<String> lines = onFx(() -> pods.lookupAll(".label").stream().map(n -> ((Labeled) n).getText()).toList());
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("payments-steady — ")), "a section per class: " + lines);
        assertTrue(lines.stream().anyMatch(l -> l.contains("sandbox/payments-steady-")), "its pods: " + lines);
        String all = onFx(() -> confirm.getScene().getRoot().lookupAll(".label").stream()
                .map(n -> ((Labeled) n).getText()).reduce("", (a, b) -> a + "\n" + b));
        assertTrue(all.contains("payments-steady-pdb: max unavailable 1"), "its budget: " + all);
        assertTrue(all.contains("What will wait"), all);
        Button yes = in(confirm, NodeDrainConfirmView.CONFIRM_ID);
        Button no = in(confirm, NodeDrainConfirmView.CANCEL_ID);
        assertEquals("Drain sandbox-node-1", onFx(yes::getText));
        assertInside(yes, console);
        assertInside(no, console);

        fire(no);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(confirm::isShowing));
        assertTrue(window.session().supervisor().nodeDrains().isEmpty(), "Cancel starts nothing");
        assertTrue(journaled(JournalRecord.Kind.NODE_DRAIN_STARTED).isEmpty());
        assertFalse(onFx(() -> table.getItems().get(0).cordoned()));

        fire(drain);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> stage("Headroom — Drain sandbox-node-1?") != null);
        Stage again = stage("Headroom — Drain sandbox-node-1?");
        fire(in(again, NodeDrainConfirmView.CONFIRM_ID));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().get(0).cordoned()));
        List<JournalRecord> started = journaled(JournalRecord.Kind.NODE_DRAIN_STARTED);
        assertEquals(1, started.size());
        assertTrue(started.get(0).detail().contains("payments-steady"), "the event names the class: " + started.get(0));

        // Cancelled, the node stays cordoned by Headroom with no drain running: the chip comes, unasked ...
        Button cancel = in(nodes, NodeDrainView.CANCEL_ID);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !onFx(cancel::isDisabled));
        fire(cancel);
        Button chip = onFx(() -> (Button) window.view().getScene().lookup("#" + TopBar.LEFT_CORDONED_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(chip::isVisible));
        assertEquals("1 node left cordoned by Headroom", onFx(chip::getText));
        // ... and goes on Uncordon, the Nodes window still open.
        Button uncordon = in(nodes, NodeDrainView.UNCORDON_ID);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !onFx(uncordon::isDisabled));
        fire(uncordon);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !onFx(chip::isVisible));
        assertTrue(onFx(nodes::isShowing));
    }
}
