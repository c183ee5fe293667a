package io.headroom.ui.export;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.fx.FxExecutor;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Labeled;
import javafx.scene.control.TextArea;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The "Export / apply as KEDA" window on a console connected to fabric8's mock API server: it shows the
 * YAML and the dry run's difference, writes nothing until Apply is confirmed with a reason, then applies
 * (journaled before and after); on the sandbox it says there is nothing to apply to.
 */
class ExportKedaUiTest {
    static final String LIVE = """
            apiVersion: keda.sh/v1alpha1
            kind: ScaledObject
            metadata: {name: orders, namespace: shop}
            spec:
              scaleTargetRef: {name: orders-worker}
              minReplicaCount: 1
              maxReplicaCount: 30
              triggers:
                - type: prometheus
                  metadata: {serverAddress: "http://prometheus.monitoring:9090", query: "sum(q)", threshold: "50"}
            """;

    @TempDir
    Path dir;
    final FxRobot robot = new FxRobot();
    final MemoryJournal journal = new MemoryJournal();
    /** The sandbox's test does without it; a server per test is cheap beside the window. */
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    Session session;
    Stage stage;

    @AfterEach
    void close() throws Exception {
        if (stage != null) {
            onFx(() -> {
                stage.close();
                return null;
            });
        }
        if (session != null) {
            session.close();
        }
    }

    /** What the window told its owner (the console's event list) of each apply. */
    final List<io.headroom.supervise.Outcome> applied = new java.util.concurrent.CopyOnWriteArrayList<>();

    void openOn(Session s, String className) throws Exception {
        session = s;
        FxToolkit.registerPrimaryStage();
        ExportKedaViewModel vm = new ExportKedaViewModel(s.kedaApply(), className, FxExecutor.get());
        vm.setOnOutcome(applied::add); // as the console's event list hears it
        stage = onFx(() -> ExportKedaView.open(null, vm));
    }

    String status() throws Exception {
        return onFx(() -> robot.lookup("#" + ExportKedaView.STATUS_ID).queryAs(Labeled.class).getText());
    }

    Map<String, Object> liveSpec() {
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) cluster.scaledObject("shop", "orders")
                .getAdditionalProperties().get("spec");
        return spec;
    }

    @Test
    void theDifferenceIsShownAndNothingIsWrittenUntilApplyIsConfirmed() throws Exception {
        cluster = api.cluster();
        try {
            cluster.kedaInstalled();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 409) { // a loaded machine: the client retried a create the server had done
                throw e;
            }
        }
        cluster.deployment("shop", "orders-worker", 3);
        cluster.scaledObject(LIVE);
        openOn(cluster.session(dir, "up", "shop", """
                prometheus: {url: "http://prometheus.monitoring:9090", timeoutSeconds: 1}
                classes:
                  - {name: orders, context: up, namespace: shop, target: {kind: Deployment, name: orders-worker},
                     signals: {queueLength: 'sum(q)', oldestAge: a, arrivalRate: r, meanService: s},
                     policy: {pollIntervalSeconds: 1, minReplicas: 2, maxReplicas: 12}}
                """, journal, "ana@oncall"), "orders");

        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> status().startsWith("Dry run passed in up"));
        String diff = onFx(() -> robot.lookup("#" + ExportKedaView.DIFF_ID).queryAs(TextArea.class).getText());
        assertTrue(diff.contains("~ spec.minReplicaCount: 1 → 2"), diff);
        String yaml = onFx(() -> robot.lookup("#" + ExportKedaView.YAML_ID).queryAs(TextArea.class).getText());
        assertTrue(yaml.startsWith("# ") && yaml.contains("kind: ScaledObject"), yaml);
        assertEquals(1, cluster.dryRuns.size(), cluster.dryRuns.toString());

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExportKedaView.APPLY_ID));
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> status().startsWith("Apply "));
        assertTrue(status().contains("to ScaledObject shop/orders in up?"), status());
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExportKedaView.BACK_ID));
        assertEquals("Nothing applied.", status());
        assertEquals(1, ((Number) liveSpec().get("minReplicaCount")).intValue(), "Back writes nothing");
        assertTrue(journal.replay().records().isEmpty());

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExportKedaView.APPLY_ID));
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExportKedaView.REASON_ID));
        io.headroom.ui.Typing.write(robot, "move orders to KEDA");
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ExportKedaView.CONFIRM_ID));
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> status().startsWith("Applied ScaledObject shop/orders in up"));
        assertEquals(2, ((Number) liveSpec().get("minReplicaCount")).intValue());
        assertEquals(List.of(JournalRecord.Kind.SCALED_OBJECT_APPLYING, JournalRecord.Kind.SCALED_OBJECT_APPLIED),
                journal.replay().records().stream().map(JournalRecord::kind).toList());
        assertTrue(journal.replay().records().get(0).reason().startsWith("move orders to KEDA"));
        assertTrue(onFx(() -> robot.lookup("#" + ExportKedaView.APPLY_ID).queryButton().isDisabled()),
                "applied: nothing left to apply");
        assertEquals(1, applied.size(), "the event list hears the apply (Back was no action): " + applied);
        assertTrue(applied.get(0).ok() && applied.get(0).message().startsWith("Applied ScaledObject shop/orders"),
                applied.toString());
    }

    @Test
    void theSandboxSaysThereIsNothingToApplyTo() throws Exception {
        Session s = Session.sandbox(5, Instant.now(), Duration.ofMinutes(1), journal);
        openOn(s, "payments-steady");
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> status().contains("sandbox"));
        assertTrue(onFx(() -> robot.lookup("#" + ExportKedaView.APPLY_ID).queryButton().isDisabled()));
        assertFalse(status().startsWith("Dry run passed"));
    }
}
