package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.nodes.NodeDrainViewModel;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The event strip records every action kind, not only the supervisor's (issue 28): a policy edit, its
 * revert, a node drain, its cancel and the uncordon each appear, naming what they acted on; and Escape
 * closes the open list. (A save into the workloads file and its revert: {@code SaveRevertUiTest}.)
 */
class EventStripUiTest {
    static ConsoleWindow window;
    static final String CLS = "payments-steady";
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Session s = Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO, new MemoryJournal());
        s.setSpeed(10);
        window = ConsoleWindow.open(s);
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    @Test
    void everyActionKindAppearsAndEscapeClosesTheList() throws Exception {
        MainView view = window.view();
        waitUntil("the first tick", () -> view.overviewViewModel().rows().stream().anyMatch(r -> r.name().equals(CLS)));
        fx(() -> {
            view.overviewViewModel().select(CLS);
            return null;
        });
        waitUntil("the class in view", () -> CLS.equals(view.detailViewModel().classNameProperty().get()));

        fx(() -> {
            var w = view.openWhatIf(CLS);
            w.maxReplicasProperty().set(Integer.toString(w.current().maxReplicas() + 3));
            return w.applyToConsole("room for the sale");
        });
        waitUntil("the policy edit", () -> has("Policy of " + CLS + " edited in this console"));
        waitUntil("the edit in the detail", () -> window.session().policyEdits().of(CLS).isPresent());
        fx(() -> {
            view.detailViewModel().applyPolicyEdits(window.session().policyEdits().all());
            view.detailViewModel().revertPolicy();
            return null;
        });
        waitUntil("the revert", () -> has("Policy of " + CLS + " is the workloads file's again"));

        NodeDrainViewModel nodes = fx(() -> view.openNodes(CLS));
        waitUntil("the nodes", () -> !nodes.nodes().isEmpty());
        String node = fx(() -> {
            nodes.selectedProperty().set(nodes.nodes().get(0));
            nodes.reasonProperty().set("kernel upgrade");
            nodes.drain();
            return nodes.nodes().get(0).name();
        });
        waitUntil("the node drain", () -> has("draining " + node));
        fx(nodes::cancel);
        waitUntil("the drain's end", () -> events().stream().filter(t -> t.contains(node)).count() >= 2);
        waitUntil("the cordon", () -> nodes.selectedProperty().get() != null);
        fx(nodes::uncordon);
        waitUntil("the uncordon", () -> has(node + " uncordoned"));

        fx(() -> { // back at the console: What-if and Nodes closed, as the operator would
            for (javafx.stage.Window w : List.copyOf(javafx.stage.Window.getWindows())) {
                if (w != view.getScene().getWindow() && w instanceof javafx.stage.Stage st) {
                    st.close();
                }
            }
            view.getScene().getWindow().requestFocus();
            return null;
        });
        EventStrip strip = fx(() -> robot.lookup("#" + EventStrip.ID).queryAs(EventStrip.class));
        robot.targetWindow(view.getScene().getWindow());
        Node toggle = fx(strip::toggle);
        robot.clickOn(toggle);
        waitUntil("the list open", () -> strip.list().isVisible() && strip.list().getScene() != null);
        robot.type(KeyCode.ESCAPE);
        waitUntil("the list closed by Escape", () -> !strip.list().isVisible());
        assertFalse(fx(() -> strip.toggle().isSelected()));
        assertTrue(fx(() -> view.getScene().getFocusOwner() != null), "the focus stays in the console");
    }

    List<String> events() throws Exception {
        return fx(() -> window.view().eventsViewModel().events().stream()
                .map(EventListViewModel.ConsoleEvent::text).toList());
    }

    boolean has(String part) throws Exception {
        return events().stream().anyMatch(t -> t.contains(part));
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(condition));
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("not within 60 s: " + what + "; the events: " + events(), e);
        }
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
