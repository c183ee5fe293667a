package io.headroom.ui;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.testfx.util.WaitForAsyncUtils;

/** What the fault UI tests share: one class's workloads file and a wait that says what the console showed. */
public final class FaultConsoles {
    private FaultConsoles() {
    }

    /**
     * Closes a console a fault test started ({@code app}, may be null), the connection window a failed assertion
     * left open, and the primary stage.
     */
    static void closeConsole(javafx.application.Application app) throws Exception {
        if (app != null) {
            org.testfx.api.FxToolkit.cleanupApplication(app);
        }
        org.testfx.api.FxToolkit.setupFixture(() -> {
            for (javafx.stage.Window w : java.util.List.copyOf(javafx.stage.Window.getWindows())) {
                if (w instanceof javafx.stage.Stage s && s.getTitle() != null && s.getTitle().contains("connecting")) {
                    s.hide();
                }
            }
        });
        org.testfx.api.FxToolkit.setupStage(javafx.stage.Stage::hide);
    }

    /** Puts the {@code kubeconfig} system property back as it was ({@code before}, null: unset). */
    static void restoreKubeconfig(String before) {
        if (before == null) {
            System.clearProperty("kubeconfig");
        } else {
            System.setProperty("kubeconfig", before);
        }
    }

    /**
     * A workloads file with the class {@code reports} (context {@code prod}, Deployment
     * {@code reports/renderer}), polled every second, its signals the shared Prometheus's worked example
     * ({@code plan-a}: 30 queued, 50 s old, 0.5/s, 8 s each).
     */
    static String workloads(String prometheusUrl) {
        return workloads(prometheusUrl, 1, "sum(hr_queue_length{class=\"plan-a\"})",
                "max(hr_oldest_age_seconds{class=\"plan-a\"})", "sum(rate(hr_jobs_total{class=\"plan-a\"}[5s]))");
    }

    /** The same class with its own queries for the queue, the oldest age and the arrivals, and the timeout. */
    public static String workloads(String prometheusUrl, int timeoutSeconds, String queueLength, String oldestAge,
                                   String arrivalRate) {
        return """
                prometheus: {url: "%s", timeoutSeconds: %d}
                classes:
                  - name: reports
                    context: prod
                    namespace: reports
                    target: {kind: Deployment, name: renderer}
                    signals:
                      queueLength: %s
                      oldestAge: %s
                      arrivalRate: %s
                      meanService: "8"
                    policy: {pollIntervalSeconds: 1, slotsPerReplica: 1}
                """.formatted(prometheusUrl, timeoutSeconds, queueLength, oldestAge, arrivalRate);
    }

    /** Waits for {@code condition}, read on the FX thread, a minute at most; on timeout, fails with what the console showed. */
    static void waitUntil(ConsoleWindow window, String what, Callable<Boolean> condition) throws Exception {
        waitUntil(what, 60, () -> ConsoleWindow.onFx(condition),
                () -> ConsoleWindow.onFx(() -> OperatorWords.shown(window.view())));
    }

    /** {@link OperatorWords#assertAllPlain} on the FX thread. */
    static void assertAllPlain(ConsoleWindow window) throws Exception {
        ConsoleWindow.onFx(() -> {
            OperatorWords.assertAllPlain(window.view());
            return null;
        });
    }

    /** Waits for {@code condition} with a deadline; on timeout, fails with what the console showed. */
    static void waitUntil(String what, int seconds, Callable<Boolean> condition, Callable<Object> shown)
            throws Exception {
        try {
            WaitForAsyncUtils.waitFor(seconds, TimeUnit.SECONDS, condition);
        } catch (java.util.concurrent.TimeoutException | RuntimeException e) {
            Object s;
            try {
                s = shown.call();
            } catch (Exception | AssertionError f) {
                s = "(the FX thread did not answer: " + f + ")";
            }
            throw new AssertionError("not within " + seconds + " s: " + what + "; the console shows " + s, e);
        }
    }
}
