package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.welcome.ConnectionProgressView;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The connection progress of the real application opened on a workloads file whose endpoints do
 * not answer (issue 11, "Errors in plain words"): a closed loopback port and a black hole (a socket
 * that accepts and never answers). One line per endpoint in plain words, Cancel, then the choices
 * (the sandbox, edit the file, quit, go on with what answered); the class's actions stay disabled
 * while there is nothing to act on. Every state is waited for with a deadline, never a sleep.
 */
class ConnectionProgressUiTest {
    @TempDir
    Path dir;
    HeadroomApp app;
    ServerSocket blackHole;
    MockCluster cluster;
    final List<Socket> held = new CopyOnWriteArrayList<>();
    final FxRobot robot = new FxRobot();
    String kubeconfigBefore;

    @BeforeEach
    void remember() {
        kubeconfigBefore = System.getProperty("kubeconfig");
    }

    @AfterEach
    void close() throws Exception {
        FaultConsoles.closeConsole(app); // and the connection window a failed assertion left open
        if (blackHole != null) {
            blackHole.close();
        }
        for (Socket s : held) {
            s.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        FaultConsoles.restoreKubeconfig(kubeconfigBefore);
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort(); // nothing listens there once closed
        }
    }

    /** Accepts every connection and never answers a byte. */
    int blackHole() throws IOException {
        blackHole = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!blackHole.isClosed()) {
                try {
                    held.add(blackHole.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "black-hole");
        t.setDaemon(true);
        t.start();
        return blackHole.getLocalPort();
    }

    /** Starts the real application on a workloads file: Prometheus and the context {@code prod} at the given URLs. */
    HeadroomApp start(String prometheus, int timeoutSeconds, String kubeServer) throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod", kubeServer,
                "work");
        System.setProperty("kubeconfig", kubeconfig.toString()); // read before KUBECONFIG, as kubectl's would be
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "%s", timeoutSeconds: %d}
                classes:
                  - {name: payments, context: prod, namespace: work, target: {kind: Deployment, name: worker},
                     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},
                     policy: {pollIntervalSeconds: 1}}
                """.formatted(prometheus, timeoutSeconds));
        FxToolkit.registerPrimaryStage();
        app = (HeadroomApp) FxToolkit.setupApplication(HeadroomApp.class, "--config=" + workloads,
                "--settings=" + io.headroom.ui.welcome.SettingsFiles.answered(dir), // not a first run: no welcome
                "--journal=" + dir.resolve("journal.jsonl"));
        app.ready().get(60, TimeUnit.SECONDS);
        waitUntil("the connection progress shows", 60, this::progressShows);
        return app;
    }

    static <T> T fx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    void waitUntil(String what, int seconds, Callable<Boolean> condition) throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            String shown;
            try {
                shown = app.connectionProgress() == null ? "no progress window" : lines() + " / " + headline();
            } catch (Exception | AssertionError f) {
                shown = "(the FX thread did not answer: " + f + ")";
            }
            throw new AssertionError("not within " + seconds + " s: " + what + "; the window shows " + shown, e);
        }
    }

    /** Whether the progress window shows. */
    boolean progressShows() throws Exception {
        return ConnectionDialog.shows(app);
    }

    /** The progress window's endpoint lines, as shown. */
    List<String> lines() throws Exception {
        return ConnectionDialog.lines(app);
    }

    String headline() throws Exception {
        return ConnectionDialog.headline(app);
    }

    /** A button of the progress window: shown (with its row), enabled and inside the window, i.e. offered. */
    boolean offered(String id) throws Exception {
        return ConnectionDialog.offered(app, id);
    }

    boolean disabled(String id) throws Exception {
        return fx(() -> app.session() != null && robot.lookup("#" + id).queryButton().isDisabled());
    }

    /** No Java class names, no stack traces, never the token: words an operator reads. */
    static void assertPlain(String line) {
        assertFalse(line.matches(".*\\b[a-z]+\\.[a-z]+\\.[A-Za-z.]*(Exception|Error)\\b.*"), "no Java class names: " + line);
        assertFalse(line.contains("Exception") || line.contains("NoData[") || line.contains("\tat "), line);
        assertFalse(line.contains("t0ken"), "never a credential: " + line);
    }

    @Test
    void aClosedPortAndABlackHoleAreSaidInWordsAndTheChoicesFollow() throws Exception {
        int closed = closedPort();
        int hole = blackHole();
        start("http://127.0.0.1:" + closed, 2, "http://127.0.0.1:" + hole);

        // One line per endpoint: Prometheus refused at once, the cluster still silent (or timed out by now).
        waitUntil("Prometheus failed", 30, () -> lines().size() == 2 && lines().get(0).contains("failed"));
        List<String> lines = lines();
        assertTrue(lines.get(0).startsWith("Prometheus http://127.0.0.1:" + closed) && lines.get(0).contains(" — failed: "),
                lines.get(0));
        assertTrue(lines.get(0).toLowerCase(Locale.ROOT).contains("refused"), "the reason in words: " + lines.get(0));
        assertTrue(lines.get(1).startsWith("context prod http://127.0.0.1:" + hole + " — "), lines.get(1));
        assertTrue(lines.get(1).endsWith("connecting…") || lines.get(1).contains("timed out"), lines.get(1));
        lines.forEach(ConnectionProgressUiTest::assertPlain);
        assertPlain(headline());
        assertTrue(headline().contains("not answering"), headline());

        // A failed endpoint offers the choices at once, inside the window; there is nothing left to cancel.
        waitUntil("the choices inside the window", 10, () -> offered(ConnectionProgressView.QUIT_ID));
        for (String id : List.of(ConnectionProgressView.CONTINUE_ID, ConnectionProgressView.SANDBOX_ID,
                ConnectionProgressView.EDIT_ID, ConnectionProgressView.QUIT_ID)) {
            assertTrue(offered(id), id + " is offered");
        }
        assertFalse(offered(ConnectionProgressView.CANCEL_ID), "Cancel gives way to the choices");

        // The black hole becomes a timeout, said as one.
        waitUntil("the cluster timed out", 60, () -> lines().get(1).contains("timed out"));
        assertPlain(lines().get(1));

        // Behind the window there is nothing to act on: the class's actions are disabled.
        assertTrue(disabled(ClassControls.FREEZE_ID), "no decision: nothing to freeze");
        assertTrue(disabled(ClassControls.OVERRIDE_ID));
        assertTrue(disabled(ClassControls.DRAIN_ID));

        // Go on with what answered: the window goes, the console stays, its actions still disabled.
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConnectionProgressView.CONTINUE_ID));
        waitUntil("the progress window closed", 20, () -> !progressShows());
        Session s = app.session();
        assertFalse(s.isSandbox(), "still the workloads file's console");
        assertTrue(disabled(ClassControls.FREEZE_ID), "still nothing to act on");
        assertTrue(disabled(ClassControls.OVERRIDE_ID));
    }

    @Test
    void cancelStopsWaitingAndTheSandboxCanBeOpenedInstead() throws Exception {
        cluster = new MockCluster();
        try {
            cluster.deployment("work", "worker", 2);
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (e.getCode() != 409) { // a loaded machine: the client retried a create the server had done
                throw e;
            }
        }
        int hole = blackHole();
        start("http://127.0.0.1:" + hole, 60, cluster.url()); // Prometheus silent for a minute; the cluster answers

        waitUntil("a line per endpoint", 30, () -> lines().size() == 2);
        List<String> lines = lines();
        assertTrue(lines.get(0).startsWith("Prometheus http://127.0.0.1:" + hole) && lines.get(0).endsWith(" — connecting…"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("context prod " + cluster.url().replaceAll("/$", ""))
                && (lines.get(1).endsWith(" — connecting…") || lines.get(1).endsWith(" — ok")), lines.get(1));
        lines.forEach(ConnectionProgressUiTest::assertPlain);
        assertTrue(offered(ConnectionProgressView.CANCEL_ID), "while it waits, Cancel");
        assertFalse(offered(ConnectionProgressView.SANDBOX_ID), "no choices before there is a reason");
        assertFalse(offered(ConnectionProgressView.CONTINUE_ID));

        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConnectionProgressView.CANCEL_ID));
        waitUntil("the choices", 20, () -> offered(ConnectionProgressView.SANDBOX_ID));
        assertTrue(headline().startsWith("Stopped waiting."), headline());
        for (String id : List.of(ConnectionProgressView.CONTINUE_ID, ConnectionProgressView.EDIT_ID,
                ConnectionProgressView.QUIT_ID)) {
            assertTrue(offered(id), id + " is offered");
        }
        assertFalse(offered(ConnectionProgressView.CANCEL_ID), "cancelled once");

        // The sandbox instead: the window goes and the sandbox opens in the console's place.
        Session file = app.session();
        robot.clickOn(io.headroom.ui.ConsoleWindow.find(robot, "#" + ConnectionProgressView.SANDBOX_ID));
        waitUntil("the sandbox opened", 60, () -> fx(() -> app.session() != null && app.session() != file
                && app.session().isSandbox()));
        assertFalse(progressShows(), "the progress window closed");
        waitUntil("the sandbox's first decision enables the class's actions", 60,
                () -> !disabled(ClassControls.FREEZE_ID));
    }
}
