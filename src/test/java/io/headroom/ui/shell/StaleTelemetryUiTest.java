package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.prometheus.it.SharedPrometheus;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.ui.overview.ClassRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The console on a real Prometheus where one class's queue length comes from a series that stopped
 * updating 30 s ago (a pushed series: Prometheus still answers with its last value). The overview
 * says STALE DATA, the top bar counts the stale input and names it, the detail gives its age, and
 * nothing is proposed from it.
 */
@ExtendWith(SharedPrometheus.class)
class StaleTelemetryUiTest {
    @RegisterExtension
    static final MockApiServerExtension API = new MockApiServerExtension();
    static MockCluster cluster;
    static Session session;
    static ConsoleWindow window;
    static MainView view;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start(SharedPrometheus.Fixture fx) throws Exception {
        Path dir = Files.createTempDirectory("headroom-stale");
        fx.exporter.gaugeAt("hr_pushed_queue_length", "class=\"ui-stale\"", 90, Instant.now().minusSeconds(30));
        cluster = API.cluster();
        cluster.deployment("reports", "renderer", 4);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken-for-the-test", "prod",
                cluster.url(), "reports");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, io.headroom.ui.FaultConsoles.workloads(String.valueOf(fx.url()), 2,
                "sum(hr_pushed_queue_length{class=\"ui-stale\"})", "max(hr_oldest_age_seconds{class=\"plan-a\"})",
                "sum(rate(hr_jobs_total{class=\"plan-a\"}[5s]))"));
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
    void aStaleQueueLengthIsShownAsStaleAndHoldsReplicas() throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> view.overviewViewModel().rows().stream()
                .anyMatch(r -> r.alertsProperty().get().contains(ClassRow.Alert.TELEMETRY_STALE))));
        String why = onFx(() -> view.overviewViewModel().rows().get(0).alertDetailProperty().get());
        assertTrue(why.matches("(?s).*queueLength stale: sample [\\d.]+ s old \\(limit 2 s\\).*"), why);
        // The chip is drawn by the class's row at its next layout pass.
        String stale = onFx(() -> view.overviewViewModel().rows().stream()
                .filter(r -> r.alertsProperty().get().contains(ClassRow.Alert.TELEMETRY_STALE)).findFirst().orElseThrow().name());
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> io.headroom.ui.ConsoleWindow.drawnCell(robot,
                stale, "Alerts").filter(c -> c.chips().contains("STALE DATA")).isPresent()));

        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> onFx(() -> robot.lookup("#" + TopBar.FRESHNESS_ID).queryLabeled().getText()).endsWith("· 1 stale"));
        MainViewModel main = view.viewModel();
        // Amber for the stale input; waited for, as a loaded machine's late tick is briefly red by its age.
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS,
                () -> onFx(() -> main.freshnessHealthProperty().get()) == MainViewModel.Health.DEGRADED);
        assertEquals(MainViewModel.Health.DEGRADED, onFx(() -> main.metricsHealthProperty().get()),
                "Prometheus answers; its series stopped: degraded, not down");
        assertEquals("1 of 1 classes on stale samples", onFx(() -> main.metricsDetailProperty().get())
                .lines().findFirst().orElseThrow());
        String tip = onFx(() -> main.freshnessDetailProperty().get());
        assertTrue(tip.matches("(?s).*reports · queueLength: stale since \\d\\d:\\d\\d:\\d\\d — sample [\\d.]+ s old.*"),
                tip);

        onFx(() -> {
            view.overviewViewModel().select("reports");
            return null;
        });
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> onFx(() -> view.detailViewModel().inputs().stream()
                .anyMatch(i -> i.name().equals("queueLength") && i.status().startsWith("stale: sample "))));
        DetailViewModel.InputRow age = onFx(() -> view.detailViewModel().inputs().stream()
                .filter(i -> i.name().equals("oldestAge")).findFirst().orElseThrow());
        assertTrue(age.usable(), "the live series is fresh: " + age);

        assertTrue(onFx(() -> view.supervisionViewModel().pending().isEmpty()), "nothing proposed from stale data");
        assertEquals(4, cluster.admin.apps().deployments().inNamespace("reports").withName("renderer").get()
                .getSpec().getReplicas());
    }

    static <T> T onFx(Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }
}
