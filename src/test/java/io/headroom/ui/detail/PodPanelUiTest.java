package io.headroom.ui.detail;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.supervise.Mode;
import io.headroom.ui.ConsoleWindow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The pod panel in the real console on the sandbox: the selected class's pods are listed from its ticks,
 * and Drain… on one pod asks the drain's questions and starts a supervised drain of exactly that pod
 * (journaled, the pod's row then shows its mark). The load moves, so a refused start (the decision wants
 * more than runs, should the load jump past 8 replicas) is tried again.
 */
class PodPanelUiTest {
    static ConsoleWindow window;
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
    void drainOnePodFromThePanel() throws Exception {
        String cls = "search-interactive"; // short jobs, no metrics outage: its pods empty fast
        window.session().supervisor().setMode(cls, Mode.OBSERVE).get(10, TimeUnit.SECONDS);
        // More replicas than the decision wants (observe mode leaves them): one fewer is no loss of capacity.
        io.headroom.cluster.WorkloadRef ref = window.session().loop().classes().stream()
                .filter(c -> c.name().equals(cls)).findFirst().orElseThrow().target();
        assertEquals(io.headroom.cluster.ScaleResult.Outcome.APPLIED,
                window.session().loop().cluster().scaling().scale(ref, 8, null).outcome());
        // Selecting a class the overview does not list yet does nothing: wait for the session's first tick.
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals(cls))));
        onFx(() -> {
            window.view().overviewViewModel().select(cls);
            return null;
        });
        PodPanelViewModel pods = onFx(() -> robot.lookup("#" + PodPanel.ID).queryAs(PodPanel.class)).viewModel();
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> onFx(() -> cls.equals(pods.classNameProperty().get())
                && pods.rows().size() == 8 && pods.rows().stream().allMatch(PodPanelViewModel.PodRow::ready)));
        String summary = onFx(() -> robot.lookup("#" + PodPanel.SUMMARY_ID).queryLabeled().getText());
        assertTrue(summary.startsWith(onFx(() -> pods.rows().size()) + " pods"), summary);
        // Each figure keeps its name: "cost —" is never split, so no line starts with a lone "—".
        onFx(() -> {
            for (PodPanelViewModel.PodRow r : pods.rows()) {
                String work = robot.lookup("#" + PodPanel.workId(r.name())).queryLabeled().getText();
                assertTrue(work.contains("cost\u00a0" + r.deletionCost()), work);
                assertTrue(work.contains("mark\u00a0" + r.drainMark()), work);
            }
            return null;
        });

        JournalRecord started = null;
        List<String> tries = new ArrayList<>();
        for (int attempt = 0; attempt < 8 && started == null; attempt++) {
            String pod = onFx(() -> pods.rows().get(pods.rows().size() - 1).name());
            int before = drainStarts(cls).size();
            onFx(() -> {
                window.view().supervisionViewModel().statusOkProperty().set(true);
                return null;
            });
            Button drain = onFx(() -> robot.lookup("#" + PodPanel.drainId(pod)).queryButton());
            javafx.application.Platform.runLater(drain::fire); // the dialog waits; do not block on it
            robot.clickOn(waitForNode("Apply"));
            // When the decision wants what runs now, one fewer is below it: the console asks first. Wait for
            // the question or the command's outcome, whichever comes (not a fixed while for a question
            // that is asked only in some states).
            Callable<Boolean> outcome = () -> drainStarts(cls).size() > before
                    || !onFx(() -> window.view().supervisionViewModel().statusOkProperty().get());
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(this::drainAnyway) != null || outcome.call());
            Node anyway = onFx(this::drainAnyway);
            if (anyway != null) {
                robot.clickOn(anyway);
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, outcome);
            }
            if (drainStarts(cls).size() > before) {
                started = drainStarts(cls).get(drainStarts(cls).size() - 1);
                assertTrue(started.detail().startsWith(pod + " (chosen by the operator"), started.detail());
                assertEquals(started.before() - 1, started.after(), "one replica fewer");
                String id = started.proposalId();
                WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> pods.rows().stream()
                        .filter(r -> r.name().equals(pod)).findFirst()
                        .map(r -> r.drainMark().equals(id) && !r.drainable() && r.deletionCost().startsWith("lowest"))
                        .orElse(true))); // marked in the panel, or already gone
            } else {
                tries.add(onFx(() -> window.view().supervisionViewModel().statusProperty().get()));
            }
        }
        assertNotNull(started, "no pod drain started in 8 tries: " + tries);
    }

    List<JournalRecord> drainStarts(String cls) {
        return window.session().journal().history().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.DRAIN_STARTED && cls.equals(r.className())).toList();
    }

    Node drainAnyway() {
        return robot.lookup((Node n) -> n instanceof Button b && b.getText() != null
                && b.getText().startsWith("Drain ") && b.getText().endsWith("anyway") && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing()).tryQuery().orElse(null);
    }

    Node waitForNode(String query) throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> showing(query)) != null);
        return onFx(() -> showing(query));
    }

    Node showing(String query) {
        return robot.lookup(query).queryAll().stream().filter(n -> n.isVisible() && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
    }
}
