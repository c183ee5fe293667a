package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.detail.PoolBreakdown;
import io.headroom.ui.overview.ClassRow;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Parent;
import javafx.scene.control.Label;
import javafx.scene.control.Labeled;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The whole console on the sandbox's render class (spot then on-demand, spot's nodes gone from 150 s to 390 s of
 * every ten minutes), opened 250 s into a second cycle: spot is unavailable, and the detail's POOLS, THE WORK
 * strip ("waiting for a pool": spot's pods pending with no node) and the overview's row say so, from the live loop's ClassSnapshot.placement, whole at 1280×800.
 */
class PlacedSandboxUiTest {
    static ConsoleWindow window;

    @BeforeAll
    static void open() throws Exception {
        Duration past = Duration.ofSeconds(600 + 250);
        Session s = Session.sandboxWithPlacement(7, Instant.now(), past, new MemoryJournal());
        s.warmUp(past);
        window = ConsoleWindow.open(s);
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals("render"))));
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    @Test
    void spotLostItsNodesAndTheDetailTheStripAndTheRowSaySo() throws Exception {
        var view = window.view();
        onFx(() -> {
            view.overviewViewModel().select("render");
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> view.detailViewModel().pools().stream()
                .anyMatch(p -> p.pool().equals("spot") && !p.available())));
        List<PoolBreakdown.PoolRow> rows = onFx(() -> List.copyOf(view.detailViewModel().pools()));
        assertEquals(List.of("spot", "on-demand"), rows.stream().map(PoolBreakdown.PoolRow::pool).toList());
        assertTrue(rows.get(1).replicas() > 0, "on-demand took spot's share: " + rows);
        assertTrue(rows.get(0).bound().startsWith("max "), "the class's own pool specs: " + rows.get(0));
        // Each pool's Deployment as the live loop read it at that tick: spec / ready replicas, not "—".
        for (PoolBreakdown.PoolRow r : rows) {
            assertTrue(r.specReady().matches("\\d+ / \\d+"), "spec / ready of " + r.pool() + ": " + r);
        }
        assertTrue(rows.get(0).state().contains("now ") && rows.get(0).state().contains("unschedulable for"),
                "spot's pods the scheduler cannot place now, counted in spot: " + rows.get(0).state());
        // Spot lost its nodes 100 s before: the decision says for how long, not at which instant.
        assertTrue(rows.get(0).state().startsWith("unavailable for ") && rows.get(0).state().contains("it became so with"),
                rows.get(0).state());
        ClassRow row = onFx(() -> view.overviewViewModel().rows().stream().filter(r -> r.name().equals("render"))
                .findFirst().orElseThrow());
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> row.badgesProperty().get().states().stream()
                .anyMatch(c -> c.state() == ClassRow.State.POOL_UNAVAILABLE)));
        // Spot's probe pod (and any pod it was asked for) pends with no node: THE WORK strip says it waits for a pool.
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> {
            Label waiting = (Label) view.getScene().getRoot().lookup("#" + DetailView.WORK_POOL_ID);
            return waiting.isVisible() && waiting.getText().contains("waiting for a pool")
                    && waiting.getText().contains("no node") && waiting.getText().contains("pending in spot");
        }));
        onFx(() -> {
            Parent root = view.getScene().getRoot();
            root.applyCss();
            root.layout();
            Label state = (Label) root.lookup("#pool-state-spot");
            assertTrue(state.isVisible() && state.getText().startsWith("unavailable"), state.getText());
            Parent pools = (Parent) root.lookup("#" + DetailView.POOLS_ID);
            assertEquals(List.of(), Uncut.cut(pools), "the pools whole at 1280×800");
            return null;
        });
    }

    /**
     * A pod of a class placed across pools is drained from its own pool's Deployment (decision 0029): the drain's
     * dialog, from the palette as from the pod panel, says that pool's replicas and the class's beside them, not
     * the class's total alone as if the class had one Deployment.
     */
    @Test
    void aPooledPodsDrainSaysItLowersItsOwnPool() throws Exception {
        var view = window.view();
        FxRobot robot = new FxRobot();
        ConsoleDialogs.show(view, "render");
        java.util.concurrent.atomic.AtomicReference<Object[]> pick = new java.util.concurrent.atomic.AtomicReference<>();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> {
            io.headroom.loop.ClassSnapshot s = view.detailViewModel().latest("render");
            if (s == null || s.workload() == null || s.decision() == null) {
                return false;
            }
            for (io.headroom.cluster.PodState p : s.workload().pods()) {
                io.headroom.loop.ClassSnapshot.PodPool pool = s.podPool(p.name());
                if (!p.terminating() && !p.draining() && !s.decision().stuckPods().contains(p.name()) && pool != null
                        && pool.replicas() < s.workload().specReplicas()) {
                    pick.set(new Object[] {p.name(), pool, s.workload().specReplicas()});
                    return true;
                }
            }
            return false;
        }));
        String pod = (String) pick.get()[0];
        io.headroom.loop.ClassSnapshot.PodPool pool = (io.headroom.loop.ClassSnapshot.PodPool) pick.get()[1];
        int total = (Integer) pick.get()[2];
        try {
            onFx(() -> {
                ((Stage) view.getScene().getWindow()).toFront();
                view.lookup("#" + io.headroom.ui.shell.TopBar.JOURNAL_ID).requestFocus();
                return null;
            });
            WaitForAsyncUtils.waitForFxEvents();
            robot.targetWindow(view.getScene().getWindow());
            Typing.keys(robot, KeyCode.CONTROL, KeyCode.K);
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> view.getScene().getFocusOwner()
                    instanceof TextField f && io.headroom.ui.shell.CommandPalette.QUERY_ID.equals(f.getId())));
            Typing.write(robot, "drain pod " + pod);
            @SuppressWarnings("unchecked")
            ListView<io.headroom.ui.shell.PaletteViewModel.Item> list = onFx(() ->
                    (ListView<io.headroom.ui.shell.PaletteViewModel.Item>) view.lookup("#"
                            + io.headroom.ui.shell.CommandPalette.LIST_ID));
            WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> !list.getItems().isEmpty()
                    && list.getItems().get(0).title().startsWith("Drain pod " + pod + " of render")));
            Typing.keys(robot, KeyCode.ENTER);
            java.util.concurrent.atomic.AtomicReference<Stage> dialog = new java.util.concurrent.atomic.AtomicReference<>();
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> {
                dialog.set(onFx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage st && st.isShowing()
                        && ("Drain pod " + pod).equals(st.getTitle())).map(w -> (Stage) w).findFirst().orElse(null)));
                return dialog.get() != null;
            });
            String text = onFx(() -> dialog.get().getScene().getRoot().lookupAll(".label").stream()
                    .map(n -> ((Labeled) n).getText()).collect(java.util.stream.Collectors.joining("\n")));
            assertTrue(text.contains("lowers pool " + pool.pool() + "'s replicas " + pool.replicas() + " → "
                    + (pool.replicas() - 1) + " (the class's " + total + " → " + (total - 1) + ")"), text);
        } finally {
            ConsoleDialogs.closeOthers(view);
        }
    }
}
