package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.overview.ClassRow;
import io.headroom.ui.overview.OverviewView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.ComboBox;
import javafx.scene.control.TableView;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console on two (mock) clusters at once, from a workloads file whose classes live in two
 * kubeconfig contexts; Prometheus is down. The context switcher changes which cluster the
 * overview shows, and every class says its telemetry is missing (never zero load).
 */
class ContextSwitcherUiTest {
    @RegisterExtension
    static final MockApiServerExtension EAST = new MockApiServerExtension();
    @RegisterExtension
    static final MockApiServerExtension WEST = new MockApiServerExtension();
    static MockCluster east;
    static MockCluster west;
    static Session session;
    static ConsoleWindow window;
    static MainView view;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("headroom-contexts");
        east = EAST.cluster();
        west = WEST.cluster();
        east.deployment("payments", "worker", 3);
        west.deployment("search", "indexer", 5);
        west.deployment("search", "crawler", 2);
        // The crawler is already managed by a CPU HPA: Headroom must not fight it.
        west.hpa("search", "crawler-cpu", "crawler", 2, 8, null);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "east", "t0ken-for-the-test", "east",
                east.url(), "payments", "west", west.url(), "search");
        Path workloads = dir.resolve("workloads.yaml");
        // Nothing listens at Prometheus's URL: Prometheus is down.
        Files.writeString(workloads, MockCluster.workloads(MockCluster.unreachableUrl(),
                "payments", "east", "payments", "worker", "indexing", "west", "search", "indexer",
                "crawling", "west", "search", "crawler"));
        window = ConsoleWindow.connect(workloads, kubeconfig);
        session = window.session();
        view = window.view();
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSwitcherChangesTheClusterTheOverviewShows() throws Exception {
        TableView<ClassRow> table = onFx(() -> robot.lookup("#" + OverviewView.TABLE_ID).queryTableView());
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> table.getItems().size()) == 3);

        ComboBox<String> switcher = onFx(() -> robot.lookup("#" + TopBar.CONTEXT_SWITCHER_ID).queryComboBox());
        assertTrue(onFx(switcher::isVisible), "two clusters open: the switcher shows");
        assertEquals(List.of("all contexts", "east", "west"), onFx(() -> List.copyOf(switcher.getItems())));

        robot.clickOn(switcher).clickOn("west");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> names(table)).equals(
                List.of("indexing", "crawling")));
        robot.clickOn(switcher).clickOn("east");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> names(table)).equals(List.of("payments")));
        // The east class's replicas come from the east cluster.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> onFx(() -> table.getItems().get(0).currentReplicasProperty().get()) == 3);
    }

    @Test
    void prometheusDownShowsNoDataAndHoldsReplicas() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> view.overviewViewModel().rows().stream()
                .filter(r -> r.alertsProperty().get().contains(ClassRow.Alert.TELEMETRY_MISSING)).count()) >= 1);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS,
                () -> onFx(() -> view.viewModel().metricsHealthProperty().get()) == MainViewModel.Health.DOWN);
        String detail = onFx(() -> view.viewModel().metricsDetailProperty().get());
        assertTrue(detail.contains("Prometheus cannot be reached") || detail.contains("Prometheus did not answer in time"),
                detail); // in words, not the client's codes (issue 26)
        // Nothing was proposed or applied from missing data.
        assertEquals(3, east.admin.apps().deployments().inNamespace("payments").withName("worker").get().getSpec()
                .getReplicas());
        assertTrue(onFx(() -> view.supervisionViewModel().pending().isEmpty()));
    }

    @Test
    void anHpaManagedClassIsObserveOnlyWithTheReasonAndTheHpasOwnView() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> onFx(() -> view.viewModel().blockedProperty().get()).contains("observe-only"));
        String why = onFx(() -> view.viewModel().blockedDetailProperty().get());
        assertTrue(why.contains("crawling") && why.contains("crawler-cpu"), why);
        onFx(() -> {
            view.overviewViewModel().select("crawling");
            return null;
        });
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                () -> onFx(() -> view.detailViewModel().autoscalerProperty().get()).startsWith("HPA crawler-cpu"));
        assertTrue(onFx(() -> view.detailViewModel().actuationProperty().get()).startsWith("observe-only here"));
        assertTrue(onFx(() -> view.detailViewModel().autoscalerProperty().get()).contains("replicas 2–8"));
    }

    static List<String> names(TableView<ClassRow> t) {
        return t.getItems().stream().map(ClassRow::name).toList();
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
