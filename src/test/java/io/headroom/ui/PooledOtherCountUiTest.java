package io.headroom.ui;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.supervise.Dialogs;
import io.headroom.ui.supervise.ProposalRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Approve with another count on a class placed across pools (issue 30, decision 0029), in the real console on
 * fabric8's mock API server: {@code render} runs on spot (ceiling 8) then on-demand. The dialog shows how the
 * count typed splits across the pools before the operator applies it ("12: spot 8, on-demand 4"), and applying
 * writes each pool's Deployment.
 */
class PooledOtherCountUiTest {
    static final String NS = "render";
    @RegisterExtension
    static final MockApiServerExtension API = new MockApiServerExtension();
    static MockCluster cluster;
    static HttpServer prometheus;
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("headroom-pooled-count");
        cluster = API.cluster();
        cluster.answerAccessReviews(true, null);
        cluster.deployment(NS, "render-spot", 2);
        cluster.deployment(NS, "render-on-demand", 0);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod",
                cluster.url(), NS);
        prometheus = AnsweringPrometheus.start();
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:%d", timeoutSeconds: 2}
                classes:
                  - name: render
                    context: prod
                    namespace: render
                    pools:
                      - {name: spot, target: {name: render-spot}, maxReplicas: 12, ceiling: 8, costWeight: 1}
                      - {name: on-demand, target: {name: render-on-demand}, maxReplicas: 10, costWeight: 3}
                    signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                    policy:
                      pollIntervalSeconds: 1
                      minReplicas: 6
                      maxReplicas: 20
                """.formatted(prometheus.getAddress().getPort()));
        window = ConsoleWindow.connect(workloads, kubeconfig);
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
        if (prometheus != null) {
            prometheus.stop(0);
        }
    }

    @Test
    void theDialogShowsTheSplitOfTheCountTypedAndApplyingWritesEachPool() throws Exception {
        var vm = window.view().supervisionViewModel();
        FaultConsoles.waitUntil(window, "a proposal for render", () -> vm.proposalOf("render") != null);
        ProposalRow p = onFx(() -> vm.proposalOf("render"));
        FaultConsoles.waitUntil(window, "render in view", () -> {
            window.view().overviewViewModel().select("render");
            return "render".equals(window.view().detailViewModel().classNameProperty().get());
        });
        robot.targetWindow(window.view().getScene().getWindow());
        robot.clickOn(ConsoleWindow.find(robot, "#" + ClassControls.STATE_ID));
        WaitForAsyncUtils.waitForFxEvents();
        robot.press(KeyCode.O).release(KeyCode.O);

        Node spinner = waitForNode("#" + Dialogs.REPLICAS_ID);
        assertEquals(6, p.to(), "the class's minimum, all on spot: " + p);
        waitForText("the proposal's own count split", "6: spot 6, on-demand 0");
        onFx(() -> {
            ((Spinner<?>) spinner).getEditor().setText("12");
            return null;
        });
        waitForText("12 split across the pools", "12: spot 8, on-demand 4");
        onFx(() -> {
            ((Spinner<?>) spinner).getEditor().setText("20");
            return null;
        });
        waitForText("what does not fit", "20: spot 8, on-demand 10; 2 replicas fit no pool");
        onFx(() -> {
            ((Spinner<?>) spinner).getEditor().setText("12");
            return null;
        });
        waitForText("12 again", "12: spot 8, on-demand 4");
        robot.clickOn(waitForNode("#" + Dialogs.REASON_ID)).write("nightly import");
        robot.clickOn(waitForNode("Apply"));

        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> cluster.replicas(NS, "render-spot") == 8
                && cluster.replicas(NS, "render-on-demand") == 4);
        List<JournalRecord> approved = window.session().journal().replay().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.APPROVED).toList();
        assertEquals(1, approved.size());
        assertEquals(12, approved.get(0).after());
        assertTrue(approved.get(0).reason().contains("spot 8, on-demand 4"), approved.get(0).reason());
        FaultConsoles.waitUntil(window, "the status says so", () -> vm.statusProperty().get()
                .startsWith("Approved render"));

        // The undo chip's Ctrl+Z scales every pool back to its count before the approval, in one undo.
        FaultConsoles.waitUntil(window, "the approval offered for undo", () -> !vm.undoable().isEmpty()
                && vm.undoable().get(0).startsWith("approval of render"));
        robot.targetWindow(window.view().getScene().getWindow());
        robot.clickOn(ConsoleWindow.find(robot, "#" + ClassControls.STATE_ID));
        robot.press(KeyCode.CONTROL).press(KeyCode.Z).release(KeyCode.Z).release(KeyCode.CONTROL);
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> undoButton()) != null);
        robot.clickOn(onFx(() -> undoButton()));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> cluster.replicas(NS, "render-spot") == 2
                && cluster.replicas(NS, "render-on-demand") == 0);
        // The outcome is journaled once the API server has answered, so it can come a moment after the pools show
        // their counts back: wait for it, then it is exactly one.
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> window.session().journal().replay().records().stream()
                .anyMatch(r -> r.kind() == JournalRecord.Kind.UNDONE));
        assertEquals(1, window.session().journal().replay().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.UNDONE).count());
    }

    private void waitForText(String what, String start) throws Exception {
        FaultConsoles.waitUntil(window, what + " (\"" + start + "\")", () -> {
            Node n = showing("#" + Dialogs.SPLIT_ID);
            return n instanceof Label l && l.getText().startsWith(start);
        });
    }

    /** The confirmation's "Undo" button (the safe answer, Cancel, is its default). */
    private Node undoButton() {
        return robot.lookup(".dialog-pane .button").queryAll().stream().filter(n -> n instanceof
                javafx.scene.control.Button b && b.getText().equals("Undo") && b.getScene().getWindow().isShowing())
                .findFirst().orElse(null);
    }

    /** A node on screen now (closed dialogs leave their nodes behind). */
    private Node waitForNode(String query) throws Exception {
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> showing(query)) != null);
        return onFx(() -> showing(query));
    }

    private Node showing(String query) {
        return robot.lookup(query).queryAll().stream().filter(n -> n.isVisible() && n.getScene() != null
                && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
    }
}
