package io.headroom.session;

import io.headroom.config.ConfigException;
import io.headroom.config.WorkloadsFile;
import io.headroom.journalfile.FileJournal;
import io.headroom.journalfile.Journals;
import io.headroom.kube.Contexts;
import io.headroom.threads.NamedThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * Opens the console's session from its options and the saved settings, off the caller's thread:
 * a workloads file (Prometheus and one gateway per context, the file journal), else the built-in
 * sandbox (with a standing warning saying why when the settings could not be read). A workloads file
 * never falls back to the sandbox behind the operator's back: one with errors comes back
 * {@link Rejected}, one whose kubeconfig, contexts or Prometheus cannot be opened {@link NotConnected},
 * and the console asks; the sandbox opens only when the operator chooses it. Against a real cluster the
 * journal never silently falls back to memory: without its file the console observes only
 * ({@link Journals.Fallback#OBSERVE_ONLY}).
 */
public final class Launcher {
    private static final Logger LOG = Logger.getLogger(Launcher.class.getName());
    /** Simulated history replayed before going live, so the charts open with context. */
    public static final Duration WARM_UP = Duration.ofMinutes(15);

    /** The sandbox's speeds (× real time): the top bar's buttons and the only values {@code --speed} takes. */
    public static final java.util.List<Double> SPEEDS = java.util.List.of(1.0, 10.0, 60.0);

    /**
     * Which built-in sandbox {@code --sandbox} opens: the plain one (the five classes and hourly-reports), or the
     * five with intake-api, whose producers obey admission, or with render, placed across spot and on-demand pools
     * (issue 30).
     */
    public enum SandboxKind {
        PLAIN("plain"), ADMISSION("admission"), PLACEMENT("placement");

        private final String word;

        SandboxKind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }

        /** The kind {@code --sandbox=WORD} names, or an exception whose message lists the words it takes. */
        public static SandboxKind of(String word) {
            for (SandboxKind k : values()) {
                if (k.word.equals(word == null ? "" : word.strip())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("--sandbox must be plain, admission or placement, got '" + word + "'");
        }
    }

    /**
     * The console's command-line options ({@code --speed=N --seed=N --journal=F --settings=F --config=F
     * --operator=NAME --sandbox=KIND}).
     *
     * @param sandbox the sandbox asked for with {@code --sandbox} (opened whatever the settings name), or null
     */
    public record Options(double speed, long seed, Path journal, Path settingsFile, Path config, String operator,
                          SandboxKind sandbox) {

        /** Without {@code --sandbox}. */
        public Options(double speed, long seed, Path journal, Path settingsFile, Path config, String operator) {
            this(speed, seed, journal, settingsFile, config, operator, null);
        }

        /** Without an explicit operator: the kubeconfig user (or, in the sandbox, the OS user) acts. */
        public Options(double speed, long seed, Path journal, Path settingsFile, Path config) {
            this(speed, seed, journal, settingsFile, config, null);
        }

        /** From the options by name (without the dashes), the defaults for those absent. */
        public static Options of(Map<String, String> named) {
            double speed = Double.parseDouble(named.getOrDefault("speed", "1"));
            if (!SPEEDS.contains(speed)) {
                // Main refuses it with exit code 2 before any window; this guards the other ways in.
                throw new IllegalArgumentException("--speed must be 1, 10 or 60, got " + named.get("speed"));
            }
            return new Options(speed,
                    Long.parseLong(named.getOrDefault("seed", "42")),
                    named.containsKey("journal") ? Path.of(named.get("journal")) : null,
                    named.containsKey("settings") ? Path.of(named.get("settings")) : Settings.defaultFile(),
                    named.containsKey("config") ? Path.of(named.get("config")) : null,
                    named.containsKey("operator") ? Session.operatorName(named.get("operator")) : null,
                    named.containsKey("sandbox") ? SandboxKind.of(named.get("sandbox")) : null);
        }
    }

    /**
     * An opened session, not yet started: show it (subscribe to its ticks), then {@link #start()}, so
     * the warm-up's ticks reach the charts.
     *
     * @param warning  the standing warning when this is a fallback (sandbox instead, journal in memory), or null
     * @param settings the settings now in force (the Settings dialog starts from them)
     */
    public record Launched(Session session, String warning, Settings settings, Duration warmUp) implements Opening {

        /** Warm-up (sandbox) then go live, on the session's loop thread; returns at once. */
        public CompletableFuture<Void> start() {
            return session.startAsync(warmUp);
        }
    }

    /** What opening came to: a session to show, or a workloads file the operator must decide about. */
    public sealed interface Opening permits Launched, Rejected, NotConnected {
    }

    /**
     * The workloads file was read, but what it names could not be opened (the kubeconfig unreadable, a
     * context missing or refused, Prometheus's client not set up): nothing was opened, and the console
     * asks in its connection dialog whether to open the sandbox instead, edit the file to blame, try
     * again, or quit.
     *
     * @param file    the workloads file
     * @param failure which endpoint, where (file and line, or address) and why, in words
     * @param warning a warning from before the file was read (unreadable settings), or null
     */
    public record NotConnected(Path file, OpenFailure failure, Settings settings, String warning) implements Opening {

        /** The file to edit: the kubeconfig (or context's) file to blame, else the workloads file. */
        public Path fileToEdit() {
            return failure.file().orElse(file);
        }
    }

    /**
     * The workloads file has errors (syntax or content): nothing was opened, and the console asks
     * whether to open the sandbox, edit the file, or quit, rather than silently opening the sandbox.
     *
     * @param problem every error, each located as {@code FILE:LINE: field: message}
     * @param warning a warning from before the file was read (unreadable settings), or null
     */
    public record Rejected(Path file, ConfigException problem, Settings settings, String warning) implements Opening {

        /** The located errors, one per line ({@code workloads.yaml:3: classes[0].name: …}). */
        public java.util.List<String> problems() {
            return problem.problems().stream().map(ConfigException.Problem::toString).toList();
        }
    }

    private final Options options;
    private final Executor background;
    private final Clock wall;
    private final Supplier<Contexts> contexts;
    private final Supplier<java.util.List<Path>> kubeconfigFiles;
    /** The console's: a workloads file's clients are built once its window is drawn (the session goes live). */
    private boolean holdClients;

    /**
     * @param background where settings, journal and connections are opened (it may block on the network)
     * @param wall       the wall clock: the sandbox's simulated present starts from it
     * @param contexts   the kubeconfig contexts, read when a workloads file is opened
     */
    public Launcher(Options options, Executor background, Clock wall, Supplier<Contexts> contexts) {
        this(options, background, wall, contexts, java.util.List::of);
    }

    /** @param kubeconfigFiles the files {@code contexts} reads, named when they cannot be read */
    public Launcher(Options options, Executor background, Clock wall, Supplier<Contexts> contexts,
                    Supplier<java.util.List<Path>> kubeconfigFiles) {
        this.options = options;
        this.background = background;
        this.wall = wall;
        this.contexts = contexts;
        this.kubeconfigFiles = kubeconfigFiles;
    }

    /** The console's launcher: its own named thread, the system clock, the kubeconfig as kubectl finds it. */
    public static Launcher forConsole(Options options) {
        Launcher l = new Launcher(options, NamedThreads.cached("headroom-connect"), Clock.systemUTC(),
                Contexts::fromEnvironment, io.headroom.kube.KubeconfigFiles::named);
        // Its clients wait for the window (the console goes live once it is drawn): building them is half a second
        // of CPU that would share the two cores with that frame. Anything that needs one earlier starts it.
        l.holdClients = true;
        return l;
    }

    public Options options() {
        return options;
    }

    /** What a start opens: the settings (the sandbox's when unreadable, saying why) and the workloads file. */
    private record Start(Settings settings, String warning, Path workloads) {
    }

    private Start start() {
        Settings settings;
        String warning = null;
        try {
            settings = Settings.load(options.settingsFile());
        } catch (IOException e) {
            settings = Settings.sandbox();
            warning = "Settings unreadable (" + e.getMessage() + "); opened the sandbox.";
        }
        // --sandbox opens the sandbox asked for, whatever workloads file the settings name.
        Path workloads = options.sandbox() != null ? null
                : options.config() != null ? options.config() : settings.workloadsFile();
        return new Start(settings, warning, workloads);
    }

    /**
     * Reads the workloads file {@code old} was opened from again (after it was edited) and opens it,
     * with the same settings; nothing is saved. The sandbox, having no file, is reopened as it is. A file
     * that now has errors or cannot be opened comes back for the console to ask about, as at start.
     */
    public CompletableFuture<Opening> reload(Session old, Settings settings, Consumer<String> progress) {
        Path workloads = old.workloadsFile().orElse(null);
        return CompletableFuture.supplyAsync(() -> {
            old.close();
            Opening o = attempt(workloads, settings, null, progress);
            if (o instanceof Launched l) {
                carryOver(old, l.session());
            }
            return o;
        }, background);
    }

    /**
     * What a reload keeps of the session it replaces (issue 28): the load history of every class the file
     * still has (the charts keep their points while the backfill runs), and the last save into the file, so
     * it can still be reverted.
     */
    static void carryOver(Session old, Session next) {
        next.history().adopt(old.history(), next.loop().classes().stream().map(c -> c.name()).toList());
        old.policyEdits().lastSave().ifPresent(next.policyEdits()::carry);
    }

    /**
     * Reads the settings and opens what {@code --config} or they name; nothing configured opens the
     * sandbox. Before a connection that may take a while, {@code progress} hears what is being connected
     * to (on the background thread). A workloads file is never replaced by the sandbox: one with errors
     * comes back as {@link Rejected}, one that cannot be opened as {@link NotConnected}, for the console to
     * ask the operator ({@link #sandboxInstead}, {@link #retry}).
     */
    public CompletableFuture<Opening> launchOrAsk(Consumer<String> progress) {
        // --config names the file before the settings are read: it and the kubeconfig are read meanwhile, side by side.
        Path known = options.sandbox() == null ? options.config() : null;
        Read early = known == null ? null : read(known);
        return CompletableFuture.supplyAsync(() -> {
            Start st = start();
            return attempt(st.workloads(), st.settings(), st.warning(), progress, early);
        }, background);
    }

    /**
     * A workloads file and the kubeconfig being read on the launcher's threads; what either throws is thrown where
     * {@link #attempt} would have read it itself (a file with errors before the kubeconfig is looked at).
     */
    private record Read(Path workloads, CompletableFuture<WorkloadsFile> file, CompletableFuture<Contexts> kube) {
        WorkloadsFile fileOrThrow() throws ConfigException {
            try {
                return file.join();
            } catch (java.util.concurrent.CompletionException e) {
                if (e.getCause() instanceof ConfigException c) {
                    throw c;
                }
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }

        Contexts kubeOrThrow() {
            try {
                return kube.join();
            } catch (java.util.concurrent.CompletionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : e;
            }
        }
    }

    /** Whether the JDK's trust store was (or is being) read by {@link #warmTrustStore}. */
    private static final java.util.concurrent.atomic.AtomicBoolean TRUST_STORE_WARMED =
            new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * Reads and parses the JDK's trust store (cacerts, about 150 certificates) and loads the TLS provider on one of
     * the launcher's threads, once a process, while the kubeconfig and the journal are read: the JDK keeps the
     * certificates, so an https Prometheus client (OkHttp reads the default trust store when it is built: a fifth of
     * the connect thread) no longer waits for them. Nothing is trusted or changed by it.
     */
    private void warmTrustStore() {
        if (!TRUST_STORE_WARMED.compareAndSet(false, true)) {
            return;
        }
        background.execute(() -> {
            try {
                javax.net.ssl.TrustManagerFactory tmf = javax.net.ssl.TrustManagerFactory.getInstance(
                        javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
                tmf.init((java.security.KeyStore) null);
                javax.net.ssl.SSLContext.getInstance("TLS");
            } catch (java.security.GeneralSecurityException | RuntimeException e) {
                // A trust store that cannot be read is said by the client that needs it, in its own words.
                LOG.fine(() -> "trust store not read ahead: " + io.headroom.ErrorWords.of(e));
            }
        });
    }

    /**
     * The file, the JDK's trust store being read ahead when its Prometheus is reached over https (a plain-http one
     * sets up no TLS; the Kubernetes clients read it on their own threads after the window shows).
     */
    private WorkloadsFile tlsAhead(WorkloadsFile file) {
        if (file.prometheus() != null && file.prometheus().url() != null
                && "https".equalsIgnoreCase(file.prometheus().url().getScheme())) {
            warmTrustStore();
        }
        return file;
    }

    private Read read(Path workloads) {
        CompletableFuture<WorkloadsFile> file = CompletableFuture.supplyAsync(() -> {
            // What a save killed half way left beside the file (never a save under way: only old ones).
            io.headroom.config.FileSave.cleanStale(workloads, wall.instant());
            try {
                return tlsAhead(WorkloadsFile.read(workloads));
            } catch (ConfigException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, background);
        return new Read(workloads, file, CompletableFuture.supplyAsync(contexts, background));
    }

    /** The operator chose the sandbox over a rejected workloads file: it opens with a standing warning naming the file. */
    public CompletableFuture<Launched> sandboxInstead(Rejected r) {
        return CompletableFuture.supplyAsync(() -> sandbox(r.settings(), join(r.warning(), rejectedWarning(r))),
                background);
    }

    /** Reads the rejected file again (the operator edited it). */
    public CompletableFuture<Opening> retry(Rejected r, Consumer<String> progress) {
        return CompletableFuture.supplyAsync(() -> attempt(r.file(), r.settings(), r.warning(), progress), background);
    }

    private static String rejectedWarning(Rejected r) {
        return "Workloads file rejected: " + r.problem().getMessage() + " — opened the sandbox.";
    }

    /** The operator chose the sandbox over a workloads file that could not be opened: it opens saying why. */
    public CompletableFuture<Launched> sandboxInstead(NotConnected n) {
        return CompletableFuture.supplyAsync(() -> sandbox(n.settings(), join(n.warning(), "Could not open "
                + n.file() + ": " + n.failure().getMessage() + " — opened the sandbox.")), background);
    }

    /** Tries the file again (the operator edited the kubeconfig, or the cause went away). */
    public CompletableFuture<Opening> retry(NotConnected n, Consumer<String> progress) {
        return CompletableFuture.supplyAsync(() -> attempt(n.file(), n.settings(), n.warning(), progress), background);
    }

    /**
     * A console opened from a workloads file whose Kubernetes client could not be built (found only while building
     * it, after the window showed: a certificate or key that does not parse): the session is closed (its loop, and
     * the journal's lock), and what comes back is what opening would have said before the clients were built in the
     * background, for the console to ask as it does at start.
     */
    public CompletableFuture<Opening> clientsFailed(Launched launched, Throwable failure) {
        return CompletableFuture.supplyAsync(() -> {
            Session s = launched.session();
            s.close();
            Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            OpenFailure f = t instanceof OpenFailure o ? o : new OpenFailure("the workloads file's connections",
                    String.valueOf(s.workloadsFile().orElse(null)), null, io.headroom.ErrorWords.of(t));
            Path file = s.workloadsFile().orElse(null);
            LOG.warning("could not open " + file + ": " + f.getMessage());
            return new NotConnected(file, f, launched.settings(), launched.warning());
        }, background);
    }

    /** The first run's import from KEDA, on the kubeconfig this launcher reads. */
    public KedaImport kedaImport() {
        return new KedaImport(contexts);
    }

    /**
     * Whether to greet with the welcome: a first run (no settings file) that opened the sandbox
     * because nothing is configured, not because something failed or was asked for.
     */
    public boolean welcomes(Launched launched) {
        return !launched.settings().welcomed() && launched.session().isSandbox() && options.config() == null
                && options.sandbox() == null && launched.warning() == null;
    }

    /**
     * Remembers that the welcome was answered (its choice was the sandbox): the settings file is
     * written off the caller's thread; the future holds the warning when it could not be.
     */
    public CompletableFuture<String> welcomeAnswered(Settings current) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                current.welcomeAnswered().save(options.settingsFile());
                return null;
            } catch (IOException e) {
                return "Could not save settings (" + e.getMessage() + "); the welcome shows again next time.";
            }
        }, background);
    }

    /**
     * Remembers a choice made in the console (the theme): the settings file is written off the caller's
     * thread; the future holds the warning when it could not be.
     */
    public CompletableFuture<String> remember(Settings current) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                current.save(options.settingsFile());
                return null;
            } catch (IOException e) {
                return "Could not save settings (" + e.getMessage() + "); the theme is not remembered.";
            }
        }, background);
    }

    /**
     * Saves {@code next} (it applies until exit even when that fails, with a warning), closes
     * {@code old} (informers, leases, the journal's lock) and opens what {@code next} names; a workloads
     * file with errors or one that cannot be opened comes back for the console to ask about (the first
     * run's file just imported from KEDA has signals left to fill in).
     */
    public CompletableFuture<Opening> relaunchOrAsk(Session old, Settings next, Consumer<String> progress) {
        return CompletableFuture.supplyAsync(() -> {
            String saveWarning = null;
            try {
                next.save(options.settingsFile());
            } catch (IOException e) {
                saveWarning = "Could not save settings (" + e.getMessage() + "); they apply until exit.";
            }
            if (old != null) {
                old.close();
            }
            return attempt(next.workloadsFile(), next, saveWarning, progress);
        }, background);
    }

    /**
     * The operator stopped waiting for a workloads file's endpoints and chose the sandbox: {@code old}
     * is closed and the sandbox opens with a standing warning naming what did not answer; the saved
     * settings are unchanged (the next start tries the file again).
     */
    public CompletableFuture<Launched> sandboxInsteadOf(Session old, Settings settings, String why) {
        return CompletableFuture.supplyAsync(() -> {
            old.close();
            return sandbox(settings, why);
        }, background);
    }

    private Opening attempt(Path workloads, Settings settings, String warning, Consumer<String> progress) {
        return attempt(workloads, settings, warning, progress, null);
    }

    /** @param early the file and kubeconfig already being read (when {@code workloads} is its file), or null */
    private Opening attempt(Path workloads, Settings settings, String warning, Consumer<String> progress, Read early) {
        if (workloads == null) {
            return sandbox(settings, warning);
        }
        progress.accept("Connecting to Prometheus and the clusters named in " + workloads + " …");
        Read read = early != null && early.workloads().equals(workloads) ? early : null;
        if (read == null) {
            // What a save killed half way left beside the file (never a save under way: only old ones).
            io.headroom.config.FileSave.cleanStale(workloads, wall.instant());
        }
        try {
            WorkloadsFile file = read != null ? read.fileOrThrow() : tlsAhead(WorkloadsFile.read(workloads));
            Path journalFile = options.journal() != null ? options.journal()
                    : FileJournal.defaultDirectory().resolve("journal.jsonl");
            // Against a real cluster, never a silent in-memory journal: without its file the console observes only.
            Contexts kube;
            try {
                kube = read != null ? read.kubeOrThrow() : contexts.get();
            } catch (RuntimeException e) {
                throw OpenFailure.kubeconfig(kubeconfigFiles.get(), e);
            }
            Journals.Opened j = Journals.open(journalFile, Journals.Fallback.OBSERVE_ONLY);
            Session s;
            try {
                s = Session.connect(file, kube, j.journal(), options.operator(), Session.LEASE_DURATION, holdClients);
            } catch (OpenFailure | RuntimeException e) {
                j.journal().close(); // its lock is not kept by a console that did not start
                throw e;
            }
            s.setWorkloadsFile(workloads);
            return new Launched(s, join(warning, j.warning()), settings, Duration.ZERO);
        } catch (ConfigException e) {
            return new Rejected(workloads, e, settings, warning);
        } catch (OpenFailure e) {
            // Its words only: a kubeconfig parser's own message may quote a line holding a token.
            LOG.warning("could not open " + workloads + ": " + e.getMessage());
            return new NotConnected(workloads, e, settings, warning);
        } catch (RuntimeException e) {
            LOG.warning("could not open " + workloads + ": " + io.headroom.ErrorWords.of(e));
            return new NotConnected(workloads, new OpenFailure("the workloads file's connections",
                    workloads.toString(), null, io.headroom.ErrorWords.of(e)), settings, warning);
        }
    }

    /** The built-in sandbox; its journal may fall back to memory (with a standing warning). */
    private Launched sandbox(Settings settings, String warning) {
        SandboxKind kind = options.sandbox() == null ? SandboxKind.PLAIN : options.sandbox();
        Path file = options.journal() != null ? options.journal()
                : sandboxJournal(kind, FileJournal.defaultDirectory());
        Journals.Opened j = Journals.open(file, Journals.Fallback.MEMORY);
        Session s = switch (kind) {
            case PLAIN -> Session.builtIn(options.seed(), wall.instant(), WARM_UP, j.journal(), options.operator());
            case ADMISSION -> Session.sandboxWithAdmission(options.seed(), wall.instant(), WARM_UP, j.journal(),
                    options.operator());
            case PLACEMENT -> Session.sandboxWithPlacement(options.seed(), wall.instant(), WARM_UP, j.journal(),
                    options.operator());
        };
        s.setSpeed(options.speed());
        return new Launched(s, join(warning, j.warning()), settings, WARM_UP);
    }

    /**
     * Each sandbox its own journal: the placement sandbox replaying the plain one's pins, proposals and
     * freezes would restore them onto classes it does not have (and the plain one the admission
     * sandbox's published states). The plain sandbox keeps the file it always had.
     */
    static Path sandboxJournal(SandboxKind kind, Path directory) {
        return directory.resolve(kind == SandboxKind.PLAIN ? "sandbox-journal.jsonl"
                : "sandbox-" + kind.word() + "-journal.jsonl");
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + " " + b;
    }
}
