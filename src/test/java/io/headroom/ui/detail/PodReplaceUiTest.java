package io.headroom.ui.detail;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.overview.ClassRow;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Drain… on the sandbox's hung worker in the real console: the dialog says the pod is not making progress and
 * offers Replace it; the replacement runs through the supervisor (journaled), ends completed, and the class's
 * STUCK chip clears in the pod panel and the overview.
 */
class PodReplaceUiTest {
    static final String CLS = "payments-steady";
    static final String HUNG = "payments-steady-00001";
    static ConsoleWindow window;
    final FxRobot robot = new FxRobot();

    @BeforeAll
    static void start() throws Exception {
        Session s = Session.sandbox(SandboxCatalog.DEFAULT_SEED, Instant.now(), Duration.ZERO, new MemoryJournal());
        s.setSpeed(60);
        window = ConsoleWindow.open(s);
    }

    @AfterAll
    static void stop() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    @Test
    void replaceTheHungWorkerFromThePodPanel() throws Exception {
        onFx(() -> {
            window.view().overviewViewModel().select(CLS);
            return null;
        });
        PodPanelViewModel pods = onFx(() -> robot.lookup("#" + PodPanel.ID).queryAs(PodPanel.class)).viewModel();
        WaitForAsyncUtils.waitFor(180, TimeUnit.SECONDS, () -> onFx(() -> CLS.equals(pods.classNameProperty().get())
                && pods.rows().stream().anyMatch(r -> r.name().equals(HUNG) && r.stuck())));

        Button drain = onFx(() -> robot.lookup("#" + PodPanel.drainId(HUNG)).queryButton());
        javafx.application.Platform.runLater(drain::fire); // the dialog waits; do not block on it
        try {
            WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> showing("Replace it")) != null);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no Replace it; status: " + onFx(() -> window.view().supervisionViewModel()
                    .statusProperty().get()) + "; windows: " + onFx(() -> javafx.stage.Window.getWindows().stream()
                    .map(w -> w instanceof javafx.stage.Stage st ? st.getTitle() : w.toString()).toList()) + "; rows: "
                    + onFx(() -> pods.rows().toString()), e);
        }
        assertNotNull(onFx(() -> robot.lookup((Node n) -> n instanceof Label l && l.getText() != null
                && l.getText().startsWith(HUNG + " is not making progress") && l.getText().contains("back to the queue")
                && n.getScene() != null && n.getScene().getWindow().isShowing()).tryQuery().orElse(null)),
                "the dialog says plainly why, and what replacing costs");
        robot.clickOn(onFx(() -> showing("Replace it")));

        WaitForAsyncUtils.waitFor(240, TimeUnit.SECONDS, () -> window.session().journal().history().records().stream()
                .anyMatch(r -> r.kind() == JournalRecord.Kind.DRAIN_ENDED && CLS.equals(r.className())));
        JournalRecord ended = window.session().journal().history().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.DRAIN_ENDED && CLS.equals(r.className())).findFirst()
                .orElseThrow();
        assertTrue("COMPLETED".equals(ended.reason()) && ended.detail().startsWith("replaced " + HUNG + " by "),
                ended.reason() + ": " + ended.detail());
        assertTrue(window.session().journal().history().records().stream().anyMatch(r ->
                r.kind() == JournalRecord.Kind.POD_EVICTED && CLS.equals(r.className())));

        WaitForAsyncUtils.waitFor(240, TimeUnit.SECONDS, () -> onFx(() -> pods.rows().stream()
                .noneMatch(r -> r.name().equals(HUNG)) && pods.rows().stream().noneMatch(PodPanelViewModel.PodRow::stuck)
                && window.view().overviewViewModel().rows().stream().filter(r -> r.name().equals(CLS))
                .noneMatch(r -> r.alertsProperty().get().contains(ClassRow.Alert.STUCK))));
    }

    Button showing(String text) {
        return robot.lookup((Node n) -> n instanceof Button b && text.equals(b.getText()) && n.isVisible()
                && n.getScene() != null && n.getScene().getWindow() != null && n.getScene().getWindow().isShowing())
                .tryQuery().map(n -> (Button) n).orElse(null);
    }
}
