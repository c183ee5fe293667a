package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.prometheus.it.SharedPrometheus;
import io.headroom.ui.shell.MainViewModel;
import io.headroom.ui.shell.MainViewModel.Health;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;

/**
 * The console on a real Prometheus and a cluster that does not answer (issue 26 item 5): the fabric8
 * CRUD mock server stopped under a console that had read it, and a port where nothing ever listened.
 * The Cluster indicator is red and says why and since when, Metrics stays green (Prometheus answers),
 * Data is not green (the replicas were not read), and the replicas cell reads "—", never "0 (0)"; the
 * last value read is named as the last known one. No Java class name reaches the operator.
 */
@ExtendWith(SharedPrometheus.class)
class ClusterDownUiTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    @TempDir
    Path dir;
    ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    ConsoleWindow open(SharedPrometheus.Fixture fx, String server) throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod", server,
                "reports");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, FaultConsoles.workloads(fx.url().toString()));
        window = ConsoleWindow.connect(workloads, kubeconfig);
        return window;
    }

    @Test
    void aClusterThatStopsAnsweringIsRedAndItsReplicasAreNoLongerShownAsCurrent(SharedPrometheus.Fixture fx)
            throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("reports", "renderer", 4);
        open(fx, cluster.url());
        MainViewModel main = window.view().viewModel();
        waitUntil("the cluster read", () -> main.clusterHealthProperty().get() == Health.OK
                && ConsoleWindow.drawnCell(robot, "reports", "Replicas").map(c -> c.whole().startsWith("4"))
                .orElse(false));

        cluster.close(); // the API server goes away under the console
        waitUntil("Cluster red", () -> main.clusterHealthProperty().get() == Health.DOWN);
        // The watches close at once; why (a probe of the API server) follows within a tick or two.
        waitUntil("the cause", () -> main.clusterDetailProperty().get().contains("refused"));
        String why = onFx(() -> main.clusterDetailProperty().get());
        assertTrue(why.toLowerCase(java.util.Locale.ROOT).contains("refused"), "the cause in words: " + why);
        assertTrue(why.matches("(?s).*since \\d\\d:\\d\\d:\\d\\d.*"), "since when: " + why);

        waitUntil("the replicas unknown", () -> ConsoleWindow.drawnCell(robot, "reports", "Replicas")
                .map(c -> c.whole().equals("—")).orElse(false));
        String tip = onFx(() -> ConsoleWindow.drawnCell(robot, "reports", "Replicas").orElseThrow().tip());
        assertTrue(tip.matches("(?s).*last known 4.* at \\d\\d:\\d\\d:\\d\\d.*"), "the last value read, as such: " + tip);
        assertEquals("30", onFx(() -> ConsoleWindow.drawnCell(robot, "reports", "Queue").orElseThrow().whole()),
                "the signals still read");
        waitUntil("Data names the replicas", () -> main.freshnessDetailProperty().get().contains("reports · replicas"));
        assertNotEquals(Health.OK, onFx(() -> main.freshnessHealthProperty().get()));
        assertEquals(Health.OK, onFx(() -> main.metricsHealthProperty().get()), "Prometheus answers");
        FaultConsoles.assertAllPlain(window);
    }

    @Test
    void aClusterThatNeverAnsweredShowsDashesNotZeros(SharedPrometheus.Fixture fx) throws Exception {
        open(fx, MockCluster.unreachableUrl());
        MainViewModel main = window.view().viewModel();
        waitUntil("Cluster red", () -> main.clusterHealthProperty().get() == Health.DOWN
                && ConsoleWindow.drawnCell(robot, "reports", "Queue").map(c -> c.whole().equals("30")).orElse(false));
        // Read in one turn of the FX thread, once the row is drawn. Slots and Ceiling are columns a narrow table
        // gives up (OverviewView.fitColumns): each one drawn must show a dash; Replicas is always drawn.
        java.util.Map<String, String> cells = new java.util.HashMap<>();
        waitUntil("the row drawn", () -> {
            cells.clear();
            for (String column : new String[] {"Replicas", "Slots", "Ceiling"}) {
                ConsoleWindow.drawnCell(robot, "reports", column).ifPresent(c -> cells.put(column, c.whole()));
            }
            return cells.containsKey("Replicas");
        });
        cells.forEach((column, shown) -> assertEquals("—", shown, column + " was never read: unknown, never 0"));
        String why = onFx(() -> main.clusterDetailProperty().get());
        assertTrue(why.toLowerCase(java.util.Locale.ROOT).contains("refused"), why);
        waitUntil("Data names the replicas", () -> main.freshnessDetailProperty().get().contains("reports · replicas"));
        assertNotEquals(Health.OK, onFx(() -> main.freshnessHealthProperty().get()));
        assertEquals(Health.OK, onFx(() -> main.metricsHealthProperty().get()), "Prometheus answers");
        FaultConsoles.assertAllPlain(window);
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        FaultConsoles.waitUntil(window, what, condition);
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
