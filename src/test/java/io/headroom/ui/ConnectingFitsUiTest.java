package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockCluster;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 28: the Connecting dialog at 1280×800 (2560×1600 at 2×) was cut, its buttons half hidden and Quit out
 * of sight: it grew downwards past the screen's edge as the reasons and the choices came. Here the console's
 * window is 1280×800 when the endpoints fail, and every choice, Quit included, lies wholly inside it.
 */
class ConnectingFitsUiTest {
    @TempDir
    Path dir;
    HeadroomApp app;
    String kubeconfigBefore = System.getProperty("kubeconfig");

    @AfterEach
    void close() throws Exception {
        FaultConsoles.closeConsole(app); // and the connection window a failed assertion left open
        FaultConsoles.restoreKubeconfig(kubeconfigBefore);
    }

    static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void theConnectingDialogsButtonsQuitIncludedLieInsideTheWindowAt1280x800() throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod",
                "http://127.0.0.1:" + closedPort(), "work");
        System.setProperty("kubeconfig", kubeconfig.toString());
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "http://127.0.0.1:%d", timeoutSeconds: 2}
                classes:
                  - {name: payments, context: prod, namespace: work, target: {kind: Deployment, name: worker},
                     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},
                     policy: {pollIntervalSeconds: 1}}
                """.formatted(closedPort()));
        Stage primary = FxToolkit.registerPrimaryStage();
        app = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--config=" + workloads,
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl"));
        app.ready().get(60, TimeUnit.SECONDS);
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> ConnectionDialog.shows(app));
        Stage console = ConsoleWindow.onFx(() -> (Stage) app.connectionProgress().stage().getOwner());
        ConsoleWindow.onFx(() -> { // the screen at 1280×800: the console fills it
            Stage s = console == null ? primary : console;
            s.setX(0);
            s.setY(0);
            s.setWidth(1280);
            s.setHeight(800);
            // The desktop's larger font (real fonts are wider than the headless toolkit's): the choices wrap
            // onto more rows, as they did on the screen where Quit went out of sight.
            app.connectionProgress().stage().getScene().getRoot().setStyle("-fx-font-size: 17px;");
            return null;
        });
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> ConnectionDialog.offered(app,
                ConnectionProgressView.QUIT_ID));
        WaitForAsyncUtils.waitForFxEvents(4);
        for (String id : List.of(ConnectionProgressView.CONTINUE_ID, ConnectionProgressView.RETRY_ID,
                ConnectionProgressView.SANDBOX_ID, ConnectionProgressView.EDIT_ID, ConnectionProgressView.QUIT_ID)) {
            Bounds b = ConsoleWindow.onFx(() -> {
                Node n = app.connectionProgress().stage().getScene().lookup("#" + id);
                return n.isVisible() ? n.localToScreen(n.getLayoutBounds()) : null;
            });
            if (b == null) {
                continue; // not offered in this state (Go on needs an endpoint that answered)
            }
            assertTrue(b.getMinX() >= -0.5 && b.getMinY() >= -0.5 && b.getMaxX() <= 1280.5 && b.getMaxY() <= 800.5,
                    id + " at " + b + " lies wholly inside the 1280×800 window");
            assertTrue(ConnectionDialog.offered(app, id) || id.equals(ConnectionProgressView.CONTINUE_ID),
                    id + " inside its dialog");
        }
        // Every endpoint's line is in view too, not cut under the buttons.
        List<Bounds> lines = ConsoleWindow.onFx(() -> ((javafx.scene.layout.VBox) app.connectionProgress().stage()
                .getScene().lookup("#" + ConnectionProgressView.ENDPOINTS_ID)).getChildren().stream()
                .map(n -> n.localToScene(n.getLayoutBounds())).toList());
        Bounds quit = ConsoleWindow.onFx(() -> {
            Node n = app.connectionProgress().stage().getScene().lookup("#" + ConnectionProgressView.QUIT_ID);
            return n.localToScene(n.getLayoutBounds());
        });
        assertTrue(lines.size() == 2, "a line per endpoint: " + lines);
        for (Bounds l : lines) {
            assertTrue(l.getMaxY() <= quit.getMinY(), "the line " + l + " lies above the buttons, whole: " + quit);
        }
    }
}
