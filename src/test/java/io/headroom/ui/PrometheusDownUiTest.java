package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.ui.shell.MainViewModel;
import io.headroom.ui.shell.MainViewModel.Health;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;

/**
 * The console on a cluster that answers and a Prometheus where nothing listens (issue 26 item 5): the
 * Metrics indicator is red, the Data indicator is not green and says which inputs are missing since
 * when, the Cluster indicator stays green, the overview's signal cells read "—", and nothing the
 * operator reads carries a Java class name ("ConnectException").
 */
class PrometheusDownUiTest {
    @RegisterExtension
    static final MockApiServerExtension API = new MockApiServerExtension();
    static ConsoleWindow window;
    static String prometheus;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("headroom-prometheus-down");
        MockCluster cluster = API.cluster();
        cluster.deployment("reports", "renderer", 4);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod",
                cluster.url(), "reports");
        prometheus = MockCluster.unreachableUrl();
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, FaultConsoles.workloads(prometheus));
        window = ConsoleWindow.connect(workloads, kubeconfig);
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    @Test
    void metricsRedDataNotGreenAndTheSignalCellsUnknownInPlainWords() throws Exception {
        MainViewModel main = window.view().viewModel();
        waitUntil("the first ticks", () -> main.metricsHealthProperty().get() != Health.UNKNOWN
                && main.clusterHealthProperty().get() == Health.OK);
        waitUntil("Metrics red", () -> main.metricsHealthProperty().get() == Health.DOWN);
        String metrics = onFx(() -> main.metricsDetailProperty().get());
        assertTrue(metrics.contains("Prometheus cannot be reached"), metrics);
        assertTrue(metrics.matches("(?s).*failing since \\d\\d:\\d\\d:\\d\\d.*"), metrics);

        waitUntil("Data says what is missing", () -> main.freshnessProperty().get().contains("missing"));
        assertNotEquals(Health.OK, onFx(() -> main.freshnessHealthProperty().get()),
                "every input but the replicas is missing: the Data indicator is not green");
        String data = onFx(() -> main.freshnessDetailProperty().get());
        assertTrue(data.matches("(?s).*reports · queueLength: missing since \\d\\d:\\d\\d:\\d\\d.*"), data);
        assertTrue(data.contains("Prometheus cannot be reached"), data);
        assertEquals(Health.OK, onFx(() -> main.clusterHealthProperty().get()), "the cluster answers");

        waitUntil("the row is drawn", () -> ConsoleWindow.drawnCell(robot, "reports", "Queue").isPresent());
        // Read in one turn of the FX thread. Queue and Age are always drawn; Arrivals/s, Service and Slots are
        // columns a narrow table gives up (OverviewView.fitColumns): each one drawn must show a dash.
        java.util.Map<String, String> cells = onFx(() -> {
            java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
            for (String column : new String[] {"Queue", "Age", "Arrivals/s", "Service", "Slots"}) {
                ConsoleWindow.drawnCell(robot, "reports", column).ifPresent(c -> m.put(column, c.whole()));
            }
            return m;
        });
        assertTrue(cells.containsKey("Queue") && cells.containsKey("Age"), cells.toString());
        cells.forEach((column, shown) -> assertEquals("—", shown, column + " was not read: unknown, never 0"));
        assertTrue(onFx(() -> ConsoleWindow.drawnCell(robot, "reports", "Replicas").orElseThrow().whole())
                .startsWith("4"), "the replicas were read");
        FaultConsoles.assertAllPlain(window);
    }

    void waitUntil(String what, Callable<Boolean> condition) throws Exception {
        FaultConsoles.waitUntil(window, what, condition);
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
