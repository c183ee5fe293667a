package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockCluster;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * Issue 28 (start-up): the console's first frame no longer waits for the Kubernetes clients, so a client that only
 * building it shows cannot be made (a client key that does not parse) is found after the console showed. The
 * operator is asked as before: the console goes, the connection dialog says "Nothing was opened" with the context,
 * its API server and the cause, and offers the sandbox, the file, trying again and quitting.
 */
class ClientBuiltLateUiTest {
    @TempDir
    Path dir;
    HeadroomApp app;
    final FxRobot robot = new FxRobot();
    String kubeconfigBefore;

    @BeforeEach
    void remember() throws Exception {
        kubeconfigBefore = System.getProperty("kubeconfig");
        String notACertificate = Base64.getEncoder().encodeToString("not a certificate".getBytes());
        String notAKey = Base64.getEncoder().encodeToString(("-----BEGIN RSA PRIVATE KEY-----\nbm90IGEga2V5\n"
                + "-----END RSA PRIVATE KEY-----\n").getBytes());
        Path kubeconfig = dir.resolve("config.yaml");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts: [{name: prod, context: {cluster: c, user: u}}]
                """.formatted(notACertificate, notAKey));
        System.setProperty("kubeconfig", kubeconfig.toString());
    }

    @AfterEach
    void close() throws Exception {
        FaultConsoles.closeConsole(app); // and the connection window a failed assertion left open
        FaultConsoles.restoreKubeconfig(kubeconfigBefore);
    }

    @Test
    void aClientThatCannotBeBuiltBringsBackTheConnectionDialogWithTheContextAndTheCause() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, FaultConsoles.workloads(MockCluster.unreachableUrl()));
        FxToolkit.registerPrimaryStage();
        app = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--config=" + workloads,
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir),
                "--journal=" + dir.resolve("journal.jsonl"));
        app.notConnected().get(60, TimeUnit.SECONDS);
        FaultConsoles.waitUntil("the connection dialog", 60, () -> ConnectionDialog.shows(app),
                () -> "session " + app.session());
        assertNull(onFx(() -> app.session()), "the session whose client could not be built was closed");
        assertFalse(onFx(() -> robot.lookup(".top-bar").tryQuery().isPresent()), "no console behind the dialog");

        List<String> lines = ConnectionDialog.lines(app);
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertTrue(line.startsWith("context prod https://127.0.0.1:9 — failed: "), "the context and its server: " + line);
        OperatorWords.assertPlain("the connection dialog", line);
        String headline = ConnectionDialog.headline(app);
        assertTrue(headline.startsWith("Nothing was opened"), headline);
        for (String id : List.of(ConnectionProgressView.SANDBOX_ID, ConnectionProgressView.EDIT_ID,
                ConnectionProgressView.RETRY_ID, ConnectionProgressView.QUIT_ID)) {
            assertTrue(ConnectionDialog.offered(app, id), id + " is offered");
        }
        assertEquals(1, (int) onFx(() -> app.notConnectedCount()), "asked once");
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
