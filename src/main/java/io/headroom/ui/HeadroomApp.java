package io.headroom.ui;

import io.headroom.session.Launcher;
import io.headroom.session.Session;
import io.headroom.session.Settings;
import io.headroom.ui.fx.FxExecutor;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.SettingsDialog;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * The console application: it asks the session's {@link Launcher} for a session (the workloads
 * file from {@code --config=FILE} or the settings, else the built-in sandbox, with a standing warning
 * when that is a fallback) and shows what comes back. Opening happens off the FX thread; results
 * come back through the one {@link FxExecutor}.
 */
public final class HeadroomApp extends Application {
    private static final Logger LOG = Logger.getLogger(HeadroomApp.class.getName());

    private final Executor fx = FxExecutor.get();
    private final CompletableFuture<Session> ready = new CompletableFuture<>();
    private Stage stage;
    private Launcher launcher;
    private Session session;
    private MainView view;
    /** How long after the console's first frame the what-if's code is warmed (issue 29), once. */
    static final java.time.Duration WHAT_IF_WARM_UP_DELAY = java.time.Duration.ofSeconds(5);
    private boolean whatIfWarmed;
    /** On in the console ({@link Console#launch}); off in tests that start the app, unless one asks. */
    static volatile boolean warmUpWhatIf;
    /** The settings in force: the Settings button needs no file read on the FX thread. */
    private Settings settings = Settings.sandbox();
    private boolean stopped;

    @Override
    public void start(Stage stage) {
        StartupMarks.at("toolkit");
        this.stage = stage;
        // Usually the launcher began opening the session while JavaFX started (Console.launch).
        EarlyOpening early = EarlyOpening.take(getParameters().getNamed());
        launcher = early != null ? early.launcher() : Launcher.forConsole(Launcher.Options.of(getParameters().getNamed()));
        stage.setMinWidth(1100);
        stage.setMinHeight(700);
        var icon = HeadroomApp.class.getResource("/icons/headroom-64.png");
        if (icon != null) { // decoded off the FX thread (a cold PNG decoder is ~30 ms of the first frame's path)
            io.headroom.threads.NamedThreads.start("headroom-window-icon", () -> {
                Image image = new Image(icon.toExternalForm());
                fx.execute(() -> stage.getIcons().setAll(image)); // one icon, however often the app starts
            });
        }
        if (early != null && early.opened()) {
            // Fast start: the session opened while JavaFX started (the sandbox, usually). The first
            // frame is the console itself: no "Opening …" scene is styled, laid out and painted first.
            CompletableFuture<Launcher.Opening> done = early.attach(text -> { });
            if (!done.isCompletedExceptionally()) {
                try {
                    show(done.join());
                    return;
                } catch (RuntimeException e) {
                    LOG.log(Level.SEVERE, "the console could not open a session", e);
                    showMessage("The console could not open its session: " + io.headroom.ErrorWords.of(e), "Headroom");
                    ready.completeExceptionally(e);
                    return;
                }
            }
        }
        // Dark from the first frame: the window shows at once, painted, while the session opens. (Its scene, styled
        // now, is the console's too: measured, skipping it to wait for a session about to open made the console's
        // first frame later, not sooner.)
        showMessage("Opening the console …", "Headroom");
        open(early != null ? early.attach(this::connecting) : launcher.launchOrAsk(this::connecting));
    }

    private void show(Launcher.Opening o) {
        if (o instanceof Launcher.Launched launched) {
            showLaunched(launched);
        } else if (o instanceof Launcher.Rejected rejected) {
            showRejected(rejected);
        } else {
            showNotConnected((Launcher.NotConnected) o);
        }
    }

    private void open(CompletableFuture<? extends Launcher.Opening> opening) {
        opening.thenAcceptAsync(this::show, fx).whenComplete((v, e) -> {
            if (e != null) {
                LOG.log(Level.SEVERE, "the console could not open a session", e);
                ready.completeExceptionally(e);
            }
        });
    }

    /** Says what is being connected to while it takes (called off the FX thread). */
    private void connecting(String text) {
        fx.execute(() -> showMessage(text, "Headroom — connecting"));
    }

    /** A dark window saying what is happening, in the console's size (FX thread). */
    private void showMessage(String text, String title) {
        if (stopped) {
            return;
        }
        showScene(new StackPane(new Label(text)), title);
        StartupMarks.onFirstPulse(stage.getScene(), StartupMarks.WINDOW);
    }

    private void showScene(javafx.scene.Parent root, String title) {
        setRoot(stage, root);
        stage.setTitle(title);
        stage.show();
    }

    private static final String OWN_SCENE = "headroom.console-scene";

    /**
     * Puts {@code root} in the window's one scene, made (the console's own size, dark, with the
     * stylesheets) the first time: later roots — the real console after "Opening …", the next
     * session's — reuse it, so the stylesheets are parsed once and the window never shows an empty
     * new scene in between.
     */
    private static void setRoot(Stage stage, javafx.scene.Parent root) {
        Scene scene = stage.getScene();
        if (scene == null || !scene.getProperties().containsKey(OWN_SCENE)) { // none yet, or not one of these
            // The console's own size, so the window does not grow off-screen when the session replaces this.
            javafx.geometry.Dimension2D size = windowSize();
            scene = new Scene(root, size.getWidth(), size.getHeight());
            Styles.install(scene);
            Styles.paintDark(scene);
            scene.getProperties().put(OWN_SCENE, Boolean.TRUE);
            stage.setScene(scene);
            fill(stage);
        } else {
            var classes = root.getStyleClass(); // dark before it is in the scene: no frame without a theme
            if (!classes.contains(Styles.THEME_DARK) && !classes.contains(Styles.THEME_LIGHT)) {
                classes.add(Styles.THEME_DARK);
            }
            scene.setRoot(root);
        }
    }

    /**
     * The workloads file has errors: say where, and let the operator choose the sandbox, the editor
     * (then reload) or quitting. Nothing is opened meanwhile.
     */
    private void showRejected(Launcher.Rejected rejected) {
        if (stopped) {
            return;
        }
        io.headroom.ui.shell.ConfigProblemView v = new io.headroom.ui.shell.ConfigProblemView(rejected.file(),
                rejected.problems());
        v.setOnSandbox(() -> open(launcher.sandboxInstead(rejected)));
        v.setOnEdit(() -> edit(rejected.file(), v));
        v.setOnReload(() -> open(launcher.retry(rejected, this::connecting)));
        v.setOnQuit(javafx.application.Platform::exit);
        showScene(v, "Headroom — the workloads file has errors");
        StartupMarks.onFirstPulse(stage.getScene(), StartupMarks.WINDOW); // when it is the first scene
        this.rejected.complete(rejected);
    }

    /** Opens the file in the desktop's editor, off the FX thread (it starts a process). */
    private void edit(java.nio.file.Path file, io.headroom.ui.shell.ConfigProblemView v) {
        edit(file, why -> v.setStatus("Could not start an editor (" + why + "): edit " + file.toAbsolutePath()
                + ", then choose Reload the file."));
    }

    /** Opens the file in the desktop's editor off the FX thread; {@code failed} hears why not, on the FX thread. */
    private void edit(java.nio.file.Path file, java.util.function.Consumer<String> failed) {
        String uri = file.toAbsolutePath().toUri().toString();
        javafx.application.HostServices host = getHostServices();
        CompletableFuture.runAsync(() -> host.showDocument(uri), EDITOR).whenComplete((r, e) -> {
            if (e != null) {
                fx.execute(() -> failed.accept(io.headroom.ErrorWords.of(e)));
            }
        });
    }

    /**
     * What the workloads file names could not be opened (an unreadable kubeconfig, a missing context):
     * nothing is opened, not even the sandbox, until the operator chooses in the connection dialog, which
     * names the endpoint, the file and line (or address) and the cause.
     */
    private void showNotConnected(Launcher.NotConnected n) {
        if (stopped) {
            return;
        }
        notConnectedCount++;
        showMessage("Could not open " + n.file() + ": nothing was opened.", "Headroom — could not connect");
        var vm = io.headroom.ui.welcome.ConnectionProgressViewModel.nothingOpened(n.failure().endpoint(), n.file(),
                n.fileToEdit());
        var dialog = new io.headroom.ui.welcome.ConnectionProgressView(stage, vm, () -> {
            showMessage("Opening the sandbox …", "Headroom");
            open(launcher.sandboxInstead(n));
        }, () -> edit(n.fileToEdit(), why -> showMessage("Could not start an editor (" + why + "): edit "
                + n.fileToEdit().toAbsolutePath() + ", then start the console again.", "Headroom — could not connect")),
                javafx.application.Platform::exit, () -> {
                    showMessage("Opening " + n.file() + " …", "Headroom");
                    open(launcher.retry(n, this::connecting));
                });
        connectionProgress = dialog;
        dialog.show();
        notConnected.complete(n);
    }

    private int notConnectedCount;
    private final CompletableFuture<Launcher.NotConnected> notConnected = new CompletableFuture<>();

    /** Completes when the workloads file could not be opened and the console asks what to do (for the UI tests). */
    public CompletableFuture<Launcher.NotConnected> notConnected() {
        return notConnected;
    }

    /** How many times the console asked because the workloads file could not be opened (FX thread; for the UI tests). */
    public int notConnectedCount() {
        return notConnectedCount;
    }

    private static final Executor EDITOR = io.headroom.threads.NamedThreads.cached("headroom-editor");
    private final CompletableFuture<Launcher.Rejected> rejected = new CompletableFuture<>();

    /** Completes when the workloads file was rejected and the console asks what to do (for the UI tests). */
    public CompletableFuture<Launcher.Rejected> rejected() {
        return rejected;
    }

    private void showLaunched(Launcher.Launched launched) {
        if (stopped) {
            launched.session().close(); // the window closed while it was opening
            return;
        }
        settings = launched.settings();
        session = launched.session();
        StartupMarks.at("show");
        view = show(stage, session, carriedEvents);
        if (warmUpWhatIf && !whatIfWarmed) { // once a process: the next session's console finds the code compiled
            whatIfWarmed = true;
            view.warmUpWhatIf(WHAT_IF_WARM_UP_DELAY);
        } else if (warmUpWhatIf) {
            view.computeWeeksAhead(); // a reload's console: the weeks ahead, with no second warm-up
        }
        StartupMarks.at("built");
        carriedEvents = null;
        rememberTheme(view);
        view.setOnOpenSettings(this::openSettings);
        view.setOnReload(this::reload);
        if (launched.warning() != null) {
            view.viewModel().setStandingWarning(launched.warning());
        }
        StartupMarks.onFirstPulse(stage.getScene(), StartupMarks.WINDOW); // when it is the first scene
        StartupMarks.onFirstPulse(stage.getScene(), StartupMarks.UI);
        Session shown = session;
        boolean welcome = launcher.welcomes(launched);
        // After the view subscribed (the warm-up's ticks fill the charts) and after its whole window is drawn, the
        // detail in (fast start: the warm-up, backfill and first tick never hold the real UI back), in this order:
        // the start-up mark, going live, then ready (for the UI tests).
        view.detailShown().thenRun(() -> {
            StartupMarks.at("whole");
            try {
                if (session == shown && !stopped) {
                    java.util.concurrent.CompletableFuture<Void> live = launched.start();
                    StartupMarks.onFirstLiveTick(shown, live);
                    if (!shown.isSandbox()) { // what Headroom left on the clusters is offered once live
                        io.headroom.ui.shell.LeftoversView.offer(stage, shown, live, fx);
                    }
                    if (welcome) {
                        welcome();
                    } else if (!shown.isSandbox()) {
                        connecting(launched);
                    }
                }
            } finally {
                ready.complete(shown);
            }
        });
        // Hand back cleanly: closing the window with classes held asks first.
        // The admission question comes after it; cancelling either leaves the next close to ask again.
        io.headroom.ui.shell.ExitDialog.guard(stage, () -> session, fx, go -> io.headroom.ui.shell.AdmissionExitDialog
                .ask(stage, () -> session, fx, go), javafx.application.Platform::exit);
        if (!shown.isSandbox()) {
            // A client that only building it shows cannot be made: the console asks as it did before its window.
            shown.clientsBuilt().whenCompleteAsync((v, e) -> { // watched, not asked: they are built once live
                if (e != null && session == shown && !stopped) {
                    session = null;
                    if (connectionProgress != null) {
                        connectionProgress.close();
                    }
                    view.dispose();
                    open(launcher.clientsFailed(launched, e));
                }
            }, fx);
        }
    }

    /**
     * The first run: the welcome over the sandbox already running behind it. Every answer is
     * remembered; the sandbox stays unless a workloads file is opened or imported.
     */
    private void welcome() {
        io.headroom.ui.welcome.WelcomeView w = new io.headroom.ui.welcome.WelcomeView(stage);
        Settings answered = settings.welcomeAnswered();
        w.setOnTour(() -> remember(answered));
        w.setOnOpenFile(() -> {
            javafx.stage.FileChooser fc = new javafx.stage.FileChooser();
            fc.setTitle("Open a workloads file");
            fc.getExtensionFilters().add(new javafx.stage.FileChooser.ExtensionFilter("YAML", "*.yaml", "*.yml"));
            java.io.File f = fc.showOpenDialog(stage);
            if (f == null) {
                remember(answered);
            } else {
                switchTo(settings.withWorkloadsFile(f.toPath()));
            }
        });
        w.setOnImport(() -> {
            var vm = new io.headroom.ui.welcome.KedaImportViewModel(launcher.kedaImport(),
                    launcher.options().settingsFile().toAbsolutePath().getParent(), EDITOR, fx);
            var dialog = new io.headroom.ui.welcome.KedaImportDialog(stage, vm, file -> switchTo(settings.withWorkloadsFile(file)));
            dialog.stage().setOnHidden(e -> remember(answered)); // cancelled: the sandbox, answered
            importDialog = dialog;
            dialog.show();
        });
        welcomeView = w;
        w.show();
        welcomed.complete(w);
    }

    /**
     * A console opened from a workloads file, while its endpoints connect: each one's state, Cancel,
     * and the decisions (sandbox instead, edit the file, quit, go on). Gone once all answered.
     */
    private void connecting(Launcher.Launched launched) {
        Session s = launched.session();
        var vm = new io.headroom.ui.welcome.ConnectionProgressViewModel(() -> io.headroom.session.Endpoints.of(s));
        vm.refresh();
        if (vm.done().get()) {
            return;
        }
        var file = s.workloadsFile().orElse(null);
        var progress = new io.headroom.ui.welcome.ConnectionProgressView(stage, vm, () -> {
            if (session != s) {
                return;
            }
            String why = "Opened the sandbox instead of " + file + ": " + String.join("; ", vm.lines()) + ".";
            session = null;
            view.dispose();
            showMessage("Opening the sandbox …", "Headroom");
            open(launcher.sandboxInsteadOf(s, settings, why));
        }, () -> {
            if (file != null) {
                String uri = file.toAbsolutePath().toUri().toString();
                javafx.application.HostServices host = getHostServices();
                CompletableFuture.runAsync(() -> host.showDocument(uri), EDITOR);
                view.viewModel().setStandingWarning("Editing " + file.toAbsolutePath()
                        + ": reload it with Settings… → Connect once saved.");
            }
        }, javafx.application.Platform::exit);
        connectionProgress = progress;
        progress.show();
    }

    private io.headroom.ui.welcome.ConnectionProgressView connectionProgress;

    /** The connection progress while it shows (for the UI tests), else null. */
    public io.headroom.ui.welcome.ConnectionProgressView connectionProgress() {
        return connectionProgress;
    }

    /** The welcome was answered with the sandbox: saved off the FX thread; a failure is a standing warning. */
    private void remember(Settings answered) {
        if (settings.welcomed()) {
            return;
        }
        settings = answered;
        launcher.welcomeAnswered(answered).thenAcceptAsync(warning -> {
            if (warning != null && view != null) {
                view.viewModel().setStandingWarning(warning);
            }
        }, fx);
    }

    /**
     * The theme the settings remember, before the first frame; a switch is saved off the FX thread (a failure
     * is a standing warning).
     */
    private void rememberTheme(io.headroom.ui.shell.MainView v) {
        v.viewModel().darkThemeProperty().set(!settings.lightTheme());
        v.viewModel().darkThemeProperty().addListener((o, was, dark) -> {
            if (view != v) {
                return;
            }
            settings = settings.withLightTheme(!dark);
            launcher.remember(settings).thenAcceptAsync(warning -> {
                if (warning != null && view == v) {
                    v.viewModel().setStandingWarning(warning);
                }
            }, fx);
        });
    }

    /** Opens what {@code next} names instead of the sandbox (saved; a file with errors asks). */
    private void switchTo(Settings next) {
        settings = next;
        Session old = session;
        session = null;
        if (view != null) {
            view.dispose();
        }
        showMessage("Opening " + next.workloadsFile() + " …", "Headroom");
        open(launcher.relaunchOrAsk(old, next, this::connecting));
    }

    private io.headroom.ui.welcome.WelcomeView welcomeView;
    private io.headroom.ui.welcome.KedaImportDialog importDialog;
    private final CompletableFuture<io.headroom.ui.welcome.WelcomeView> welcomed = new CompletableFuture<>();

    /** Completes when the first run's welcome shows (for the UI tests). */
    public CompletableFuture<io.headroom.ui.welcome.WelcomeView> welcomeShown() {
        return welcomed;
    }

    /** Reads the workloads file again (it was just edited from What-if) and opens what it says. */
    private void reload() {
        Session old = session;
        if (old == null) {
            return;
        }
        session = null;
        view.dispose();
        carriedEvents = view.eventsViewModel(); // the event strip goes on where it was
        open(launcher.reload(old, settings, this::connecting));
    }

    /** The event list of the console a reload replaces, for the next one; null otherwise. */
    private io.headroom.ui.shell.EventListViewModel carriedEvents;

    private void openSettings() {
        SettingsDialog.show(stage, settings).ifPresent(next -> {
            settings = next;
            Session old = session;
            session = null;
            view.dispose();
            // Save, close (informers, leases, the journal lock) and reconnect off the FX thread.
            open(launcher.relaunchOrAsk(old, next, this::connecting));
        });
    }

    /** Builds the window for a session; used by the app and by the UI tests. */
    public static MainView show(Stage stage, Session session) {
        return show(stage, session, null);
    }

    /** As {@link #show(Stage, Session)}, the event list going on from {@code events} (null: a new one). */
    private static MainView show(Stage stage, Session session, io.headroom.ui.shell.EventListViewModel events) {
        MainView view = new MainView(session, FxExecutor.get(),
                events != null ? events : new io.headroom.ui.shell.EventListViewModel());
        StartupMarks.at("view");
        setRoot(stage, view);
        stage.setTitle(io.headroom.ui.shell.MainView.windowTitle(session.loop().cluster().contextName()));
        stage.show();
        return view;
    }

    /** The console window's size: the screen's visual bounds (without panels and docks), at least 1100×700. */
    private static javafx.geometry.Dimension2D windowSize() {
        var screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        return new javafx.geometry.Dimension2D(Math.max(1100, screen.getWidth()), Math.max(700, screen.getHeight()));
    }

    /** Fills the screen's visual bounds: an incident console uses the whole screen it is given. */
    private static void fill(Stage stage) {
        var screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        stage.setX(screen.getMinX());
        stage.setY(screen.getMinY());
        stage.setWidth(Math.max(1100, screen.getWidth()));
        stage.setHeight(Math.max(700, screen.getHeight()));
    }

    /** The running session (for the UI tests). */
    public Session session() {
        return session;
    }

    /** Completes with the first session once its whole window shows, the detail in (for the UI tests: opening is asynchronous). */
    public CompletableFuture<Session> ready() {
        return ready;
    }

    @Override
    public void stop() {
        stopped = true;
        if (view != null) {
            view.dispose();
        }
        if (session != null) {
            session.close();
        }
    }
}
