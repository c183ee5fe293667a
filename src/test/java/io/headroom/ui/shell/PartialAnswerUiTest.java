package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.prometheus.StubPrometheus;
import io.headroom.prometheus.StubPrometheus.Answer;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.detail.DetailViewModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console on a Prometheus whose answer for one signal is partial (warnings, as Thanos or Mimir send
 * when a store did not answer): the top bar's Data field counts the partial input and names its warning,
 * the Metrics indicator is degraded and says "partial answers", the class detail shows the input as
 * partial with the warning, and nothing scales down on it.
 */
class PartialAnswerUiTest {
    @RegisterExtension
    static final MockApiServerExtension API = new MockApiServerExtension();
    static final String WARNING = "partial response: store eu-1 (10.0.3.7:10901) unavailable";
    static MockCluster cluster;
    static StubPrometheus prometheus;
    static ConsoleWindow window;
    static MainView view;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("headroom-partial");
        prometheus = new StubPrometheus(StubPrometheus.byQuery(q -> {
            String now = StubPrometheus.nowSeconds();
            boolean partial = q.contains("hr_partial_queue");
            // What came back says the queue is empty; the store that did not answer may hold the work.
            return Answer.json("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{},"
                    + "\"value\":[" + now + ",\"" + (partial ? "0" : "1") + "\"]}]}"
                    + (partial ? ",\"warnings\":[\"" + WARNING + "\"]" : "") + "}");
        }));
        cluster = API.cluster();
        cluster.deployment("reports", "renderer", 4);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod",
                cluster.url(), "reports");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, io.headroom.ui.FaultConsoles.workloads(String.valueOf(prometheus.url()), 2,
                "sum(hr_partial_queue{class=\"reports\"})", "max(hr_oldest_age_seconds{class=\"reports\"})",
                "sum(rate(hr_jobs_total{class=\"reports\"}[1m]))"));
        window = ConsoleWindow.connect(workloads, kubeconfig);
        view = window.view();
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
        if (prometheus != null) {
            prometheus.close();
        }
    }

    @Test
    void aPartialAnswerShowsAsPartialWithItsWarningAndScalesNothingDown() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS,
                () -> onFx(() -> robot.lookup("#" + TopBar.FRESHNESS_ID).queryLabeled().getText()).endsWith("· 1 partial"));
        MainViewModel main = view.viewModel();
        // DEGRADED for the partial input once the last tick is recent (a busy machine can delay one past 3 s: DOWN).
        WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS,
                () -> onFx(() -> main.freshnessHealthProperty().get()) == MainViewModel.Health.DEGRADED);
        assertEquals(MainViewModel.Health.DEGRADED, onFx(() -> main.metricsHealthProperty().get()),
                "Prometheus answers, but not all of it: degraded, not down");
        String metrics = onFx(() -> main.metricsDetailProperty().get());
        assertEquals("1 of 1 classes on partial answers (reports · queueLength: partial answer: " + WARNING + ")",
                metrics.lines().findFirst().orElseThrow());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> main.metricsDetailProperty().get())
                .contains("partial (last warning: " + WARNING + ")"));
        String data = onFx(() -> main.freshnessDetailProperty().get());
        assertTrue(data.contains("1 partial input (Prometheus warned the answer may be incomplete):\n"
                + "reports · queueLength: partial answer: " + WARNING), data);

        io.headroom.ui.overview.ClassRow row = onFx(() -> view.overviewViewModel().rows().stream()
                .filter(r -> r.name().equals("reports")).findFirst().orElseThrow());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> row.alertsProperty().get()
                .contains(io.headroom.ui.overview.ClassRow.Alert.PARTIAL_DATA)));
        assertTrue(onFx(() -> row.alertDetailProperty().get()).contains("queueLength partial answer: " + WARNING),
                "the row's PARTIAL chip says which input and why");

        onFx(() -> {
            view.overviewViewModel().select("reports");
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> view.detailViewModel().inputs().stream()
                .anyMatch(i -> i.name().equals("queueLength") && i.status().equals("partial answer: " + WARNING))));
        DetailViewModel.InputRow q = onFx(() -> view.detailViewModel().inputs().stream()
                .filter(i -> i.name().equals("queueLength")).findFirst().orElseThrow());
        assertFalse(q.usable(), "shown as not fine: " + q);
        assertEquals("0", q.value(), "the number that came back is shown: " + q);
        assertTrue(onFx(() -> view.detailViewModel().reasons().stream()
                .anyMatch(r -> r.equals("PARTIAL_DATA:queueLength"))), "the decision names it");

        assertTrue(onFx(() -> view.supervisionViewModel().pending().isEmpty()), "nothing proposed from a partial zero");
        assertEquals(4, cluster.admin.apps().deployments().inNamespace("reports").withName("renderer").get()
                .getSpec().getReplicas());
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
