package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.headroom.cluster.HeadroomPause;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.shell.ExitDialog;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.control.Labeled;
import javafx.scene.control.RadioButton;
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
 * The real console application started with {@code --config} on fabric8's mock API server, where two
 * workloads carry pauses another console kept when it exited, both expired: the console offers to hand
 * them back. The operator hands one back (its pause annotations removed on the server, journaled by
 * the operator now acting) and leaves the other (untouched).
 */
class ExpiredPauseAtStartUiTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    final FxRobot robot = new FxRobot();
    MockCluster cluster;
    HttpServer prometheus;
    Application app;
    String kubeconfigBefore;
    MockCluster.ConsoleFiles files;

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        // A Prometheus that answers (every instant query: 1), so the console connects without asking.
        prometheus = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        prometheus.createContext("/", ex -> {
            try (ex) {
                String body = ex.getRequestURI().getPath().endsWith("query_range")
                        ? "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[]}}"
                        : "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                        + "\"value\":[" + System.currentTimeMillis() / 1000.0 + ",\"1\"]}]}}";
                byte[] b = body.getBytes(StandardCharsets.UTF_8);
                ex.getResponseHeaders().add("Content-Type", "application/json");
                ex.sendResponseHeaders(200, b.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(b);
                }
            }
        });
        prometheus.start();
        files = cluster.shop(dir, "http://127.0.0.1:" + prometheus.getAddress().getPort(), 2);
        keptExpired("orders", "frozen until 09:00 (incident 812)");
        keptExpired("indexer", "pinned to 4 (reindex)");
    }

    @AfterEach
    void tearDown() throws Exception {
        if (app != null) {
            FxToolkit.cleanupApplication(app); // closes the session
        }
        fx(() -> { // a dialog a failed test left open
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

    /** On the FX thread, waiting as long as a loaded machine may hold it (the console's start renders a lot). */
    static <T> T fx(java.util.concurrent.Callable<T> c) throws Exception {
        return WaitForAsyncUtils.asyncFx(c).get(60, TimeUnit.SECONDS);
    }

    /** The annotations a console that exited wrote when it kept a pause, with an expiry now past. */
    void keptExpired(String deployment, String reason) {
        var d = cluster.admin.apps().deployments().inNamespace("shop").withName(deployment).get();
        d.getMetadata().setAnnotations(new HashMap<>(Map.of(HeadroomPause.OWNER, "ana@oncall",
                HeadroomPause.UNTIL, "2026-01-01T00:00:00Z", HeadroomPause.REASON, reason)));
        cluster.admin.apps().deployments().inNamespace("shop").resource(d).update();
    }

    Map<String, String> annotations(String deployment) {
        Map<String, String> a = cluster.admin.apps().deployments().inNamespace("shop").withName(deployment).get()
                .getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    HeadroomApp start() throws Exception {
        // The kubeconfig as kubectl finds it (fabric8 reads this property before KUBECONFIG).
        kubeconfigBefore = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", files.kubeconfig().toString());
        FxToolkit.registerPrimaryStage();
        app = FxToolkit.setupApplication(HeadroomApp.class, "--config=" + files.workloads(),
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl"), "--operator=ben@oncall");
        return (HeadroomApp) app;
    }

    @Test
    void anExpiredKeptPauseIsOfferedAtStartAndHandedBackOrLeftAsChosen() throws Exception {
        HeadroomApp headroom = start();
        Session session = headroom.ready().get(120, TimeUnit.SECONDS);
        assertFalse(session.isSandbox(), "connected to the mock API server");

        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#"
                + ExitDialog.HAND_BACK_PREFIX + "indexing").tryQuery().isPresent()
                && robot.lookup("#" + ConnectionProgressView.HEADLINE_ID).tryQuery().isEmpty()));
        String offered = fx(() -> robot.lookup(".label").queryAllAs(Labeled.class).stream()
                .map(Labeled::getText).filter(t -> t != null && t.startsWith("paused by ana@oncall")).sorted().toList())
                .toString();
        assertTrue(offered.contains("paused by ana@oncall until 2026-01-01T00:00:00Z (frozen until 09:00 (incident 812))"),
                offered);
        assertTrue(offered.contains("paused by ana@oncall until 2026-01-01T00:00:00Z (pinned to 4 (reindex))"), offered);
        assertTrue(fx(() -> robot.lookup("#" + ExitDialog.HAND_BACK_PREFIX + "orders").queryAs(RadioButton.class)
                .isSelected()), "hand back is the default");

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.KEEP_PREFIX + "indexing"));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExitDialog.EXIT_ID));

        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#" + ExitDialog.STATUS_ID)
                .tryQuery().isEmpty())); // all went as chosen: the dialog closed itself
        assertTrue(annotations("orders").keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paus")),
                "handed back: " + annotations("orders"));
        assertEquals("ana@oncall", annotations("indexer").get(HeadroomPause.OWNER), "left as it was");
        assertEquals("2026-01-01T00:00:00Z", annotations("indexer").get(HeadroomPause.UNTIL));

        List<JournalRecord> back = session.journal().history().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.HANDED_BACK).toList();
        assertEquals(List.of("orders"), back.stream().map(JournalRecord::className).toList());
        assertEquals("ben@oncall", back.get(0).user());
        assertTrue(back.get(0).reason().startsWith("expired pause handed back: paused by ana@oncall"),
                back.get(0).reason());
    }
}
