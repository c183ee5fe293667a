package io.headroom.ui.shell;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.NodeRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.Typing;
import io.headroom.ui.nodes.NodeDrainConfirmView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: the palette drains a node by name. A fragment of a node's name and Enter open the node-drain
 * confirmation for that node (what it would evict, per class), not another node's; a cordoned node offers
 * "Uncordon N", which uncordons it.
 */
class PaletteNodesUiTest {
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void open() throws Exception {
        window = ConsoleWindow.open(Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO,
                new MemoryJournal()));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals("payments-steady"))));
    }

    @AfterAll
    static void close() throws Exception {
        onFx(() -> {
            Window.getWindows().stream().filter(w -> w instanceof Stage s && s != window.view().getScene().getWindow())
                    .map(w -> (Stage) w).toList().forEach(Stage::close);
            return null;
        });
        window.close();
    }

    static Stage stage(String titleStart) throws Exception {
        return onFx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage s && s.isShowing()
                && s.getTitle() != null && s.getTitle().startsWith(titleStart)).map(w -> (Stage) w).findFirst()
                .orElse(null));
    }

    /** Ctrl+K, the query typed; the palette's rows once the query is in (waits for {@code first} to head them). */
    @SuppressWarnings("unchecked")
    List<PaletteViewModel.Item> search(String query, String first) throws Exception {
        for (int attempt = 0; ; attempt++) {
            onFx(() -> {
                ((Stage) window.view().getScene().getWindow()).toFront();
                window.view().lookup("#" + TopBar.JOURNAL_ID).requestFocus();
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            robot.targetWindow(window.view().getScene().getWindow());
            Typing.keys(robot, KeyCode.CONTROL, KeyCode.K);
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> window.view().getScene().getFocusOwner()
                    instanceof TextField f && CommandPalette.QUERY_ID.equals(f.getId())));
            Typing.write(robot, query);
            TextField field = onFx(() -> (TextField) window.view().lookup("#" + CommandPalette.QUERY_ID));
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(field::getText).equals(query));
            List<PaletteViewModel.Item> rows = onFx(() -> List.copyOf(((ListView<PaletteViewModel.Item>)
                    window.view().lookup("#" + CommandPalette.LIST_ID)).getItems()));
            // The node names are read off the FX thread (opening the palette reads them for the next opening).
            if (!rows.isEmpty() && rows.get(0).title().startsWith(first) || attempt == 20) {
                return rows;
            }
            Typing.keys(robot, KeyCode.ESCAPE);
            WaitForAsyncUtils.waitForFxEvents();
        }
    }

    @Test
    void aNodesNameAndEnterShowTheDrainConfirmationForThatNodeAndACordonedOneOffersUncordon() throws Exception {
        String context = window.session().loop().classes().get(0).target().context();
        String node = SandboxWorld.NODES.get(1); // "sandbox-node-2": "node-2" tells it from the others
        List<PaletteViewModel.Item> found = search("drain node-2", "Drain node " + node);
        assertTrue(found.get(0).title().startsWith("Drain node " + node + "…"), found.toString());
        Typing.keys(robot, KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> stage("Headroom — Drain ") != null);
        Stage confirm = stage("Headroom — Drain ");
        assertEquals("Headroom — Drain " + node + "?", onFx(confirm::getTitle), "the confirmation is the named node's");
        assertTrue(onFx(() -> confirm.getScene().lookup("#" + NodeDrainConfirmView.PODS_ID) != null),
                "it lists what the drain would evict");
        onFx(() -> {
            ((javafx.scene.control.Button) confirm.getScene().lookup("#" + NodeDrainConfirmView.CANCEL_ID)).fire();
            return null;
        });
        assertTrue(window.session().supervisor().nodes(context).get(30, TimeUnit.SECONDS).stream()
                .noneMatch(n -> n.ref().name().equals(node) && n.unschedulable()), "Cancel started nothing");

        // A node cordoned (as a drain would leave it): the palette offers to uncordon it, by name.
        window.session().supervisor().startNodeDrain(new NodeRef(context, node), Duration.ofMinutes(1), "palette test")
                .get(30, TimeUnit.SECONDS);
        window.session().supervisor().cancelNodeDrain(new NodeRef(context, node), "palette test")
                .get(30, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> window.session().supervisor().nodes(context).get()
                .stream().anyMatch(n -> n.ref().name().equals(node) && n.unschedulable()));
        Typing.keys(robot, KeyCode.ESCAPE);
        closeNodesWindows();
        found = search("uncordon node-2", "Uncordon " + node);
        assertTrue(found.get(0).title().startsWith("Uncordon " + node), found.toString());
        Typing.keys(robot, KeyCode.ENTER);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> window.session().supervisor().nodes(context).get()
                .stream().anyMatch(n -> n.ref().name().equals(node) && !n.unschedulable()));
    }

    static void closeNodesWindows() throws Exception {
        onFx(() -> {
            Window.getWindows().stream().filter(w -> w instanceof Stage s && s.getTitle() != null
                    && s.getTitle().startsWith("Nodes")).map(w -> (Stage) w).toList().forEach(Stage::close);
            return null;
        });
    }
}
