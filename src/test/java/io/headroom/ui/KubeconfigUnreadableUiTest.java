package io.headroom.ui;

import io.headroom.ui.fx.Tips;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockCluster;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;

/**
 * The real application started with an explicit {@code --config} while the kubeconfig it reads is not
 * a kubeconfig (issue 26 item 5): nothing opens behind the operator's back, not even the sandbox. The
 * connection dialog names the kubeconfig file, the line and the cause, in words; the sandbox opens only
 * when the operator chooses it there, saying in the top bar which file could not be read.
 */
class KubeconfigUnreadableUiTest {
    @TempDir
    Path dir;
    HeadroomApp app;
    final FxRobot robot = new FxRobot();
    String kubeconfigBefore;
    Path kubeconfig;

    @BeforeEach
    void remember() throws Exception {
        kubeconfigBefore = System.getProperty("kubeconfig");
        kubeconfig = dir.resolve("config.yaml");
        // Line 5 opens a quoted string that never ends: not YAML.
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: cl-prod
                  cluster: {server: "https://127.0.0.1:6443
                contexts: []
                """);
        System.setProperty("kubeconfig", kubeconfig.toString()); // read before KUBECONFIG, as kubectl's would be
    }

    @AfterEach
    void close() throws Exception {
        FaultConsoles.closeConsole(app); // and the connection window a failed assertion left open
        FaultConsoles.restoreKubeconfig(kubeconfigBefore);
    }

    void start() throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, FaultConsoles.workloads(MockCluster.unreachableUrl()));
        FxToolkit.registerPrimaryStage();
        app = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--config=" + workloads,
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir), // not a first run: no welcome
                "--journal=" + dir.resolve("journal.jsonl"));
    }

    @Test
    void nothingOpensUntilTheOperatorChoosesAndTheDialogNamesFileLineAndCause() throws Exception {
        start();
        app.notConnected().get(60, TimeUnit.SECONDS);
        FaultConsoles.waitUntil("the connection dialog", 60, () -> ConnectionDialog.shows(app),
                () -> "session " + app.session());
        assertNull(onFx(() -> app.session()), "no session opened: not the workloads file's, not the sandbox");
        assertFalse(onFx(() -> robot.lookup(".top-bar").tryQuery().isPresent()), "no console behind the dialog");

        List<String> lines = lines();
        assertEquals(1, lines.size(), lines.toString());
        String line = lines.get(0);
        assertTrue(line.startsWith("kubeconfig " + kubeconfig + ":5 — failed: "), "the file and the line: " + line);
        assertTrue(line.contains("malformed YAML"), "the cause: " + line);
        assertFalse(line.contains("127.0.0.1:6443"), "the file's own text is not echoed (it may hold a secret): " + line);
        OperatorWords.assertPlain("the connection dialog", line);
        String headline = headline();
        assertTrue(headline.startsWith("Nothing was opened"), headline);
        OperatorWords.assertPlain("the connection dialog's headline", headline);
        for (String id : List.of(ConnectionProgressView.SANDBOX_ID, ConnectionProgressView.EDIT_ID,
                ConnectionProgressView.RETRY_ID, ConnectionProgressView.QUIT_ID)) {
            assertTrue(offered(id), id + " is offered");
        }
        assertFalse(offered(ConnectionProgressView.CONTINUE_ID), "there is nothing to go on with");
        assertFalse(offered(ConnectionProgressView.CANCEL_ID), "nothing is being waited for");

        // Try again with the file still broken: asked again, still nothing opened.
        robot.clickOn(ConsoleWindow.find(robot, "#" + ConnectionProgressView.RETRY_ID));
        waitUntil("asked again", () -> app.connectionProgress() != null && app.connectionProgress().stage().isShowing()
                && app.notConnectedCount() == 2);
        assertNull(onFx(() -> app.session()));

        // The operator chooses the sandbox: it opens, saying which file could not be read.
        robot.clickOn(ConsoleWindow.find(robot, "#" + ConnectionProgressView.SANDBOX_ID));
        app.ready().get(60, TimeUnit.SECONDS);
        waitUntil("the sandbox", () -> app.session() != null && app.session().isSandbox());
        // The chip says it in few words; its tooltip says which file and why (the chips stay whole at 1280).
        Label chip = onFx(() -> robot.lookup(".top-bar").queryAs(javafx.scene.Parent.class)
                .lookupAll("." + Styles.CHIP + "." + Styles.WARN).stream().filter(n -> n instanceof Label)
                .map(n -> (Label) n).filter(l -> l.getText().contains("sandbox opened instead")).findFirst()
                .orElse(null));
        assertNotNull(chip, "a chip says the sandbox opened instead");
        String warning = onFx(() -> Tips.text(chip) == null ? "" : Tips.text(chip));
        assertTrue(warning.contains(kubeconfig.toString()) && warning.contains("opened the sandbox"), warning);
        OperatorWords.assertPlain("the top bar's warning", warning);
    }

    List<String> lines() throws Exception {
        return ConnectionDialog.lines(app);
    }

    String headline() throws Exception {
        return ConnectionDialog.headline(app);
    }

    boolean offered(String id) throws Exception {
        return ConnectionDialog.offered(app, id);
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        FaultConsoles.waitUntil(what, 60, () -> onFx(condition), () -> app.connectionProgress() == null
                ? "no connection dialog; session " + app.session() : lines() + " / " + headline());
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
