package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.fx.FxExecutor;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.scene.input.KeyCode;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The exit dialog of a console connected to fabric8's mock API server. A kept pause ends when the
 * operator chooses (a custom end is refused in words until it is readable, and then lands on the
 * workload); and while a second console holds the workloads' Leases, neither a hand-back nor a kept
 * pause is written: the dialog says who holds them, the refusal is journaled, and the console still exits.
 */
class HandBackAtExitUiTest {
    static final String BOB = "bob@desk-2/bbbb0002";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    final FxRobot robot = new FxRobot();
    final MemoryJournal journal = new MemoryJournal();
    final CompletableFuture<Void> exited = new CompletableFuture<>();
    MockCluster cluster;
    ConsoleWindow console;
    Session session;

    @AfterEach
    void close() throws Exception {
        fx(() -> { // a dialog a failed test left open
            List.copyOf(javafx.stage.Window.getWindows()).stream()
                    .filter(w -> w instanceof Stage s && s.getOwner() != null).forEach(w -> ((Stage) w).close());
            return null;
        });
        if (console != null) {
            console.close();
        }
    }

    void open() throws Exception {
        cluster = api.cluster();
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        MockCluster.ConsoleFiles files = cluster.shop(dir, "http://127.0.0.1:" + closed, 1);
        session = Session.connect(WorkloadsFile.read(files.workloads()), Contexts.load(List.of(files.kubeconfig())), journal,
                "ana@oncall");
        console = ConsoleWindow.open(session);
        fx(() -> {
            ExitDialog.guard(stage(), () -> session, FxExecutor.get(), () -> exited.complete(null));
            return null;
        });
    }

    /** On the FX thread, waiting as long as a loaded machine may hold it (the console's start renders a lot). */
    static <T> T fx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

    Stage stage() {
        return (Stage) console.view().getScene().getWindow();
    }

    void requestCloseAndWaitForTheDialog(String row) throws Exception {
        fx(() -> {
            stage().fireEvent(new WindowEvent(stage(), WindowEvent.WINDOW_CLOSE_REQUEST));
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#" + row).tryQuery().isPresent()));
    }

    String status() throws Exception {
        return fx(() -> robot.lookup("#" + ExitDialog.STATUS_ID).queryAs(Labeled.class).getText());
    }

    WorkloadRef target(int i) {
        return session.loop().classes().get(i).target();
    }

    Map<String, String> annotations(String deployment) {
        Map<String, String> a = cluster.admin.apps().deployments().inNamespace("shop").withName(deployment).get()
                .getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    String version(String deployment) {
        return cluster.admin.apps().deployments().inNamespace("shop").withName(deployment).get().getMetadata()
                .getResourceVersion();
    }

    List<JournalRecord> journaled(JournalRecord.Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }

    @Test
    void aKeptPauseEndsWhenTheOperatorChoosesAndAnUnreadableEndIsRefusedFirst() throws Exception {
        open();
        assertTrue(session.supervisor().freeze("indexing", Duration.ofMinutes(20), "reindex")
                .get(15, TimeUnit.SECONDS).ok());
        requestCloseAndWaitForTheDialog(ExitDialog.KEEP_UNTIL_PREFIX + "indexing");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_UNTIL_PREFIX + "indexing"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "custom…"));
        assertTrue(fx(() -> robot.lookup("#" + ExitDialog.KEEP_PREFIX + "indexing")
                .queryAs(javafx.scene.control.RadioButton.class).isSelected()), "choosing an end is choosing to keep");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_CUSTOM_PREFIX + "indexing")).write("soon");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#"
                + ExitDialog.KEEP_PROBLEM_PREFIX + "indexing").queryAs(Labeled.class).getText())
                .startsWith("'soon' is neither a duration"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> status().startsWith("Nothing done yet"));
        assertTrue(status().contains("indexing: 'soon' is neither a duration"), status());
        java.util.List<String> cut = fx(() -> io.headroom.ui.Uncut.cut(robot.lookup("#" + ExitDialog.EXIT_ID).query()
                .getScene().getRoot()));
        assertTrue(cut.isEmpty(), "the exit dialog shows every row and the refusal whole: " + cut);
        assertFalse(exited.isDone(), "refused: the console stays");
        assertTrue(journaled(JournalRecord.Kind.PAUSE_KEPT).isEmpty());
        assertFalse(annotations("indexer").containsKey(HeadroomPause.UNTIL), "nothing written yet");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_CUSTOM_PREFIX + "indexing")).push(KeyCode.CONTROL, KeyCode.A).write("2h");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#"
                + ExitDialog.KEEP_PROBLEM_PREFIX + "indexing").queryAs(Labeled.class).getText()).isEmpty());
        Instant before = Instant.now();
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));
        exited.get(60, TimeUnit.SECONDS); // kept as chosen: the console goes at once
        Instant after = Instant.now();

        Map<String, String> kept = annotations("indexer");
        Instant until = Instant.parse(kept.get(HeadroomPause.UNTIL));
        assertFalse(until.isBefore(before.plus(Duration.ofHours(2)).minusSeconds(1)), until + " vs " + before);
        assertFalse(until.isAfter(after.plus(Duration.ofHours(2)).plusSeconds(1)), until + " vs " + after);
        assertEquals("ana@oncall", kept.get(HeadroomPause.OWNER));
        assertTrue(kept.get(HeadroomPause.REASON).startsWith("frozen until"), kept.toString());
        assertEquals(until.toEpochMilli(), journaled(JournalRecord.Kind.PAUSE_KEPT).get(0).until().toEpochMilli());
    }

    @Test
    void whileAnotherConsoleHoldsTheLeasesNothingIsWrittenTheDialogSaysWhoAndTheConsoleStillExits() throws Exception {
        open();
        // orders carries a pause an earlier console kept: handing it back means removing it.
        var d = cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get();
        d.getMetadata().setAnnotations(new HashMap<>(Map.of(HeadroomPause.OWNER, "carol@oncall",
                HeadroomPause.UNTIL, Instant.now().plus(Duration.ofHours(1)).toString(),
                HeadroomPause.REASON, "frozen: incident 799")));
        cluster.admin.apps().deployments().inNamespace("shop").resource(d).update();
        cluster.otherConsoleHolding(dir, "up", BOB, target(0), target(1));
        assertTrue(session.supervisor().freeze("orders", Duration.ofMinutes(20), "incident 812")
                .get(15, TimeUnit.SECONDS).ok());
        assertTrue(session.supervisor().setMode("indexing", io.headroom.supervise.Mode.AUTO)
                .get(15, TimeUnit.SECONDS).ok());
        String orders = version("orders");
        String indexer = version("indexer");

        requestCloseAndWaitForTheDialog(ExitDialog.KEEP_PREFIX + "indexing");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_PREFIX + "indexing"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));

        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> status().startsWith("Not everything went as chosen"));
        String said = status();
        assertTrue(said.contains("orders: not handed back: another console (" + BOB + ") holds the lease for "
                + "Deployment shop/orders: nothing was written; nothing lifted: orders stays frozen"), said);
        assertTrue(said.contains("indexing: pause not kept: another console (" + BOB + ") holds the lease for "
                + "Deployment shop/indexer: nothing was written"), said);
        assertFalse(exited.isDone(), "the operator reads it before the console goes");
        assertEquals(orders, version("orders"), "the earlier pause on orders is untouched");
        assertEquals("carol@oncall", annotations("orders").get(HeadroomPause.OWNER));
        assertEquals(indexer, version("indexer"), "no pause written on indexer");
        List<JournalRecord> refused = journaled(JournalRecord.Kind.HAND_BACK_REFUSED);
        assertEquals(List.of("orders", "indexing"), refused.stream().map(JournalRecord::className).toList());
        assertTrue(refused.stream().allMatch(r -> r.reason().contains(BOB)), refused.toString());

        assertEquals("Close the console", fx(() -> robot.lookup("#" + ExitDialog.EXIT_ID).queryButton().getText()));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));
        exited.get(30, TimeUnit.SECONDS);
    }
}
