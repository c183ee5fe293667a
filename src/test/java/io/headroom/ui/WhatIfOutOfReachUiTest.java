package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.headroom.kube.MockCluster;
import io.headroom.ui.shell.MainViewModel.Health;
import io.headroom.ui.supervise.ClassControls;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import javafx.stage.Stage;
import javafx.stage.Window;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * Issue 28: What-if needs only the history already recorded, so it stays enabled while the cluster is out of
 * reach (the actions on the cluster are disabled: there is no decision), and its window says the cluster is
 * out of reach.
 */
class WhatIfOutOfReachUiTest {
    @TempDir
    Path dir;
    ConsoleWindow window;
    HttpServer prometheus;
    final FxRobot robot = new FxRobot();

    @AfterEach
    void close() throws Exception {
        onFx(() -> {
            for (Window w : List.copyOf(Window.getWindows())) {
                if (w instanceof Stage s && s.getOwner() != null) {
                    s.close();
                }
            }
            return null;
        });
        if (window != null) {
            window.close();
        }
        if (prometheus != null) {
            prometheus.stop(0);
        }
    }

    @Test
    void whatIfOpensWhileTheClusterIsOutOfReachAndSaysSo() throws Exception {
        prometheus = AnsweringPrometheus.start();
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "up", "t0ken-for-the-test", "up",
                MockCluster.unreachableUrl(), "shop");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, AnsweringPrometheus.workloads(prometheus));
        window = ConsoleWindow.connect(workloads, kubeconfig);
        waitUntil("Cluster red, the class in view", () -> window.view().viewModel().clusterHealthProperty().get()
                == Health.DOWN && "orders".equals(window.view().detailViewModel().classNameProperty().get()));
        waitUntil("a point recorded", () -> window.session().history().find("orders") != null);

        assertTrue(disabled(ClassControls.FREEZE_ID), "no decision: nothing to freeze");
        assertTrue(disabled(ClassControls.OVERRIDE_ID));
        assertFalse(disabled(ClassControls.WHAT_IF_ID), "What-if replays the history: enabled");
        onFx(() -> {
            robot.lookup("#" + ClassControls.WHAT_IF_ID).queryButton().fire();
            return null;
        });
        waitUntil("the What-if window, saying the cluster is out of reach", () -> Window.getWindows().stream()
                .anyMatch(w -> w instanceof Stage s && s.isShowing() && s.getTitle() != null
                        && s.getTitle().startsWith("What if — orders")
                        && s.getTitle().contains("the cluster is out of reach")));
    }

    boolean disabled(String id) throws Exception {
        return onFx(() -> robot.lookup("#" + id).queryButton().isDisabled());
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        FaultConsoles.waitUntil(window, what, condition);
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
