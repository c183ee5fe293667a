package io.headroom.ui;

import io.headroom.config.ConfigException;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.FileJournal;
import io.headroom.journal.Journals;
import io.headroom.kube.Contexts;
import io.headroom.session.Session;
import io.headroom.session.Settings;
import io.headroom.ui.shell.MainView;
import io.headroom.ui.shell.SettingsDialog;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.scene.image.Image;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * The console application. It connects to what the settings (or {@code --config=FILE}) name, a
 * workloads file with Prometheus and clusters, and opens on the built-in sandbox when nothing is
 * configured or the connection fails (saying why). Connecting happens off the FX thread.
 */
public final class HeadroomApp extends Application {
    private static final Logger LOG = Logger.getLogger(HeadroomApp.class.getName());
    /** Simulated history replayed before going live, so the charts open with context. */
    static final Duration WARM_UP = Duration.ofMinutes(15);

    private Stage stage;
    private Session session;
    private MainView view;
    private Path settingsFile;
    /** The settings as last loaded or chosen: the Settings button needs no file read on the FX thread. */
    private Settings settings = Settings.sandbox();
    private double speed;
    private long seed;
    private String journalOption;

    @Override
    public void start(Stage stage) {
        this.stage = stage;
        var named = getParameters().getNamed();
        speed = Double.parseDouble(named.getOrDefault("speed", "1"));
        seed = Long.parseLong(named.getOrDefault("seed", "42"));
        journalOption = named.get("journal");
        settingsFile = named.containsKey("settings") ? Path.of(named.get("settings")) : Settings.defaultFile();
        String warning = null;
        try {
            settings = Settings.load(settingsFile);
        } catch (IOException e) {
            settings = Settings.sandbox();
            warning = "Settings unreadable (" + e.getMessage() + "); opened the sandbox.";
        }
        Path workloads = named.containsKey("config") ? Path.of(named.get("config")) : settings.workloadsFile();
        stage.setMinWidth(1100);
        stage.setMinHeight(700);
        var icon = HeadroomApp.class.getResource("/icons/headroom-64.png");
        if (icon != null) {
            stage.getIcons().add(new Image(icon.toExternalForm()));
        }
        if (workloads == null) {
            openSandbox(warning);
        } else {
            connect(workloads);
        }
    }

    /** Opens the built-in sandbox, with a standing warning when it is a fallback. */
    private void openSandbox(String warning) {
        Path file = journalOption != null ? Path.of(journalOption)
                : FileJournal.defaultDirectory().resolve("sandbox-journal.jsonl");
        Journals.Opened j = Journals.open(file, Journals.Fallback.MEMORY);
        Session s = Session.sandbox(seed, Instant.now(), WARM_UP, j.journal());
        s.setSpeed(speed);
        showSession(s, join(warning, j.warning()));
        s.startAsync(WARM_UP).whenComplete((v, e) -> {
            if (e != null) {
                LOG.log(Level.SEVERE, "the sandbox failed to start", e);
            }
        });
    }

    /** Connects to a workloads file's Prometheus and clusters off the FX thread. */
    private void connect(Path workloads) {
        Label label = new Label("Connecting to Prometheus and the clusters named in " + workloads + " …");
        // The console's own size, so the window does not grow off-screen when the session replaces this.
        javafx.geometry.Dimension2D size = windowSize();
        Scene scene = new Scene(new StackPane(label), size.getWidth(), size.getHeight());
        Styles.install(scene);
        scene.getRoot().getStyleClass().add(Styles.THEME_DARK);
        stage.setScene(scene);
        stage.setTitle("Headroom — connecting");
        stage.show();
        Thread t = new Thread(() -> {
            try {
                WorkloadsFile file = WorkloadsFile.read(workloads);
                Path journalFile = journalOption != null ? Path.of(journalOption)
                        : FileJournal.defaultDirectory().resolve("journal.jsonl");
                // Against a real cluster, never a silent in-memory journal: without its file the console observes only.
                Journals.Opened j = Journals.open(journalFile, Journals.Fallback.OBSERVE_ONLY);
                Session s;
                try {
                    s = Session.connect(file, Contexts.fromEnvironment(), j.journal());
                } catch (Exception e) {
                    j.journal().close(); // its lock is not kept by a console that did not start
                    throw e;
                }
                Platform.runLater(() -> {
                    showSession(s, j.warning());
                    s.startAsync(Duration.ZERO);
                });
            } catch (ConfigException e) {
                Platform.runLater(() -> openSandbox("Workloads file rejected: " + e.getMessage()
                        + " — opened the sandbox."));
            } catch (Exception e) {
                LOG.log(Level.WARNING, "could not connect", e);
                Platform.runLater(() -> openSandbox("Could not connect (" + e.getMessage()
                        + "); opened the sandbox."));
            }
        }, "headroom-connect");
        t.setDaemon(true);
        t.start();
    }

    private void showSession(Session s, String warning) {
        session = s;
        view = show(stage, s);
        view.setOnOpenSettings(this::openSettings);
        if (warning != null) {
            view.viewModel().setStandingWarning(warning);
        }
    }

    private void openSettings() {
        SettingsDialog.show(stage, settings).ifPresent(next -> {
            settings = next;
            Session old = session;
            view.dispose();
            // Save, close (informers, leases, the journal lock) and reconnect off the FX thread.
            Thread t = new Thread(() -> {
                String saveWarning = null;
                try {
                    next.save(settingsFile);
                } catch (IOException e) {
                    saveWarning = "Could not save settings (" + e.getMessage() + "); they apply until exit.";
                }
                old.close();
                String w = saveWarning;
                Platform.runLater(() -> {
                    if (next.workloadsFile() == null) {
                        openSandbox(w);
                    } else {
                        connect(next.workloadsFile());
                    }
                });
            }, "headroom-reconnect");
            t.setDaemon(true);
            t.start();
        });
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + " " + b;
    }

    /** Builds the window for a session; used by the app and by the UI tests. */
    public static MainView show(Stage stage, Session session) {
        MainView view = new MainView(session);
        javafx.geometry.Dimension2D size = windowSize();
        Scene scene = new Scene(view, size.getWidth(), size.getHeight());
        Styles.install(scene);
        stage.setScene(scene);
        stage.setTitle("Headroom — " + session.loop().cluster().contextName());
        stage.show();
        return view;
    }

    /** The console window's size: as much of the screen as it needs, within 1100×700 … 1600×980. */
    private static javafx.geometry.Dimension2D windowSize() {
        var screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        return new javafx.geometry.Dimension2D(Math.max(1100, Math.min(1600, screen.getWidth() - 40)),
                Math.max(700, Math.min(980, screen.getHeight() - 40)));
    }

    /** The running session (for the UI tests). */
    public Session session() {
        return session;
    }

    @Override
    public void stop() {
        if (view != null) {
            view.dispose();
        }
        if (session != null) {
            session.close();
        }
    }
}
