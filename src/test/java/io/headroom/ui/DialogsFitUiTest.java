package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.CordonMark;
import io.headroom.cluster.NodeRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.fx.FxExecutor;
import io.headroom.ui.shell.ExitDialog;
import io.headroom.ui.shell.LeftoversView;
import io.headroom.ui.supervise.Dialogs;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: every dialog fits at 1280×800 (what 2560×1600 gives at 2×) with its buttons inside the console's
 * window: the node drain confirmation, freeze, override, drain, the exit hand-back and the start's leftovers,
 * each opened over the real console on the sandbox, every button it shows measured on the screen.
 */
class DialogsFitUiTest {
    static ConsoleWindow window;

    @BeforeAll
    static void open() throws Exception {
        Session s = Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ofMinutes(2), new MemoryJournal());
        s.warmUp(Duration.ofMinutes(2));
        window = ConsoleWindow.open(s);
        FxToolkit.setupStage(stage -> {
            stage.setX(0);
            stage.setY(0);
            stage.setWidth(1280);
            stage.setHeight(800);
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals("payments-steady"))));
    }

    @AfterAll
    static void close() throws Exception {
        if (window != null) {
            onFx(() -> {
                Window.getWindows().stream().filter(w -> w instanceof Stage st && st != console())
                        .map(w -> (Stage) w).toList().forEach(Stage::close);
                return null;
            });
            window.close();
        }
    }

    static Stage console() {
        return (Stage) window.view().getScene().getWindow();
    }

    static Stage showing(String title) throws Exception {
        return onFx(() -> Window.getWindows().stream().filter(w -> w instanceof Stage st && st.isShowing()
                && st.getTitle() != null && st.getTitle().startsWith(title)).map(w -> (Stage) w).findFirst()
                .orElse(null));
    }

    /** Opens the dialog named {@code which} (later, on the FX thread: some wait for their answer) and gives its title. */
    static String open(String which) throws Exception {
        Window owner = onFx(DialogsFitUiTest::console);
        switch (which) {
            case "node-drain-confirm" -> {
                var vm = onFx(() -> window.view().openNodes("payments-steady"));
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> !vm.nodes().isEmpty()));
                onFx(() -> {
                    vm.selectedProperty().set(vm.nodes().get(0));
                    return null;
                });
                onFx(vm::askToDrain).get(30, TimeUnit.SECONDS);
                return "Headroom — Drain sandbox-node-";
            }
            case "freeze" -> Platform.runLater(() -> Dialogs.freeze(owner, "payments-steady"));
            case "override" -> Platform.runLater(() -> Dialogs.override(owner, "payments-steady", 3));
            case "drain" -> Platform.runLater(() -> Dialogs.drain(owner, "payments-steady", 3));
            case "exit" -> {
                Session s = window.session();
                assertTrue(s.supervisor().freeze("payments-steady", Duration.ofMinutes(30), "incident 812")
                        .get(10, TimeUnit.SECONDS).ok());
                onFx(() -> {
                    ExitDialog.guard(console(), () -> s, FxExecutor.get(), () -> { });
                    console().fireEvent(new WindowEvent(console(), WindowEvent.WINDOW_CLOSE_REQUEST));
                    return null;
                });
                return "Headroom — Before the console closes";
            }
            case "leftovers" -> {
                assertTrue(window.session().loop().cluster().nodes().cordon(new NodeRef("sandbox", "sandbox-node-3"),
                        true, new CordonMark("bob@desk/1a2b", Instant.now(), "kernel upgrade", "n-7")).ok());
                Platform.runLater(() -> LeftoversView.offer(owner, window.session(),
                        CompletableFuture.completedFuture(null), FxExecutor.get()));
                return "Headroom — Left on the cluster";
            }
            default -> throw new IllegalArgumentException(which);
        }
        return switch (which) {
            case "freeze" -> "Freeze payments-steady";
            case "override" -> "Override payments-steady";
            default -> "Drain payments-steady";
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"node-drain-confirm", "freeze", "override", "drain", "exit", "leftovers"})
    void everyButtonOfTheDialogLiesInsideTheWindowAt1280x800(String which) throws Exception {
        String title = open(which);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> showing(title) != null);
        Stage dialog = showing(title);
        // Measured as the next pulses lay it out: the dialog sizes itself once shown.
        WaitForAsyncUtils.waitForFxEvents(4);
        List<Button> buttons = onFx(() -> dialog.getScene().getRoot().lookupAll(".button").stream()
                .filter(n -> n instanceof Button && ConsoleWindow.shown(n)).map(n -> (Button) n).toList());
        assertFalse(buttons.isEmpty(), which + " shows buttons");
        double x0 = onFx(() -> console().getX());
        double y0 = onFx(() -> console().getY());
        double x1 = x0 + onFx(() -> console().getWidth());
        double y1 = y0 + onFx(() -> console().getHeight());
        for (Button b : buttons) {
            Bounds s = onFx(() -> b.localToScreen(b.getLayoutBounds()));
            assertTrue(s.getMinX() >= x0 - 0.5 && s.getMinY() >= y0 - 0.5 && s.getMaxX() <= x1 + 0.5
                    && s.getMaxY() <= y1 + 0.5, which + ": \"" + onFx(b::getText) + "\" at " + s
                    + " lies inside the 1280×800 window");
            Bounds inScene = onFx(() -> b.localToScene(b.getLayoutBounds()));
            double w = onFx(() -> dialog.getScene().getWidth());
            double h = onFx(() -> dialog.getScene().getHeight());
            assertTrue(inScene.getMaxX() <= w + 0.5 && inScene.getMaxY() <= h + 0.5, which + ": \"" + onFx(b::getText)
                    + "\" inside its own dialog, not cut: " + inScene + " in " + w + "×" + h);
        }
        onFx(() -> {
            Button cancel = buttons.stream().filter(b -> "Cancel".equals(b.getText())).findFirst().orElse(null);
            if (cancel != null) {
                cancel.fire();
            }
            if (dialog.isShowing()) {
                dialog.hide();
            }
            Window.getWindows().stream().filter(w -> w instanceof Stage st && st.getTitle() != null
                    && st.getTitle().startsWith("Nodes")).map(w -> (Stage) w).toList().forEach(Stage::close);
            return null;
        });
    }

}
