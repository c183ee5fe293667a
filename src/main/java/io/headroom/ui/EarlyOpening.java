package io.headroom.ui;

import io.headroom.session.Launcher;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Fast start: the console's session begins opening (settings, journal, the sandbox or the workloads
 * file's connections, on the launcher's own thread) as the process starts, while JavaFX starts its
 * toolkit on another, instead of after it. {@link HeadroomApp} takes it over in {@code start}; what
 * the launcher said meanwhile ("Connecting to …") is passed on then. Started by {@link Console} only:
 * an application started any other way (the UI tests) opens its session itself.
 */
final class EarlyOpening {
    private static volatile EarlyOpening pending;

    private final Map<String, String> named;
    private final Launcher launcher;
    private final CompletableFuture<Launcher.Opening> opening;
    private Consumer<String> progress;
    private String said;

    private EarlyOpening(Map<String, String> named) {
        this.named = named;
        this.launcher = Launcher.forConsole(Launcher.Options.of(named));
        this.opening = launcher.launchOrAsk(this::say);
        opening.whenComplete((o, e) -> StartupMarks.at("opened"));
    }

    /** Begins opening for these command-line options ({@code --name=value}, as JavaFX parses them). */
    static void begin(String[] options) {
        try {
            pending = new EarlyOpening(named(options));
        } catch (RuntimeException e) {
            pending = null; // the application parses the options again and says what is wrong
        }
    }

    /** The opening begun and not yet taken, left where it is (for the tests), else null. */
    static EarlyOpening pending() {
        return pending;
    }

    /** The opening begun for exactly these options, once; null when none was (or it was taken). */
    static EarlyOpening take(Map<String, String> named) {
        EarlyOpening e = pending;
        pending = null;
        if (e != null && !e.named.equals(named)) {
            e.discard();
            return null;
        }
        return e;
    }

    /** Not taken: its session closes once open (its loop, and the journal's lock, are not left behind). */
    CompletableFuture<Void> discard() {
        return opening.thenAccept(o -> {
            if (o instanceof Launcher.Launched l) {
                l.session().close();
            }
        });
    }

    /** Whether the session is already open (or failed): the console can show it as its first frame. */
    boolean opened() {
        return opening.isDone();
    }

    Launcher launcher() {
        return launcher;
    }

    /** From now on progress goes to {@code to} (the last thing said before is passed on at once). */
    CompletableFuture<Launcher.Opening> attach(Consumer<String> to) {
        synchronized (this) { // passed on under the lock, so the texts keep their order
            progress = to;
            if (said != null) {
                to.accept(said);
            }
        }
        return opening;
    }

    /** On the launcher's thread; {@code progress} only hands the text to the FX thread, so the lock is short. */
    private synchronized void say(String text) {
        said = text;
        if (progress != null) {
            progress.accept(text);
        }
    }

    /** {@code --name=value} options by name, as {@code Application.Parameters.getNamed()} gives them. */
    static Map<String, String> named(String[] options) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String o : options) {
            int eq = o.indexOf('=');
            if (o.startsWith("--") && eq > 2) {
                m.put(o.substring(2, eq), o.substring(eq + 1));
            }
        }
        return m;
    }
}
