package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.headroom.history.ClassHistory;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.shell.EventListViewModel;
import io.headroom.ui.shell.EventStrip;
import io.headroom.ui.shell.MainView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The real console started with {@code --config} on a mock API server and a Prometheus that answers
 * (issue 28). A what-if edit saved into the workloads file offers "Saved to workloads.yaml · Revert" at the
 * foot of the window and Ctrl+Z; either puts the file's bytes back and the console runs the file's policy
 * again. While the file is read again the charts keep their points, and the event strip says what was saved
 * and what was reverted, naming the class. A file with errors, fixed and reloaded with Enter, comes up on
 * the fixed file, never the sandbox.
 */
class WorkloadsFileUiTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    final FxRobot robot = new FxRobot();
    HttpServer prometheus;
    HeadroomApp app;
    Stage stage;
    String kubeconfigBefore;
    Path workloads;

    @BeforeEach
    void setUp() throws Exception {
        MockCluster cluster = api.cluster();
        prometheus = AnsweringPrometheus.start();
        cluster.answerAccessReviews(true, null);
        cluster.deployment("shop", "orders", 3);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "up", "t0ken-for-the-test", "up", cluster.url(),
                "shop");
        workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, AnsweringPrometheus.workloads(prometheus));
        kubeconfigBefore = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", kubeconfig.toString());
    }

    HeadroomApp start() throws Exception {
        stage = FxToolkit.registerPrimaryStage();
        app = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--config=" + workloads,
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl"), "--operator=ben@oncall");
        return app;
    }

    @Test
    void aFixedFileReloadedWithEnterComesUpOnTheFileNotTheSandbox() throws Exception {
        String good = Files.readString(workloads);
        Files.writeString(workloads, good.replace("maxReplicas: 20", "maxReplicas: many"));
        start();
        app.rejected().get(60, TimeUnit.SECONDS);
        Files.writeString(workloads, good); // fixed in the operator's own editor
        robot.targetWindow(stage);
        Node problems = fx(() -> robot.lookup("#" + io.headroom.ui.shell.ConfigProblemView.PROBLEMS_ID).query());
        robot.clickOn(problems); // the console has the keyboard
        robot.type(KeyCode.ENTER);
        Session s = app.ready().get(60, TimeUnit.SECONDS);
        assertFalse(s.isSandbox(), "the fixed file's setup, not the sandbox");
        assertEquals(java.util.Optional.of(workloads), s.workloadsFile());
        assertEquals(List.of("orders"), s.loop().classes().stream().map(c -> c.name()).toList());
    }

    @AfterEach
    void tearDown() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app);
        }
        fx(() -> {
            List.copyOf(javafx.stage.Window.getWindows()).stream()
                    .filter(w -> w instanceof Stage s && s.getOwner() != null).forEach(w -> ((Stage) w).close());
            return null;
        });
        FxToolkit.setupStage(Stage::hide);
        if (kubeconfigBefore == null) {
            System.clearProperty("kubeconfig");
        } else {
            System.setProperty("kubeconfig", kubeconfigBefore);
        }
        prometheus.stop(0);
    }

    @Test
    void aSavedFileIsRevertedFromItsChipAndByCtrlZAndTheChartsKeepTheirPoints() throws Exception {
        byte[] original = Files.readAllBytes(workloads);
        start();
        Session first = app.ready().get(60, TimeUnit.SECONDS);
        waitUntil("a few points charted", () -> points(first) >= 3);
        double oldest = first.history().find("orders").firstTime();

        Session second = save(first, "25", "room for the sale");
        assertTrue(Files.readString(workloads).contains("maxReplicas: 25   # the team's cap"));
        assertEquals(25, maxReplicas(second), "the console runs the saved file");
        assertTrue(fx(() -> second.history().find("orders") != null
                && second.history().find("orders").firstTime() <= oldest), "the charts keep the points from before");
        waitUntil("the reloaded console charts the points from before the save", () -> {
            var series = view().detailViewModel().seriesProperty().get();
            return series != null && series.points() > 0 && series.firstTime() <= oldest;
        });
        Button chip = fx(() -> (Button) robot.lookup("#" + EventStrip.SAVED_ID).query());
        waitUntil("the revert chip", () -> chip.isVisible() && chip.getScene() != null);
        assertEquals("Saved to workloads.yaml · Revert", fx(chip::getText));
        assertTrue(event("orders: Saved into workloads.yaml"), events().toString());

        // The chip is pressed as a button (fired on the FX thread): on a busy machine the strip may still be moving
        // when a pointer would reach it; what is tested is what the chip does.
        javafx.application.Platform.runLater(chip::fire); // its question waits for an answer: not waited on here
        robot.targetWindow(stage);
        robot.clickOn(dialogButton("Revert"));
        Session third = reloaded(second);
        assertArrayEquals(original, Files.readAllBytes(workloads), "the file's bytes as before the save");
        assertEquals(20, maxReplicas(third), "the console runs the file's policy again");
        assertTrue(fx(() -> third.history().find("orders").firstTime() <= oldest), "still charted from before");
        waitUntil("the revert in the event strip",
                () -> event("Undid the save of the policy of orders into workloads.yaml"));
        assertFalse(fx(() -> robot.lookup("#" + EventStrip.SAVED_ID).query().isVisible()), "nothing left to revert");
        assertTrue(journal(third).stream().anyMatch(r -> r.kind() == JournalRecord.Kind.POLICY_SAVE_REVERTED
                && "orders".equals(r.className())), "journaled as its own kind");

        // Saved again, and taken back with Ctrl+Z this time.
        Session fourth = save(third, "30", "room again");
        waitUntil("the chip again", () -> robot.lookup("#" + EventStrip.SAVED_ID).query().isVisible());
        robot.targetWindow(stage);
        Node toggle = fx(() -> robot.lookup("#" + EventStrip.TOGGLE_ID).query());
        robot.clickOn(toggle); // focus in the console
        robot.type(KeyCode.ESCAPE);
        robot.press(KeyCode.CONTROL).press(KeyCode.Z).release(KeyCode.Z).release(KeyCode.CONTROL);
        Node undo = dialogButton("Undo");
        String asked = fx(() -> ((javafx.scene.control.DialogPane) undo.getScene().getRoot()).getContentText());
        assertTrue(asked.startsWith("Takes back the save of the policy of orders into workloads.yaml.")
                && asked.contains("POLICY_SAVE_REVERTED"), asked);
        robot.clickOn(undo);
        Session fifth = reloaded(fourth);
        assertArrayEquals(original, Files.readAllBytes(workloads));
        assertEquals(20, maxReplicas(fifth));
        assertEquals(2, journal(fifth).stream().filter(r -> r.kind() == JournalRecord.Kind.POLICY_SAVE_REVERTED)
                .count());
    }

    /** Saves {@code maxReplicas} from What-if and waits for the console to read the file again. */
    Session save(Session before, String maxReplicas, String reason) throws Exception {
        fx(() -> {
            var vm = view().openWhatIf("orders");
            vm.maxReplicasProperty().set(maxReplicas);
            vm.saveToFile(reason);
            return null;
        });
        return reloaded(before);
    }

    Session reloaded(Session before) throws Exception {
        waitUntil("the file read again", () -> app.session() != null && app.session() != before
                && stage.getScene().getRoot() instanceof MainView);
        return fx(() -> app.session());
    }

    static int points(Session s) {
        ClassHistory h = s.history().find("orders");
        return h == null ? 0 : h.size();
    }

    static int maxReplicas(Session s) {
        return s.loop().classes().stream().filter(c -> c.name().equals("orders")).findFirst().orElseThrow()
                .policy().maxReplicas();
    }

    static List<JournalRecord> journal(Session s) {
        return s.journal().replay().records();
    }

    MainView view() {
        return (MainView) stage.getScene().getRoot();
    }

    List<String> events() throws Exception {
        return fx(() -> view().eventsViewModel().events().stream().map(EventListViewModel.ConsoleEvent::text).toList());
    }

    boolean event(String start) throws Exception {
        return events().stream().anyMatch(t -> t.startsWith(start));
    }

    /** The button of the dialog over the console (the console's own window excluded). */
    Node dialogButton(String text) throws Exception {
        Callable<Node> find = () -> robot.lookup(text).queryAll().stream().filter(n -> n instanceof Button
                && n.isVisible() && n.getScene() != null && n.getScene().getWindow() != stage
                && n.getScene().getWindow().isShowing()).findFirst().orElse(null);
        waitUntil("the dialog's " + text, () -> find.call() != null);
        return fx(find);
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        FaultConsoles.waitUntil(what, 60, () -> fx(condition), () -> fx(() -> stage.getScene().getRoot()
                instanceof MainView m ? "events " + m.eventsViewModel().events().stream()
                .map(EventListViewModel.ConsoleEvent::text).toList() : stage.getScene().getRoot()));
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }
}
