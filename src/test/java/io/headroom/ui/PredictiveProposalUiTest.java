package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ForecastMode;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.supervise.ClassControls;
import io.headroom.ui.supervise.InboxView;
import io.headroom.ui.supervise.ProposalRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.Node;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.input.KeyCode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 29, the console's side: the operator sets a class's forecast mode to propose from its class controls; ahead
 * of a forecast rise a predictive proposal reaches the inbox; approved with the A key, the floor is held and, once
 * it is due, the decision's explanation in the detail says "forecast floor N until …". The forecast is a synthetic
 * one (a fake {@link ClassForecasts}), the sandbox runs at 10×.
 *
 * <p>The forecast is drawn as a band on the load chart (the forecast-console branch's band, from the same
 * forecasts the proposals are made from: {@code Session#useForecasts}).
 */
class PredictiveProposalUiTest {
    static ConsoleWindow window;
    static String cls;
    static Instant riseAt;
    final FxRobot robot = new FxRobot();

    /** A rise to 1,000 jobs/s (p80) for 15 minutes from {@link #riseAt}, 0.1 jobs/s around it. */
    static final class Rising implements ClassForecasts {
        final Instant start;

        Rising(Instant start) {
            this.start = start;
        }

        @Override
        public Forecast arrivals(String className) {
            if (!className.equals(cls)) {
                return null;
            }
            int n = 48;
            double[] p50 = new double[n];
            double[] p80 = new double[n];
            double[] p95 = new double[n];
            for (int i = 0; i < n; i++) {
                long t = start.getEpochSecond() + i * 300L;
                boolean rise = t >= riseAt.getEpochSecond() && t < riseAt.getEpochSecond() + 900;
                p50[i] = rise ? 800 : 0.1;
                p80[i] = rise ? 1000 : 0.1;
                p95[i] = rise ? 1200 : 0.1;
            }
            return new Forecast("jobs/s", Forecast.Model.WEEKDAY_WEEKEND, start.getEpochSecond(), 300, p50, p80, p95,
                    1, 0.06, 5, "the last 5 weekdays rose from 0.1 to 900 jobs/s at this time ± 4 min",
                    ZoneId.of("UTC"));
        }

        @Override
        public Forecast service(String className) {
            return null;
        }
    }

    @BeforeAll
    static void open() throws Exception {
        Session session = Session.sandbox(29, Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(2),
                new MemoryJournal());
        session.setSpeed(10);
        cls = session.loop().classes().get(0).name();
        Instant now = session.clock().instant();
        Instant start = Instant.ofEpochSecond(now.getEpochSecond() / 300 * 300);
        riseAt = start.plusSeconds(3 * 300); // 10 to 15 minutes ahead: a minute or so of the operator's time at 10×
        session.useForecasts(new Rising(start));
        window = ConsoleWindow.open(session);
    }

    @AfterAll
    static void close() throws Exception {
        window.close();
    }

    static <T> T onFx(java.util.concurrent.Callable<T> c) throws Exception {
        return ConsoleWindow.onFx(c);
    }

    static List<JournalRecord> journal() {
        return window.session().journal().history().records();
    }

    @Test
    void aPredictiveProposalAheadOfTheRiseApprovedByKeyboardIsAFloorInTheExplanation() throws Exception {
        // The operator picks the class (a click on its row): the detail stops following the worst row.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> window.view().overviewViewModel().rows()
                .stream().filter(r -> r.name().equals(cls)).findFirst().map(r -> {
                    window.view().overviewViewModel().choose(r);
                    return true;
                }).orElse(false)));
        ConsoleDialogs.show(window.view(), cls);
        // The operator sets the class's forecast mode from its class controls: a policy edit, journaled.
        @SuppressWarnings("unchecked")
        ChoiceBox<ForecastMode> forecast = (ChoiceBox<ForecastMode>) ConsoleWindow.find(robot,
                "#" + ClassControls.FORECAST_ID);
        assertEquals(ForecastMode.FORECAST_ONLY, onFx(forecast::getValue), "the default: drawn, never acts");
        assertTrue(onFx(() -> forecast.getConverter().toString(forecast.getValue())).equals("Forecast: forecast only"));
        onFx(() -> {
            forecast.setValue(ForecastMode.PROPOSE);
            return null;
        });
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> journal().stream().anyMatch(r ->
                r.kind() == Kind.POLICY_EDITED && cls.equals(r.className()) && r.detail() != null
                        && r.detail().contains("→ propose")));
        // Journaled first, then the live policy changes (from the next tick on).
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () ->
                window.session().loop().classes().get(0).policy().forecastMode() == ForecastMode.PROPOSE);

        // Ahead of the rise, a predictive proposal in the inbox.
        AtomicReference<ProposalRow> seen = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> {
            seen.set(onFx(() -> window.view().supervisionViewModel().pending().stream()
                    .filter(ProposalRow::forecast).findFirst().orElse(null)));
            return seen.get() != null;
        });
        ProposalRow p = seen.get();
        assertEquals(cls, p.className());
        assertEquals(riseAt, p.expiresAt(), "it stays until the rise is due");
        assertTrue(p.createdAt().isBefore(p.floorFrom()), "proposed ahead of the floor's start: " + p);
        assertTrue(p.floorFrom().isBefore(riseAt), "the floor starts ahead of the rise: " + p);
        assertTrue(p.to() > p.from(), "never a floor at or below what runs: " + p);
        assertTrue(p.explanation().startsWith("hold " + p.to() + " replicas from "), p.explanation());
        assertTrue(p.explanation().contains("for the forecast rise at"), p.explanation());
        assertTrue(p.explanation().contains("backtest error 6 %"), p.explanation());

        // The forecast drawn as a band on the load chart: the synthetic rise's p80 of 1,000 jobs/s right of now.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> window.view().lookupAll("*").stream()
                .filter(n -> n instanceof io.headroom.ui.chart.TimeChart c && c.isVisible()
                        && c.getForecastBand() != null)
                .map(n -> ((io.headroom.ui.chart.TimeChart) n).getForecastBand())
                .anyMatch(b -> java.util.Arrays.stream(b.p80()).anyMatch(v -> Math.abs(v - 1000) < 1e-6))));

        // Its card, found and highlighted; the A key approves it.
        robot.targetWindow(window.view().getScene().getWindow());
        // The cards hold still once the pointer is on the inbox (InboxHoldUiTest); until it gets there, another
        // class's proposal coming or going can still move p's card between finding it and the click. Click p's card
        // as drawn now until the click lands on it.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!highlighted(p) && System.nanoTime() < deadline) {
            robot.clickOn(card(p));
            WaitForAsyncUtils.waitForFxEvents();
        }
        assertTrue(highlighted(p), "the predictive proposal's card is the highlighted one");
        // Cells are reused as the list changes: the card of p, as drawn now.
        Node drawn = card(p);
        String shown = onFx(() -> ((Label) drawn.lookup(".card-change")).getText());
        assertTrue(shown.startsWith("forecast floor " + p.to()), shown);
        shoot("predictive-proposal");
        Typing.keys(robot, KeyCode.A);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> journal().stream().anyMatch(r ->
                r.kind() == Kind.FORECAST_FLOOR_APPROVED && p.id().equals(r.proposalId())));
        JournalRecord approved = journal().stream().filter(r -> r.kind() == Kind.FORECAST_FLOOR_APPROVED)
                .findFirst().orElseThrow();
        assertEquals(p.to(), approved.after());
        assertTrue(approved.reason().startsWith("approved by "), approved.reason());
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> window.view().supervisionViewModel()
                .pending().stream().noneMatch(r -> r.id().equals(p.id()))));

        // The class controls show the floor and offer to cancel it.
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> ((Label) window.view()
                .lookup("#" + ClassControls.STATE_ID)).getText().contains("forecast floor " + p.to())));
        assertTrue(onFx(() -> window.view().lookup("#" + ClassControls.CANCEL_FLOOR_ID).isVisible()));

        // Once due, the decision explains the floor.
        Label explanation = (Label) ConsoleWindow.find(robot, "#" + DetailView.EXPLANATION_ID);
        assertNotNull(explanation);
        WaitForAsyncUtils.waitFor(120, TimeUnit.SECONDS, () -> onFx(explanation::getText)
                .contains("forecast floor " + p.to() + " until"));
        assertTrue(onFx(() -> window.view().eventsViewModel().events().stream()
                .anyMatch(e -> e.text().contains("forecast floor"))), "the approval is an event on the strip");
        shoot("forecast-floor-held");
        assertTrue(onFx(() -> window.view().incidentsViewModel().incidents().stream().anyMatch(i ->
                i.kind() == io.headroom.ui.shell.Incident.Kind.FLOOR && cls.equals(i.className())
                        && i.detail().startsWith("forecast floor " + p.to()))), "a standing state in the banner");

        // Cancelled from the class controls, where it shows: journaled, and the floor is gone.
        robot.clickOn(ConsoleWindow.find(robot, "#" + ClassControls.CANCEL_FLOOR_ID));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> journal().stream().anyMatch(r ->
                r.kind() == Kind.FORECAST_FLOOR_CANCELLED && cls.equals(r.className())));
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> window.view().eventsViewModel().events()
                .stream().anyMatch(e -> e.text().contains(cls + " forecast floor cancelled"))));
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> !onFx(explanation::getText).contains("forecast floor"));
        assertTrue(onFx(() -> !window.view().lookup("#" + ClassControls.CANCEL_FLOOR_ID).isVisible()));
    }

    /** With -Dheadroom.shots=DIR, the console as it is now, into DIR/name.png (to look at; nothing asserted). */
    static void shoot(String name) throws Exception {
        String dir = System.getProperty("headroom.shots");
        if (dir == null) {
            return;
        }
        javafx.scene.image.WritableImage img = onFx(() -> window.view().getScene().snapshot(null));
        java.awt.image.BufferedImage b = new java.awt.image.BufferedImage((int) img.getWidth(), (int) img.getHeight(),
                java.awt.image.BufferedImage.TYPE_INT_ARGB);
        for (int y = 0; y < b.getHeight(); y++) {
            for (int x = 0; x < b.getWidth(); x++) {
                b.setRGB(x, y, img.getPixelReader().getArgb(x, y));
            }
        }
        javax.imageio.ImageIO.write(b, "png", java.nio.file.Path.of(dir, name + ".png").toFile());
    }

    /** Whether the inbox has the focus with {@code p}'s card highlighted: what the A key acts on. */
    static boolean highlighted(ProposalRow p) throws Exception {
        return onFx(() -> {
            ProposalRow row = ((InboxView) window.view().lookup(".inbox")).highlightedOnScreen();
            return row != null && row.id().equals(p.id());
        });
    }

    /** The inbox's card of {@code p}, once it is drawn. */
    static Node card(ProposalRow p) throws Exception {
        AtomicReference<Node> found = new AtomicReference<>();
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> {
            found.set(onFx(() -> window.view().lookup("#" + InboxView.LIST_ID).lookupAll(".list-cell").stream()
                    .filter(n -> n instanceof ListCell<?> c && c.isVisible() && c.getItem() instanceof ProposalRow r
                            && r.id().equals(p.id()) && c.getParent() != null && c.getParent().isVisible())
                    .findFirst().orElse(null)));
            return found.get() != null;
        });
        return found.get();
    }
}
