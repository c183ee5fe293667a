package io.headroom.ui.nodes;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.supervise.ClassControls;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.ListView;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * A node drain in the real console on the sandbox at 10× (60× once the drain has started): Nodes… on
 * payments-steady opens the nodes it runs on; Drain node, confirmed, cordons the first, and the sandbox's PodDisruptionBudget refusal appears in the
 * window with the budget's name; Cancel drain and Uncordon give the node back.
 */
class NodeDrainUiTest {
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Session s = Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO, new MemoryJournal());
        s.setSpeed(10); // fast, but the drain starts well before payments-steady-00001 hangs (700 s in)
        window = ConsoleWindow.open(s);
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    /** Presses a button as a click would, wherever other windows of earlier tests lie on the headless screen. */
    void press(String id) throws Exception {
        onFx(() -> {
            robot.lookup(id).queryButton().fire();
            return null;
        });
    }

    @Test
    @SuppressWarnings("unchecked")
    void drainANodeSeeTheBudgetsRefusalThenGiveTheNodeBack() throws Exception {
        // Selecting a class the overview does not list yet does nothing: wait for the session's first tick.
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals("payments-steady"))));
        onFx(() -> {
            window.view().overviewViewModel().select("payments-steady");
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() ->
                "payments-steady".equals(window.view().detailViewModel().classNameProperty().get())));
        press("#" + ClassControls.NODES_ID);
        TableView<NodeDrainViewModel.NodeRow> table = onFx(() ->
                robot.lookup("#" + NodeDrainView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 2);
        assertEquals("sandbox-node-1", onFx(() -> table.getItems().get(0).name()));
        onFx(() -> {
            table.getSelectionModel().select(0);
            return null;
        });
        press("#" + NodeDrainView.DRAIN_ID);
        // Drain node asks first (issue 28): the confirmation's Drain starts it.
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#"
                + NodeDrainConfirmView.CONFIRM_ID).tryQuery().isPresent()));
        press("#" + NodeDrainConfirmView.CONFIRM_ID);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().get(0).cordoned()));
        // The drain has started, well before the hang: what follows (payments-steady's marked pod finishing
        // its jobs, its eviction, the budget refusing the next one, the cancel) is sandbox time, run at 60×.
        window.session().setSpeed(60);

        ListView<String> refusals = onFx(() -> robot.lookup("#" + NodeDrainView.REFUSALS_ID).queryListView());
        javafx.scene.control.Label state = onFx(() -> robot.lookup("#" + NodeDrainView.STATE_ID).queryAs(
                javafx.scene.control.Label.class));
        try {
            WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> onFx(() -> !refusals.getItems().isEmpty()));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no refusal shown; the drain: " + onFx(state::getText) + "; pods: "
                    + onFx(() -> robot.lookup("#" + NodeDrainView.PODS_ID).queryListView().getItems()), e);
        }
        String first = onFx(() -> refusals.getItems().get(0));
        assertTrue(first.contains("refused by PodDisruptionBudget payments-steady-pdb"), first);

        Button cancel = onFx(() -> robot.lookup("#" + NodeDrainView.CANCEL_ID).queryButton());
        if (!onFx(cancel::isDisabled)) { // the drain may have completed meanwhile
            onFx(() -> {
                cancel.fire();
                return null;
            });
        }
        Button uncordon = onFx(() -> robot.lookup("#" + NodeDrainView.UNCORDON_ID).queryButton());
        try {
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> !uncordon.isDisabled()));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("Uncordon stayed disabled; the drain: " + onFx(state::getText) + "; refusals: "
                    + onFx(() -> java.util.List.copyOf(refusals.getItems())) + "; node: " + onFx(() -> table.getItems().get(0)), e);
        }
        onFx(() -> {
            uncordon.fire();
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> !table.getItems().get(0).cordoned()));
    }
}
