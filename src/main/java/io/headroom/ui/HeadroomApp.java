package io.headroom.ui;

import io.headroom.journal.FileJournal;
import io.headroom.journal.Journal;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import java.io.IOException;
import java.nio.file.Path;
import io.headroom.ui.shell.MainView;
import java.time.Duration;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.image.Image;
import javafx.stage.Stage;

/** The console application: opens on the built-in sandbox when nothing else is configured. */
public final class HeadroomApp extends Application {
    private static final Logger LOG = Logger.getLogger(HeadroomApp.class.getName());
    /** Simulated history replayed before going live, so the charts open with context. */
    static final Duration WARM_UP = Duration.ofMinutes(15);

    private Session session;
    private MainView view;

    @Override
    public void start(Stage stage) {
        double speed = Double.parseDouble(getParameters().getNamed().getOrDefault("speed", "1"));
        long seed = Long.parseLong(getParameters().getNamed().getOrDefault("seed", "42"));
        String journalOption = getParameters().getNamed().get("journal");
        Path journalFile = journalOption != null ? Path.of(journalOption)
                : FileJournal.defaultDirectory().resolve("sandbox-journal.jsonl");
        Journal journal;
        String journalWarning = null;
        try {
            journal = FileJournal.open(journalFile);
        } catch (IOException | RuntimeException e) {
            // Keep the console usable, but say loudly that nothing is being journaled.
            journal = new MemoryJournal();
            journalWarning = "Journal unavailable (" + e.getMessage() + "): actions are kept in memory only.";
            LOG.log(Level.WARNING, journalWarning);
        }
        session = Session.sandbox(seed, Instant.now(), WARM_UP, journal);
        session.setSpeed(speed);
        view = show(stage, session);
        if (journalWarning != null) {
            view.viewModel().warningProperty().set(journalWarning);
        }
        session.startAsync(WARM_UP).whenComplete((v, e) -> {
            if (e != null) {
                LOG.log(Level.SEVERE, "the session failed to start", e);
            }
        });
    }

    /** Builds the window for a session; used by the app and by the UI tests. */
    public static MainView show(Stage stage, Session session) {
        MainView view = new MainView(session);
        var screen = javafx.stage.Screen.getPrimary().getVisualBounds();
        Scene scene = new Scene(view, Math.max(1100, Math.min(1600, screen.getWidth() - 40)),
                Math.max(700, Math.min(980, screen.getHeight() - 40)));
        Styles.install(scene);
        stage.setScene(scene);
        stage.setTitle("Headroom — " + session.loop().cluster().contextName());
        var icon = HeadroomApp.class.getResource("/icons/headroom-64.png");
        if (icon != null) {
            stage.getIcons().add(new Image(icon.toExternalForm()));
        }
        stage.setMinWidth(1100);
        stage.setMinHeight(700);
        stage.show();
        return view;
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
