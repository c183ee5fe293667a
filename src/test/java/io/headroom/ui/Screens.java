package io.headroom.ui;

import io.headroom.journal.MemoryJournal;
import io.headroom.session.Launcher;
import io.headroom.session.Session;
import io.headroom.ui.shell.MainView;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.BooleanSupplier;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.control.SplitPane;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javafx.stage.Stage;

/**
 * Takes the README's screenshots (run by {@code scripts/screens} under Xvfb, one screen size per
 * run): the console on the sandbox with a freeze and an override standing, overview and detail,
 * dark and light, then a class drain in progress ("draining"), a reject with its reason typed
 * ("reject-reason") and the palette with "frz pay" typed ("palette"), written as {@code NAME-WxH.png} into
 * the directory given as the first argument.
 * Each step waits for what it needs (rows, the banner), never a fixed time.
 */
public final class Screens {
    private Screens() {
    }

    /** A launcher that is not an {@link Application}: JavaFX on the class path needs one. */
    public static void main(String[] args) {
        Application.launch(App.class, args);
    }

    /** The window and the steps. */
    public static final class App extends Application {
    private Session session;
    private MainView view;
    private Stage stage;
    private Path out;
    private final Deque<Step> steps = new ArrayDeque<>();

    private record Step(String what, BooleanSupplier ready, Runnable then) {
    }

    @Override
    public void start(Stage stage) throws Exception {
        this.stage = stage;
        out = Path.of(getParameters().getUnnamed().get(0));
        Files.createDirectories(out);
        session = Session.sandbox(7, java.time.Clock.systemUTC().instant(), Launcher.WARM_UP, new MemoryJournal());
        view = HeadroomApp.show(stage, session);
        session.startAsync(Launcher.WARM_UP);
        String size = (int) stage.getWidth() + "x" + (int) stage.getHeight();
        var sv = view.supervisionViewModel();
        // The warm-up's ticks have all arrived: the charts hold the whole quarter of an hour.
        steps.add(new Step("five classes, warmed up", () -> view.overviewViewModel().rows().size() == 5
                && sv.stateProperty().get() != null && view.detailViewModel().seriesProperty().get() != null
                && view.detailViewModel().seriesProperty().get().points() >= 170, () -> {
            sv.freeze("ledger-replay", Duration.ofMinutes(30), "incident 4711: ledger DB failover");
            sv.setOverride("enrichment", 6, Duration.ofMinutes(45), "db-connections ceiling during failover");
        }));
        int[] seen = new int[1];
        steps.add(new Step("the banner", () -> view.incidentsViewModel().incidents().size() == 2, () -> {
            view.overviewViewModel().select("enrichment");
            seen[0] = view.detailViewModel().seriesProperty().get().points();
        }));
        // The charts show the chosen class, laid out anew, after its next tick.
        steps.add(new Step("a tick", () -> "enrichment".equals(view.detailViewModel().classNameProperty().get())
                && view.detailViewModel().seriesProperty().get().points() > seen[0],
                () -> shoot("overview-dark-" + size)));
        steps.add(new Step("a frame", () -> true, () -> detail(true)));
        steps.add(new Step("a frame", () -> true, () -> shoot("detail-dark-" + size)));
        steps.add(new Step("a frame", () -> true, () -> {
            detail(false);
            view.viewModel().toggleTheme();
            seen[0] = view.detailViewModel().seriesProperty().get().points();
        }));
        // The charts take the new theme when they next draw: after the next tick.
        steps.add(new Step("a tick", () -> view.detailViewModel().seriesProperty().get().points() > seen[0],
                () -> shoot("overview-light-" + size)));
        steps.add(new Step("a frame", () -> true, () -> detail(true)));
        steps.add(new Step("a frame", () -> true, () -> shoot("detail-light-" + size)));
        draining(size); // switches to the dark theme, which the states after it keep
        pinned(size);
        nodeDrainConfirm(size);
        connecting(size);
        rejectReason(size);
        palette(size);
        steps.add(new Step("done", () -> true, () -> {
            view.dispose();
            session.close();
            Platform.exit();
        }));
        Timeline poll = new Timeline(new KeyFrame(javafx.util.Duration.millis(500), e -> next()));
        poll.setCycleCount(Timeline.INDEFINITE);
        poll.play();
    }

    /** Drain node on payments-steady's first node, asked: the confirmation over the Nodes window and the console. */
    private void nodeDrainConfirm(String size) {
        io.headroom.ui.nodes.NodeDrainViewModel[] vm = new io.headroom.ui.nodes.NodeDrainViewModel[1];
        steps.add(new Step("the Nodes window", () -> true, () -> vm[0] = view.openNodes("payments-steady")));
        steps.add(new Step("its nodes", () -> !vm[0].nodes().isEmpty(), () -> {
            vm[0].selectedProperty().set(vm[0].nodes().get(0));
            vm[0].askToDrain();
        }));
        steps.add(new Step("the confirmation", () -> showing("Headroom — Drain ") != null, () -> { }));
        steps.add(new Step("a frame", () -> true, () -> {
            shootOver("node-drain-confirm-" + size, showing("Nodes — "), showing("Headroom — Drain "));
            showing("Headroom — Drain ").close();
            showing("Nodes — ").close();
        }));
    }

    /** The Connecting dialog once both endpoints failed: the reasons and every choice, Quit included. */
    private void connecting(String size) {
        var failed = java.util.List.of(
                new io.headroom.session.Endpoints.Endpoint("Prometheus", "http://prometheus.monitoring:9090",
                        io.headroom.session.Endpoints.State.FAILED, "connection refused"),
                new io.headroom.session.Endpoints.Endpoint("context prod-eu-west-1",
                        "https://api.prod-eu-west-1.example.com:6443", io.headroom.session.Endpoints.State.TIMED_OUT,
                        "no answer within 10 s"));
        var vm = new io.headroom.ui.welcome.ConnectionProgressViewModel(() -> failed);
        io.headroom.ui.welcome.ConnectionProgressView[] v = new io.headroom.ui.welcome.ConnectionProgressView[1];
        steps.add(new Step("the Connecting dialog", () -> true, () -> {
            v[0] = new io.headroom.ui.welcome.ConnectionProgressView(stage, vm, () -> { }, () -> { }, () -> { },
                    () -> { });
            v[0].show();
        }));
        steps.add(new Step("its choices", vm.choosing()::get, () -> { }));
        steps.add(new Step("a frame", () -> true, () -> {
            shootOver("connecting-" + size, v[0].stage());
            v[0].close();
        }));
    }

    /** "reject-reason": Reject on the first proposal, a reason typed, the dialog over the console. */
    private void rejectReason(String size) {
        var sv = view.supervisionViewModel();
        steps.add(new Step("a proposal", () -> !sv.pending().isEmpty(), () -> {
            var p = sv.pending().get(0);
            view.overviewViewModel().select(p.className());
            // The dialog waits for its answer: opened after this animation's turn, not inside it.
            Platform.runLater(() -> view.actions().reject(p));
        }));
        steps.add(new Step("the reject dialog", () -> showing("Reject ") != null, () -> {
            var reason = (javafx.scene.control.TextField) showing("Reject ").getScene()
                    .lookup("#" + io.headroom.ui.supervise.Dialogs.REASON_ID);
            reason.setText("queue drains by itself after the 14:00 batch; keep the workers");
            reason.end();
        }));
        steps.add(new Step("a frame", () -> true, () -> {
            Stage d = showing("Reject ");
            shootOver("reject-reason-" + size, d);
            ((javafx.scene.control.Button) ((javafx.scene.control.DialogPane) d.getScene().getRoot())
                    .lookupButton(javafx.scene.control.ButtonType.CANCEL)).fire(); // nothing is rejected
        }));
    }

    /** "palette": Ctrl+K with "frz pay" typed, its matches listed (the README's example). */
    private void palette(String size) {
        steps.add(new Step("a frame", () -> true, () -> view.commands().all().stream()
                .filter(c -> c.title().startsWith("Command palette")).findFirst().orElseThrow().run().run()));
        steps.add(new Step("the palette", () -> stage.getScene().lookup("#"
                + io.headroom.ui.shell.CommandPalette.QUERY_ID) instanceof javafx.scene.control.TextField q && q.isVisible(), () -> ((javafx.scene.control.TextField) stage
                .getScene().lookup("#" + io.headroom.ui.shell.CommandPalette.QUERY_ID)).setText("frz pay")));
        steps.add(new Step("a frame", () -> true, () -> shoot("palette-" + size)));
    }

    private static Stage showing(String title) {
        return javafx.stage.Window.getWindows().stream().filter(w -> w instanceof Stage st && st.isShowing()
                && st.getTitle() != null && st.getTitle().startsWith(title)).map(w -> (Stage) w).findFirst()
                .orElse(null);
    }

    /** The console with {@code over} drawn on it where they lie on the screen (a window manager would). */
    private void shootOver(String name, Stage... over) {
        WritableImage base = stage.getScene().snapshot(null);
        BufferedImage b = awt(base);
        java.awt.Graphics2D g = b.createGraphics();
        for (Stage o : over) {
            g.drawImage(awt(o.getScene().snapshot(null)),
                    (int) (o.getX() + o.getScene().getX() - stage.getX() - stage.getScene().getX()),
                    (int) (o.getY() + o.getScene().getY() - stage.getY() - stage.getScene().getY()), null);
        }
        g.dispose();
        write(name, b);
    }

    /**
     * "pinned": a class pinned with a long reason, its status line showing beside the class controls
     * (which keep their labels; the line shortens, whole in its tooltip), in the dark theme (after "draining").
     */
    private void pinned(String size) {
        var sv = view.supervisionViewModel();
        steps.add(new Step("a frame", () -> true, () -> {
            sv.setOverride("search-interactive", 8, Duration.ofMinutes(40), "incident 4711: held at 8 while the"
                    + " search cluster reindexes after the ledger DB failover; do not scale down before 15:00");
            view.overviewViewModel().select("search-interactive");
        }));
        steps.add(new Step("the pin's status line", () -> {
            javafx.scene.Node state = stage.getScene().lookup("#" + io.headroom.ui.supervise.ClassControls.STATE_ID);
            return "search-interactive".equals(view.detailViewModel().classNameProperty().get())
                    && state instanceof javafx.scene.control.Label l && l.getText().contains("pinned to 8");
        }, () -> shoot("pinned-" + size)));
    }

    private void next() {
        Step s = steps.peek();
        if (s != null && s.ready().getAsBoolean()) {
            steps.poll();
            s.then().run();
        }
    }

    /**
     * "draining-SIZE" (dark): a class drain in progress, its DRAINING chip and status line; the class with the
     * most replicas of those neither frozen nor overridden, drained by two (to no fewer than one).
     */
    private void draining(String size) {
        String[] drained = new String[1];
        int[] seen = new int[1];
        steps.add(new Step("a frame", () -> true, () -> {
            view.viewModel().toggleTheme();
            var row = view.overviewViewModel().rows().stream()
                    .filter(r -> !r.name().equals("ledger-replay") && !r.name().equals("enrichment")
                            && !r.name().equals("search-interactive")) // pinned next
                    .max(java.util.Comparator.comparingInt(r -> r.currentReplicasProperty().get())).orElseThrow();
            drained[0] = row.name();
            view.supervisionViewModel().startDrain(row.name(), Math.max(1, row.currentReplicasProperty().get() - 2),
                    Duration.ofMinutes(10), "quiet hours: fewer workers");
            view.overviewViewModel().select(row.name());
            seen[0] = view.detailViewModel().seriesProperty().get().points();
        }));
        steps.add(new Step("the drain under way, a tick", () -> view.overviewViewModel().rows().stream()
                .anyMatch(r -> r.name().equals(drained[0]) && !r.drainProperty().get().isEmpty())
                && view.detailViewModel().seriesProperty().get().points() > seen[0],
                () -> shoot("draining-" + size)));
    }

    /** Detail: the class's charts and decision get most of the window. */
    private void detail(boolean on) {
        SplitPane split = (SplitPane) stage.getScene().lookup(".split-pane");
        split.setDividerPositions(on ? 0.0 : 0.34);
    }

    private void shoot(String name) {
        write(name, awt(stage.getScene().snapshot(null)));
    }

    private static BufferedImage awt(WritableImage img) {
        int w = (int) img.getWidth();
        int h = (int) img.getHeight();
        BufferedImage b = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = img.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                b.setRGB(x, y, r.getArgb(x, y));
            }
        }
        return b;
    }

    private void write(String name, BufferedImage b) {
        try {
            javax.imageio.ImageIO.write(b, "png", out.resolve(name + ".png").toFile());
            System.out.println("wrote " + out.resolve(name + ".png"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
}
