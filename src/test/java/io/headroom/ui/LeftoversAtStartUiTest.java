package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.headroom.cluster.CordonMark;
import io.headroom.cluster.HeadroomPause;
import io.headroom.cluster.PodMarks;
import io.headroom.journal.JournalRecord;
import io.headroom.kube.Autoscalers;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Leftover;
import io.headroom.session.Session;
import io.headroom.ui.shell.LeftoversView;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.application.Application;
import javafx.scene.control.Labeled;
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
 * The real console application started with {@code --config} on fabric8's mock API server, where other
 * consoles left things behind: an expired pause kept on {@code orders}, a live KEDA pause another console
 * wrote on {@code indexer}'s ScaledObject, a node cordoned by a drain that is over, and another drain's
 * marks on a pod of {@code orders}. The console lists them all with who left each and until when, hand
 * back by default only what has expired; the operator hands back one, clears another's record, uncordons
 * the node and keeps the marks, and each outcome is on the server and in the journal.
 */
class LeftoversAtStartUiTest {
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

    static final String BOB = "bob@desk-2/bbbb0002";
    static final String TOMORROW = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS).toString();

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
        cluster.kedaInstalled();
        files = cluster.shop(dir, "http://127.0.0.1:" + prometheus.getAddress().getPort(), 2);
        // orders: a pause ana kept at exit, expired.
        var d = cluster.admin.apps().deployments().inNamespace("shop").withName("orders").get();
        d.getMetadata().setAnnotations(new HashMap<>(Map.of(HeadroomPause.OWNER, "ana@oncall",
                HeadroomPause.UNTIL, "2026-01-01T00:00:00Z", HeadroomPause.REASON, "frozen until 09:00 (incident 812)")));
        cluster.admin.apps().deployments().inNamespace("shop").resource(d).update();
        // indexer: KEDA paused at 4 by bob's console, until tomorrow.
        cluster.scaledObject(MockCluster.prometheusScaledObject("shop", "indexer-so", "indexer", """
                  annotations:
                    autoscaling.keda.sh/paused-replicas: "4"
                    headroom.io/paused-by: %s
                    headroom.io/paused-until: "%s"
                    headroom.io/pause-reason: Headroom scaled it to 4 (KEDA paused until handed back)
                """.formatted(BOB, TOMORROW)));
        // node-1: cordoned by bob's node drain, which is over.
        cluster.node("node-1");
        var n = cluster.admin.nodes().withName("node-1").get();
        n.getSpec().setUnschedulable(true);
        n.getMetadata().setAnnotations(new HashMap<>(Map.of(CordonMark.BY_ANNOTATION, BOB,
                CordonMark.DRAIN_ANNOTATION, "node-1-3-beef", CordonMark.WHY_ANNOTATION, "kernel upgrade",
                CordonMark.AT_ANNOTATION, "2026-01-01T08:00:00Z", CordonMark.EXPIRES_ANNOTATION, "2026-01-01T08:40:00Z")));
        cluster.admin.nodes().resource(n).update();
        // orders: admission ben's console set OPEN for producers at exit, for hours (issue 30).
        Instant decided = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
        cluster.admin.configMaps().inNamespace("shop").resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                .withNewMetadata().withName(io.headroom.cluster.AdmissionEntry.CONFIG_MAP).withNamespace("shop")
                .endMetadata().addToData("orders", "{\"state\":\"OPEN\",\"reason\":\"set OPEN by ben@oncall at exit\","
                        + "\"decidedAt\":\"" + decided + "\",\"expiresAt\":\"" + TOMORROW + "\",\"owner\":\"ben@oncall\"}")
                .build()).create();
        // orders-x: marked by bob's drain, which may still be running.
        cluster.newPod("shop", "orders-x").app("orders").onNode("node-2").annotations(Map.of(
                PodMarks.DRAIN_ANNOTATION, "orders-7-beef", PodMarks.OWNER_ANNOTATION, BOB,
                PodMarks.EXPIRES_ANNOTATION, TOMORROW,
                PodMarks.DELETION_COST_ANNOTATION, Integer.toString(PodMarks.DRAIN_DELETION_COST))).create();
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

    static javafx.scene.control.RadioButton choice(FxRobot robot, Leftover.Choice c, String key) throws Exception {
        return fx(() -> robot.lookup("#" + LeftoversView.choiceId(c, key)).queryAs(javafx.scene.control.RadioButton.class));
    }

    @Test
    void everyLeftoverIsListedWithItsOwnerAndExpiryAndEachIsSettledAsChosen() throws Exception {
        HeadroomApp headroom = start();
        Session session = headroom.ready().get(120, TimeUnit.SECONDS);
        assertFalse(session.isSandbox(), "connected to the mock API server");

        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#"
                + LeftoversView.choiceId(Leftover.Choice.KEEP, "marks-orders-orders-7-beef")).tryQuery().isPresent()
                && robot.lookup("#" + ConnectionProgressView.HEADLINE_ID).tryQuery().isEmpty()));
        List<String> shown = fx(() -> robot.lookup(".label").queryAllAs(Labeled.class).stream()
                .map(Labeled::getText).filter(t -> t != null).toList());
        String all = String.join("\n", shown);
        assertTrue(shown.contains("paused on Deployment shop/orders (class orders): frozen until 09:00 (incident 812)"), all);
        assertTrue(shown.contains("KEDA paused at 4 on Deployment shop/indexer (class indexing): Headroom scaled it to 4 "
                + "(KEDA paused until handed back)"), all);
        assertTrue(shown.contains("node node-1 (up) cordoned for node-1-3-beef: kernel upgrade"), all);
        assertTrue(shown.contains("drain orders-7-beef marks orders-x of Deployment shop/orders (class orders)"), all);
        assertTrue(shown.contains("admission OPEN for the producers of class orders (ConfigMap shop/headroom-admission): "
                + "set OPEN by ben@oncall at exit"), all);
        assertTrue(shown.stream().anyMatch(t -> t.startsWith("by ana@oncall, expired ")), all);
        assertTrue(shown.stream().anyMatch(t -> t.startsWith("by " + BOB + ", until ")), all);
        OperatorWords.assertPlain("the leftovers dialog", all);
        List<String> cut = fx(() -> Uncut.cut(robot.lookup("#" + LeftoversView.CONFIRM_ID).query().getScene().getRoot()));
        assertTrue(cut.isEmpty(), "the leftovers dialog shows every row whole: " + cut);

        // Defaults: hand back what expired; keep what its owner may still use; a cordon is kept whatever it says.
        assertTrue(choice(robot, Leftover.Choice.HAND_BACK, "pause-orders").isSelected());
        assertTrue(choice(robot, Leftover.Choice.KEEP, "pause-indexing").isSelected());
        assertTrue(choice(robot, Leftover.Choice.KEEP, "cordon-up-node-1").isSelected());
        assertTrue(choice(robot, Leftover.Choice.KEEP, "marks-orders-orders-7-beef").isSelected());
        assertTrue(choice(robot, Leftover.Choice.KEEP, "admission-orders").isSelected(), "kept until it expires");
        assertEquals("Expire it now (producers apply their own default)",
                choice(robot, Leftover.Choice.HAND_BACK, "admission-orders").getText());

        robot.clickOn(ConsoleWindow.find(robot, "#" + LeftoversView.choiceId(Leftover.Choice.CLEAR, "pause-indexing")));
        robot.clickOn(ConsoleWindow.find(robot, "#" + LeftoversView.choiceId(Leftover.Choice.HAND_BACK, "cordon-up-node-1")));
        robot.clickOn(ConsoleWindow.find(robot, "#" + LeftoversView.choiceId(Leftover.Choice.HAND_BACK, "admission-orders")));
        robot.clickOn(ConsoleWindow.find(robot, "#" + LeftoversView.CONFIRM_ID));

        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> fx(() -> robot.lookup("#" + LeftoversView.STATUS_ID)
                .tryQuery().isEmpty())); // all went as chosen: the dialog closed itself
        assertTrue(annotations("orders").keySet().stream().noneMatch(k -> k.startsWith("headroom.io/paus")),
                "handed back: " + annotations("orders"));
        Map<String, String> so = cluster.scaledObject("shop", "indexer-so").getMetadata().getAnnotations();
        assertEquals("4", so.get(Autoscalers.PAUSED_REPLICAS), "cleared: KEDA stays paused, as if by hand: " + so);
        assertTrue(so.keySet().stream().noneMatch(k -> k.startsWith("headroom.io/")), "no longer Headroom's: " + so);
        assertFalse(cluster.cordoned("node-1"), "uncordoned");
        String admission = cluster.admin.configMaps().inNamespace("shop").withName(
                io.headroom.cluster.AdmissionEntry.CONFIG_MAP).get().getData().get("orders");
        assertFalse(admission.contains(TOMORROW), "expired now: " + admission);
        assertEquals(BOB, cluster.annotations("shop", "orders-x").get(PodMarks.OWNER_ANNOTATION), "the marks are kept");

        List<JournalRecord> bens = session.journal().history().records().stream()
                .filter(r -> r.user().equals("ben@oncall") && java.util.Set.of(JournalRecord.Kind.HANDING_BACK,
                        JournalRecord.Kind.HANDED_BACK, JournalRecord.Kind.HAND_BACK_REFUSED,
                        JournalRecord.Kind.LEFTOVER_KEPT).contains(r.kind())).toList();
        Map<String, List<JournalRecord.Kind>> byWhat = new java.util.TreeMap<>();
        bens.forEach(r -> byWhat.computeIfAbsent(r.node() != null ? "node " + r.node() : r.className(),
                k -> new java.util.ArrayList<>()).add(r.kind()));
        List<JournalRecord.Kind> backed = List.of(JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK);
        assertEquals(backed, byWhat.get("node node-1"), byWhat.toString());
        assertEquals(backed, byWhat.get("indexing"), byWhat.toString());
        assertEquals(List.of(JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK, // its admission expired
                JournalRecord.Kind.HANDING_BACK, JournalRecord.Kind.HANDED_BACK, // its pause handed back
                JournalRecord.Kind.LEFTOVER_KEPT), byWhat.get("orders"), byWhat.toString());
        assertTrue(bens.stream().anyMatch(r -> r.kind() == JournalRecord.Kind.HANDING_BACK && "indexing".equals(r.className())
                && r.reason().startsWith("record cleared at start: left by " + BOB)), bens.toString());
    }
}
