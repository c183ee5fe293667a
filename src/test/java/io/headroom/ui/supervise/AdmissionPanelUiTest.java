package io.headroom.ui.supervise;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.AdmissionEntry;
import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.AdmissionVerdict;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import io.headroom.ui.Styles;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.application.Platform;
import javafx.beans.property.SimpleStringProperty;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.api.FxToolkit;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The class detail's admission panel (design.md §2b) on a supervised sandbox class: the chip says what producers
 * read, a tightening shows as a proposal with Approve and Reject, and each button does what it says (journaled).
 */
class AdmissionPanelUiTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final String CLS = "orders";
    final FxRobot robot = new FxRobot();
    final ManualClock clock = new ManualClock(T0);
    final MemoryJournal journal = new MemoryJournal();
    SandboxCluster cluster;
    Supervisor supervisor;
    ControlLoop loop;
    Stage stage;
    io.headroom.cluster.WorkloadRef target;

    @BeforeEach
    void open() throws Exception {
        FxToolkit.registerPrimaryStage();
        SandboxClassSpec spec = SandboxClassSpec.builder(CLS).baseRate(2).segment(120, 300, 20)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).startupSeconds(90)
                .initialReplicas(2).build();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).pollIntervalSeconds(15)
                .startupSeconds(90).maxAgeSeconds(30.0).expectedServiceSeconds(1.0).build();
        target = spec.target();
        SandboxWorld world = new SandboxWorld(List.of(spec), 3, T0);
        cluster = new SandboxCluster(world, clock);
        WorkloadClass cls = new WorkloadClass(CLS, target, policy);
        supervisor = new Supervisor(List.of(cls), cluster.ports(), journal, clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        supervisor.setAdmissionPolicies(Map.of(CLS, new AdmissionPolicy(true, AdmissionPolicy.OnMissing.CONSERVATIVE,
                null)));
        loop = new ControlLoop(List.of(cls), cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
        onFx(() -> {
            AdmissionViewModel vm = new AdmissionViewModel(supervisor, new SimpleStringProperty(CLS), clock,
                    Platform::runLater, ZoneOffset.UTC);
            AdmissionPanel panel = new AdmissionPanel(vm);
            panel.getStyleClass().add(Styles.THEME_DARK);
            Scene scene = new Scene(panel, 900, 300);
            Styles.install(scene);
            stage = new Stage();
            stage.setScene(scene);
            stage.show();
            return null;
        });
    }

    @AfterEach
    void close() throws Exception {
        onFx(() -> {
            stage.hide();
            return null;
        });
    }

    void tickAt(double seconds) {
        clock.set(T0.plusMillis((long) (seconds * 1000)));
        loop.tick();
    }

    String text(String id) throws Exception {
        return onFx(() -> robot.lookup("#" + id).queryLabeled().getText());
    }

    boolean proposalShown() throws Exception {
        return onFx(() -> robot.lookup("#" + AdmissionPanel.PROPOSAL_ID).query().isVisible());
    }

    void waitForChip(String start) throws Exception {
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> text(AdmissionPanel.CHIP_ID).startsWith(start));
    }

    AdmissionEntry published() {
        return cluster.ports().admissions().published(target, CLS).orElse(null);
    }

    @Test
    void aTighteningIsShownAsAProposalAndApproveWritesIt() throws Exception {
        tickAt(0); // no completion seen yet: the conservative throttle, proposed
        waitForChip("ADMISSION THROTTLE");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, this::proposalShown);
        assertTrue(text(AdmissionPanel.CHIP_ID).endsWith("nothing published"), text(AdmissionPanel.CHIP_ID));
        assertTrue(text(AdmissionPanel.DETAIL_ID).startsWith("telemetry missing"), text(AdmissionPanel.DETAIL_ID));

        robot.clickOn("#" + AdmissionPanel.APPROVE_ID);
        waitForChip("PUBLISHED THROTTLE");
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !proposalShown());
        assertEquals(AdmissionVerdict.State.THROTTLE, published().state());
        assertTrue(onFx(() -> robot.lookup("#" + AdmissionPanel.CHIP_ID).query().getStyleClass().contains(Styles.WARN)));
        assertTrue(text(AdmissionPanel.DETAIL_ID).contains("expires at 00:01:00"), text(AdmissionPanel.DETAIL_ID));
        assertEquals(1, journal.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_PUBLISHED).count());

        tickAt(15); // telemetry back, the ready replicas keep up: a loosening, applied without asking
        waitForChip("PUBLISHED OPEN");
        assertFalse(proposalShown());
    }

    @Test
    void rejectKeepsWhatProducersReadAndTheBurstShowsTheCapacityItWaitsFor() throws Exception {
        tickAt(0);
        robot.clickOn("#" + AdmissionPanel.APPROVE_ID);
        waitForChip("PUBLISHED THROTTLE"); // the approval written before the next tick, or that tick races it
        tickAt(15);
        waitForChip("PUBLISHED OPEN");
        double t = 30;
        while (supervisor.admission(CLS).pending() == null && t < 300) {
            tickAt(t);
            t += 15;
        }
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, this::proposalShown);
        ClassAdmission a = supervisor.admission(CLS);
        String detail = text(AdmissionPanel.DETAIL_ID);
        assertTrue(a.decided().waitsFor() > 2, "the burst asks for more than the 2 ready: " + a.decided());
        assertTrue(detail.contains("waits for " + a.decided().waitsFor() + " replicas, ready in ~90 s"), detail);

        robot.clickOn("#" + AdmissionPanel.REJECT_ID);
        WaitForAsyncUtils.waitFor(10, TimeUnit.SECONDS, () -> !proposalShown());
        assertTrue(text(AdmissionPanel.STATUS_ID).contains("admission stays OPEN"), text(AdmissionPanel.STATUS_ID));
        waitForChip("PUBLISHED OPEN");
        assertEquals(AdmissionVerdict.State.OPEN, published().state());
        assertEquals(1, journal.replay().records().stream().filter(r -> r.kind() == Kind.ADMISSION_REJECTED).count());
    }

    @Test
    void theTextsSayWhatIsNotPublishedAndWhatExpired() {
        AdmissionVerdict closed = new AdmissionVerdict(AdmissionVerdict.State.CLOSED, 0, "closed until 6 replicas"
                + " are ready (~90 s)", null, 6, 90);
        ClassAdmission shownOnly = new ClassAdmission(CLS, AdmissionPolicy.DEFAULT, closed, null, null, "");
        AdmissionViewModel.Texts t = AdmissionViewModel.texts(shownOnly, T0, ZoneOffset.UTC);
        assertEquals("ADMISSION CLOSED · not published", t.chip());
        assertTrue(t.detail().contains("waits for 6 replicas, ready in ~90 s"), t.detail());
        AdmissionEntry old = AdmissionEntry.of(CLS, closed, T0, T0.plusSeconds(60), "alice");
        ClassAdmission expired = new ClassAdmission(CLS, new AdmissionPolicy(true, AdmissionPolicy.OnMissing.CLOSE,
                null), closed, old, null, "frozen (incident): not written");
        AdmissionViewModel.Texts e = AdmissionViewModel.texts(expired, T0.plusSeconds(61), ZoneOffset.UTC);
        assertEquals("PUBLISHED CLOSED · EXPIRED", e.chip());
        assertTrue(e.detail().contains("expired at 00:01:00"), e.detail());
        assertTrue(e.detail().endsWith("frozen (incident): not written"), e.detail());
    }
}
