package io.headroom.session;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.RoutingClusterGateway;
import io.headroom.config.WorkloadsFile;
import io.headroom.history.Backfill;
import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.history.HistoryRecorder;
import io.headroom.journal.Journal;
import io.headroom.kube.Contexts;
import io.headroom.prometheus.PrometheusClient;
import io.headroom.prometheus.PrometheusMetricsSource;
import io.headroom.prometheus.PrometheusSetupException;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.DirectActuator;
import io.headroom.loop.LoopRunner;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import io.headroom.time.RunningClock;
import io.headroom.time.SwitchableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import io.headroom.threads.NamedThreads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the console is connected to: one control loop over a cluster and a metrics source, with
 * its clock and the scheduler that ticks it off the FX thread.
 */
public final class Session implements AutoCloseable {
    private final ControlLoop loop;
    private final SwitchableClock clock;
    private final ScheduledExecutorService scheduler;
    private final LoopRunner runner;
    private final Duration tick;
    private final boolean sandbox;
    private volatile double speed = 1;
    private RunningClock running;

    private final Supervisor supervisor;
    private final Journal journal;
    /** What-if edits committed to this console (the live policies that are not the workloads file's). */
    private final PolicyEdits policyEdits;
    /** Every class's load over the last day, in domain units: written by each tick and the backfill. */
    private final History history;

    private Session(ControlLoop loop, SwitchableClock clock, Duration tick, boolean sandbox,
                    ScheduledExecutorService scheduler, ExecutorService freezeThreads, Supervisor supervisor,
                    Journal journal, java.util.Deque<String> eventProblems) {
        this.eventProblems = eventProblems;
        this.freezeThreads = freezeThreads;
        this.loop = loop;
        this.clock = clock;
        this.opened = clock.instant();
        this.tick = tick;
        this.sandbox = sandbox;
        this.scheduler = scheduler;
        this.supervisor = supervisor;
        this.journal = journal;
        this.runner = new LoopRunner(loop, scheduler);
        this.history = History.forClasses(tick, loop.classes().size(), historyBudget(), weekBudget());
        this.forecasts = new ForecastRunner(history, loop::classes, clock,
                io.headroom.forecast.ForecastSettings.DEFAULTS.withZone(java.time.ZoneId.systemDefault()),
                ForecastRunner.EVERY);
        if (history.span().compareTo(ClassHistory.SPAN) < 0) {
            java.util.logging.Logger.getLogger(Session.class.getName()).info(() -> String.format(java.util.Locale.ROOT,
                    "history: %d classes keep the last %.1f h each (%d MB for load history)", loop.classes().size(),
                    history.span().toSeconds() / 3600.0, historyBudget() >> 20));
        }
        this.policyEdits = new PolicyEdits(loop, () -> this.journal, clock, supervisor.user());
        loop.addListener(new HistoryRecorder(history));
        loop.addListener(this::enrich);
        supervisor.addListener(st -> publishSupervision());
        supervisor.setFloorPlanner(new AnticipatedFloors(shownForecasts)); // predictive proposals (issue 29)
    }

    /**
     * The memory the classes' load history may take: a quarter of the heap. A day at a 15 s tick is 553 KB a
     * class, so a 4 GiB heap keeps a day for up to 1,900 classes and 9.3 hours for 5,000
     * ({@link History#forClasses}).
     */
    static long historyBudget() {
        return Runtime.getRuntime().maxMemory() / 4;
    }

    /**
     * The memory the week tier (a point a minute, for the forecast) may take: an eighth of the heap. A week is 0.92 MB
     * a class, so a 4 GiB heap keeps a week for up to 554 classes and a shorter past for every class beyond.
     */
    static long weekBudget() {
        return Runtime.getRuntime().maxMemory() / 8;
    }

    /** The forecasts made in the background from each class's week (issue 29). */
    private final ForecastRunner forecasts;
    /** Where the forecasts are made: off the FX and the loop's threads. */
    private final ScheduledExecutorService forecastThread = NamedThreads.single("headroom-forecast");
    /** Where the week's backfill runs, a chunk at a time. */
    private final ExecutorService weekThread = NamedThreads.fixed("headroom-history-week", 1);
    private volatile io.headroom.history.WeekBackfill.Progress weekProgress =
            io.headroom.history.WeekBackfill.Progress.NONE;
    private volatile boolean closing;

    /** Every class's latest forecasts (the detail, the supervisor's predictive proposals, what-if read them). */
    public ForecastRunner forecasts() {
        return forecasts;
    }

    /** How far the week's backfill got: "history: 3 of 7 days". */
    public io.headroom.history.WeekBackfill.Progress weekProgress() {
        return weekProgress;
    }

    /**
     * Fills the week tier from the metrics source's past (Prometheus {@code query_range}; the sandbox's own
     * programme before its start), 6 h a chunk, on the week's thread; stops between chunks when the session
     * closes; then forecasts every class again. Returns the backfill's last progress.
     */
    public java.util.concurrent.CompletableFuture<io.headroom.history.WeekBackfill.Progress> backfillWeek() {
        List<String> names = loop.classes().stream().map(WorkloadClass::name).toList();
        Instant now = clock.instant();
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> io.headroom.history.WeekBackfill.run(history,
                loop.metrics(), names, now, history.weekSpan(), io.headroom.history.WeekBackfill.CHUNK,
                p -> weekProgress = p, () -> closing), weekThread).whenComplete((p, e) -> {
                    if (e != null && !closing) { // a close interrupts a chunk in flight: that is the stop, not a fault
                        java.util.logging.Logger.getLogger(Session.class.getName()).warning("week of history: "
                                + io.headroom.ErrorWords.of(e));
                    } else if (!closing) {
                        forecasts.refreshAll(forecastThread);
                    }
                });
    }

    /** The newest team events that could not be posted, said in the top bar beside the cluster's own warnings. */
    private final java.util.Deque<String> eventProblems;
    /** How many refused events the top bar keeps (the journal and the log hold the actions themselves). */
    static final int EVENT_PROBLEMS_KEPT = 3;

    private final Object publishLock = new Object();
    private final List<java.util.function.Consumer<SessionTick>> tickListeners =
            new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The last tick published; guarded by publishLock. */
    private SessionTick lastTick;

    /**
     * Subscribes to the session's ticks: at once the latest (or only supervision's state before the
     * first tick), then one {@link SessionTick} per loop tick and one per supervision change, in
     * order, on the loop's thread (or a freeze's). Returns what unsubscribes.
     */
    public Runnable subscribe(java.util.function.Consumer<SessionTick> listener) {
        synchronized (publishLock) {
            tickListeners.add(listener);
            SessionTick t = lastTick; // new to this subscriber: its tick counts as new
            listener.accept(t != null ? new SessionTick(t.result(), true, t.cluster(), t.metrics(), t.access(),
                    t.autoscalers(), supervisor.state())
                    : new SessionTick(null, false, null, null, java.util.Map.of(), java.util.Map.of(),
                    supervisor.state()));
        }
        return () -> tickListeners.remove(listener);
    }

    /**
     * Loop thread: the tick with what the console shows beside it. Permission checks may ask the API
     * server (cached there), so this is done here, never in a view.
     */
    private void enrich(io.headroom.loop.TickResult r) {
        if (tickListeners.isEmpty()) {
            return;
        }
        java.util.Map<String, io.headroom.cluster.ActionCheck> access = new java.util.LinkedHashMap<>();
        java.util.Map<String, io.headroom.cluster.AutoscalerView> autoscalers = new java.util.LinkedHashMap<>();
        for (WorkloadClass c : loop.classes()) {
            try {
                access.put(c.name(), loop.cluster().scaling().canScale(c.target()));
                autoscalers.put(c.name(), loop.cluster().workloads().autoscaler(c.target()));
            } catch (RuntimeException e) {
                access.put(c.name(), io.headroom.cluster.ActionCheck.denied("scale " + c.target(),
                        "cannot check: " + io.headroom.ErrorWords.of(e)));
            }
        }
        io.headroom.cluster.ClusterHealth cluster = loop.cluster().health();
        if (!eventProblems.isEmpty()) {
            List<String> warnings = new ArrayList<>(cluster.warnings());
            warnings.addAll(eventProblems);
            cluster = cluster.withWarnings(warnings);
        }
        io.headroom.metrics.MetricsHealth metrics = loop.metrics().health();
        synchronized (publishLock) {
            // The supervisor's newest state: it acted on this tick before the loop published it.
            lastTick = new SessionTick(r, true, cluster, metrics, access, autoscalers, supervisor.state());
            tickListeners.forEach(l -> l.accept(lastTick));
        }
    }

    /** Any thread: supervision changed between ticks. Reads the newest state, so what is published never goes back. */
    private void publishSupervision() {
        synchronized (publishLock) {
            if (tickListeners.isEmpty()) {
                return;
            }
            SessionTick t = lastTick != null ? lastTick.withSupervision(supervisor.state())
                    : new SessionTick(null, false, null, null, java.util.Map.of(), java.util.Map.of(),
                    supervisor.state());
            tickListeners.forEach(l -> l.accept(t));
        }
    }

    /** The one thread that touches the loop, the sandbox and the supervisor's state. */
    private static ScheduledExecutorService loopThread() {
        return NamedThreads.single("headroom-control-loop");
    }

    /** Where freezes run: never behind a loop thread stuck in a cluster write. */
    private final ExecutorService freezeThreads;
    /** Blocking work for the console off the loop's thread: journal reads, CSV export, what-if replays, notifications. */
    private final ExecutorService background = NamedThreads.cached("headroom-io");

    /**
     * The built-in sandbox: the catalog's classes on a simulated cluster whose clock starts
     * {@code history} before {@code wallNow}, so a warm-up can fill the charts before going live.
     */
    public static Session sandbox(long seed, Instant wallNow, Duration history, Journal journal) {
        return sandbox(seed, wallNow, history, journal, null);
    }

    /**
     * Who acts, as written into every record and event: the name given with {@code --operator}, checked
     * (one line of printable text, at most 64 characters), or an exception saying why not.
     */
    public static String operatorName(String given) {
        String n = given == null ? "" : given.strip();
        if (n.isEmpty() || n.length() > 64 || !n.codePoints().allMatch(c -> c >= 0x20 && c != 0x7f
                && !Character.isISOControl(c))) {
            throw new IllegalArgumentException("--operator must be a name of 1 to 64 printable characters");
        }
        return n;
    }

    /** The built-in sandbox, acting as {@code operator} (null: the OS user). */
    public static Session sandbox(long seed, Instant wallNow, Duration history, Journal journal, String operator) {
        return sandbox(SandboxCatalog.defaultClasses(), seed, wallNow, history, journal, operator);
    }

    /**
     * How long after the built-in sandbox opens hourly-reports' first run begins at least (then hourly, at that
     * minute): on the next 5-minute mark from there, so the run starts with a forecast slot rather than inside one.
     */
    public static final Duration FIRST_HOURLY_RUN = Duration.ofMinutes(10);

    /**
     * The console's built-in sandbox ({@code ./headroom}): the five default classes and hourly-reports, whose load
     * rises every hour at the minute {@link #FIRST_HOURLY_RUN} after {@code wallNow} and is forecast with
     * {@code forecast: propose}, so the inbox shows a predictive proposal ahead of its first run within minutes of
     * opening (issue 29). {@link #sandbox} is the five alone.
     */
    public static Session builtIn(long seed, Instant wallNow, Duration history, Journal journal, String operator) {
        long after = wallNow.plus(FIRST_HOURLY_RUN).getEpochSecond();
        Instant firstRun = Instant.ofEpochSecond(after + Math.floorMod(-after, 300L)); // the next 5-minute mark
        return sandbox(SandboxCatalog.builtIn(wallNow.minus(history), firstRun), seed, wallNow, history, journal,
                operator);
    }

    /** The built-in sandbox and intake-api, whose producers obey the admission this console publishes (issue 30). */
    public static Session sandboxWithAdmission(long seed, Instant wallNow, Duration history, Journal journal) {
        return sandboxWithAdmission(seed, wallNow, history, journal, null);
    }

    /** The same, acting as {@code operator} (null: the OS user): {@code headroom --sandbox=admission}. */
    public static Session sandboxWithAdmission(long seed, Instant wallNow, Duration history, Journal journal,
                                               String operator) {
        return sandbox(SandboxCatalog.withAdmissionClass(), seed, wallNow, history, journal, operator);
    }

    /**
     * The built-in sandbox and render, placed across spot then on-demand pools whose spot capacity vanishes for a
     * while every ten minutes and comes back (decision 0029).
     */
    public static Session sandboxWithPlacement(long seed, Instant wallNow, Duration history, Journal journal) {
        return sandboxWithPlacement(seed, wallNow, history, journal, null);
    }

    /** The same, acting as {@code operator} (null: the OS user): {@code headroom --sandbox=placement}. */
    public static Session sandboxWithPlacement(long seed, Instant wallNow, Duration history, Journal journal,
                                               String operator) {
        return sandbox(SandboxCatalog.withPlacementClass(), seed, wallNow, history, journal, operator);
    }

    private static Session sandbox(List<SandboxCatalog.Entry> entries, long seed, Instant wallNow, Duration history,
                                   Journal journal, String operator) {
        List<SandboxClassSpec> specs = new ArrayList<>();
        List<WorkloadClass> classes = new ArrayList<>();
        double poll = Double.MAX_VALUE;
        for (SandboxCatalog.Entry e : entries) {
            specs.add(e.spec());
            classes.add(e.workloadClass());
            poll = Math.min(poll, e.policy().pollIntervalSeconds());
        }
        Instant start = wallNow.minus(history);
        SwitchableClock clock = new SwitchableClock(new ManualClock(start));
        SandboxWorld world = SandboxCatalog.withBudgets(new SandboxWorld(specs, seed, start));
        ClusterPorts cluster = new SandboxCluster(world, clock, SandboxCatalog.nodePools(entries)).ports();
        SandboxMetrics metrics = new SandboxMetrics(world, clock);
        // The simulated past was run by "the autoscaler before us": the warm-up acts directly, and
        // supervised mode takes over when the session goes live (nothing of the warm-up is journaled).
        ControlLoop loop = new ControlLoop(classes, cluster, metrics, new DirectActuator(cluster), clock);
        ScheduledExecutorService scheduler = loopThread();
        ExecutorService freezeThreads = NamedThreads.cached("headroom-freeze");
        Supervisor supervisor = new Supervisor(classes, cluster, journal, clock, scheduler, freezeThreads,
                operator != null ? operator : Supervisor.osUser(), PROPOSAL_TTL);
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setAdmissionPolicies(SandboxCatalog.admissionPolicies()); // intake-api's producers obey it
        // The sandbox's cluster takes no events: no team timeline to post to.
        supervisor.holdProposals(MIN_ACTIONABLE, System::nanoTime); // wall time: the sandbox may run at 60×
        return new Session(loop, clock, Duration.ofMillis((long) (poll * 1000)), true, scheduler, freezeThreads,
                supervisor, journal, new java.util.concurrent.ConcurrentLinkedDeque<>());
    }

    /** How long a proposal waits for the operator before it expires. */
    public static final Duration PROPOSAL_TTL = Duration.ofMinutes(5);

    /**
     * How long, in real time, a proposal stays as shown before the decision may revise, withdraw or
     * expire it: at 60× five sandbox minutes pass in five seconds, too fast to read and act.
     */
    public static final Duration MIN_ACTIONABLE = Duration.ofSeconds(10);

    public Supervisor supervisor() {
        return supervisor;
    }

    /** Forecasts given in place of the runner's (a test's synthetic ones), or null for the runner's. */
    private volatile io.headroom.forecast.ClassForecasts forecastsGiven;

    /**
     * The forecasts the console shows and acts on (issue 29): the runner's, or those {@link #useForecasts} gave.
     * The detail draws them; each class whose forecast mode is {@code propose} or {@code auto} gets predictive
     * proposals or floors from them ahead of its next forecast rise, on the loop's thread.
     */
    public io.headroom.forecast.ClassForecasts classForecasts() {
        return shownForecasts;
    }

    private final io.headroom.forecast.ClassForecasts shownForecasts = new io.headroom.forecast.ClassForecasts() {
        @Override
        public io.headroom.forecast.Forecast arrivals(String className) {
            io.headroom.forecast.ClassForecasts given = forecastsGiven;
            return given != null ? given.arrivals(className) : forecasts.arrivals(className);
        }

        @Override
        public io.headroom.forecast.Forecast service(String className) {
            io.headroom.forecast.ClassForecasts given = forecastsGiven;
            return given != null ? given.service(className) : forecasts.service(className);
        }

        @Override
        public io.headroom.forecast.Forecast work(String className) {
            io.headroom.forecast.ClassForecasts given = forecastsGiven;
            return given != null ? given.work(className) : forecasts.work(className);
        }
    };

    /** Shows and acts on these forecasts instead of the runner's (a sandbox's synthetic forecast); null: the runner's. */
    public void useForecasts(io.headroom.forecast.ClassForecasts given) {
        forecastsGiven = given;
    }

    public Journal journal() {
        return journal;
    }

    /** Where the journal's exports are written: files only their owner reads (the file adapter's). */
    public io.headroom.journal.JournalExport journalExport() {
        return io.headroom.journalfile.PrivateFiles::write;
    }

    private volatile java.nio.file.Path workloadsFile;

    /** The workloads file this session was opened from; empty for the sandbox or a file given as text. */
    public java.util.Optional<java.nio.file.Path> workloadsFile() {
        return java.util.Optional.ofNullable(workloadsFile);
    }

    void setWorkloadsFile(java.nio.file.Path file) {
        this.workloadsFile = file;
    }

    private HandBack handBack;
    private Leftovers leftovers;
    /** The workloads file a connected session was opened from (queries, Prometheus): null for the sandbox. */
    private WorkloadsFile config;
    /** The kubeconfig contexts by name, their clients built or being built (a connected session only). */
    private final java.util.Map<String, PendingContext> connections = new java.util.LinkedHashMap<>();

    /**
     * Completes once every context's client is built (at once for the sandbox); fails with the
     * {@link OpenFailure} saying which context could not be opened and why, as {@link #connect} said it before
     * the clients were built in the background.
     */
    public java.util.concurrent.CompletableFuture<Void> clients() {
        releaseClients();
        return clientsBuilt();
    }

    /**
     * As {@link #clients()}, without asking for them: a console that held its clients' build until it went live
     * (the launcher's) watches this from before it, so that watching does not start the build.
     */
    public java.util.concurrent.CompletableFuture<Void> clientsBuilt() {
        return java.util.concurrent.CompletableFuture.allOf(connections.values().stream().map(PendingContext::built)
                .toArray(java.util.concurrent.CompletableFuture[]::new));
    }

    /** The build of the clients, held until the console goes live when the launcher asked (null: sandbox). */
    private HeldExecutor clientBuilds;

    /**
     * Starts building the clients now if their build was held ({@link #connect} with {@code holdClients}); going
     * live, {@link #clients()} and any call that needs a client do it too. Does nothing otherwise.
     */
    public void releaseClients() {
        if (clientBuilds != null) {
            clientBuilds.release();
        }
    }

    /** True while the clients' build is held (for the tests). */
    boolean clientsHeld() {
        return clientBuilds != null && clientBuilds.holding();
    }

    private static OpenFailure contextFailure(Contexts contexts, String context, RuntimeException ex) {
        var ctx = contexts.get(context);
        return OpenFailure.context(context, ctx.map(io.headroom.kube.KubeContext::server).orElse(null),
                ctx.map(c -> java.nio.file.Path.of(c.file())).orElse(null), contexts.files(), ex);
    }
    private KedaApply kedaApply;

    /** Export a class as a KEDA ScaledObject and apply it after a dry run and the operator's confirmation. */
    public synchronized KedaApply kedaApply() {
        if (kedaApply == null) {
            java.util.Map<String, PendingContext> open = java.util.Map.copyOf(connections);
            kedaApply = new KedaApply(loop::classes, config, name -> {
                PendingContext p = open.get(name);
                return p == null ? null : p.connection(); // waits for the client (KEDA apply runs off the FX thread)
            }, () -> journal, supervisor.user(), clock,
                    background);
        }
        return kedaApply;
    }

    /** Hand back at exit (or keep the pauses); journaled, posted as events. */
    public synchronized HandBack handBack() {
        if (handBack == null) {
            handBack = new HandBack(supervisor, loop.cluster(), () -> journal, loop::classes, clock, background);
        }
        return handBack;
    }

    private AdmissionHandBack admissionHandBack;
    /** When this session opened (what Headroom left on the clusters before it is offered at start). */
    private final Instant opened;

    /** Admission published by this console, expired or set OPEN at exit; journaled, posted as events. */
    public synchronized AdmissionHandBack admissionHandBack() {
        if (admissionHandBack == null) {
            admissionHandBack = new AdmissionHandBack(handBack());
        }
        return admissionHandBack;
    }

    /** What Headroom left on the clusters (pauses, drain marks, cordons), found at start and settled as chosen. */
    public synchronized Leftovers leftovers() {
        if (leftovers == null) {
            leftovers = new Leftovers(handBack(), loop.cluster(), () -> journal, loop::classes, supervisor.user(), clock,
                    background, opened);
        }
        return leftovers;
    }

    /** Live policy edits: apply a what-if edit to this console, revert it (journaled, posted as events). */
    public PolicyEdits policyEdits() {
        return policyEdits;
    }

    /**
     * A real session from a workloads file: one Kubernetes gateway per context the classes name
     * (each with its actuation Leases), Prometheus for the signals, supervised mode from the start.
     * Opening a context or Prometheus that fails throws {@link OpenFailure}, naming which and why in
     * words, with no secret.
     */
    public static Session connect(WorkloadsFile file, Contexts contexts, Journal local)
            throws OpenFailure {
        return connect(file, contexts, local, null);
    }

    /**
     * As above, acting as {@code operator}; null: the kubeconfig user of the first context the classes
     * name (the identity the API server sees), else the OS user.
     */
    public static Session connect(WorkloadsFile file, Contexts contexts, Journal local, String operator)
            throws OpenFailure {
        return connect(file, contexts, local, operator, LEASE_DURATION);
    }

    /** How long an actuation Lease lasts without renewal; held leases are renewed every third of it. */
    public static final Duration LEASE_DURATION = Duration.ofSeconds(30);

    /**
     * As above, with actuation Leases of {@code leaseDuration} (at least 3 s; renewed every third of
     * it): tests of renewal use short ones instead of waiting the console's 10 s.
     */
    public static Session connect(WorkloadsFile file, Contexts contexts, Journal local, String operator,
                                  Duration leaseDuration) throws OpenFailure {
        return connect(file, contexts, local, operator, leaseDuration, false);
    }

    /**
     * As above; with {@code holdClients} the clients' build waits until {@link #releaseClients()}, going live, or
     * the first call that needs a client (the console holds it until its window is drawn).
     */
    public static Session connect(WorkloadsFile file, Contexts contexts, Journal local, String operator,
                                  Duration leaseDuration, boolean holdClients) throws OpenFailure {
        java.time.Clock wall = java.time.Clock.systemUTC();
        List<WorkloadClass> classes = new ArrayList<>();
        java.util.Map<String, List<io.headroom.cluster.WorkloadRef>> targets = new java.util.LinkedHashMap<>();
        double poll = Double.MAX_VALUE;
        for (io.headroom.config.ClassConfig c : file.classes()) {
            WorkloadClass wc = c.workloadClass();
            classes.add(wc);
            // A class placed across pools reads (and writes) every pool's Deployment, each watched in its namespace.
            for (io.headroom.cluster.WorkloadRef ref : wc.pooled() ? wc.pools().targets() : List.of(c.target())) {
                targets.computeIfAbsent(ref.context(), k -> new ArrayList<>()).add(ref);
            }
            poll = Math.min(poll, c.policy().pollIntervalSeconds());
        }
        // Before anything opens: a kubeconfig file that cannot be used refuses every context (as client-go), and
        // a context with a problem refuses the whole workloads file; each said with its file and line.
        List<io.headroom.config.ConfigException.Problem> unusable = contexts.kubeconfig().loadProblems();
        if (!unusable.isEmpty()) {
            throw OpenFailure.kubeconfig(unusable.get(0));
        }
        // Everything that needs no client is checked (and each context's configuration read) before the window;
        // the clients themselves are built on their own threads while the console shows (PendingContext).
        java.util.Map<String, Contexts.Prepared> prepared = new java.util.LinkedHashMap<>();
        for (String context : targets.keySet()) {
            try {
                contexts.openable(context);
            } catch (RuntimeException ex) {
                throw contextFailure(contexts, context, ex);
            }
        }
        for (String context : targets.keySet()) {
            try {
                prepared.put(context, contexts.prepare(context));
            } catch (RuntimeException ex) {
                throw contextFailure(contexts, context, ex);
            }
        }
        ScheduledExecutorService scheduler = loopThread();
        ExecutorService freezeThreads = NamedThreads.cached("headroom-freeze");
        List<AutoCloseable> opened = new ArrayList<>();
        ExecutorService eventThread = null;
        ExecutorService builders = NamedThreads.fixed("headroom-kube-client", prepared.size());
        HeldExecutor builds = new HeldExecutor(builders, holdClients);
        try {
            java.util.Map<String, ClusterPorts> gateways = new java.util.LinkedHashMap<>();
            List<PendingContext> pending = new ArrayList<>();
            for (var e : prepared.entrySet()) {
                PendingContext p = PendingContext.start(e.getValue(), contexts, targets.get(e.getKey()), wall,
                        leaseDuration, builds, builds::release);
                pending.add(p);
                opened.add(p);
                gateways.put(e.getKey(), p.ports());
            }
            java.util.concurrent.CompletableFuture.allOf(pending.stream().map(PendingContext::built)
                    .toArray(java.util.concurrent.CompletableFuture[]::new)).whenComplete((v, ex) -> builders.shutdown());
            ClusterPorts cluster = RoutingClusterGateway.of(gateways); // the one place a session's ports are assembled
            PrometheusClient client;
            try {
                client = PrometheusClient.connect(file.prometheus());
            } catch (PrometheusSetupException ex) {
                throw OpenFailure.prometheus(String.valueOf(file.prometheus().url()), ex);
            }
            ExecutorService queries = NamedThreads.fixed("headroom-prometheus", 8);
            opened.add(queries::shutdownNow);
            PrometheusMetricsSource metrics = new PrometheusMetricsSource(client, file.classes(), queries,
                    PrometheusMetricsSource.defaultDeadline(file.prometheus().timeout()), wall);
            SwitchableClock clock = new SwitchableClock(wall);
            // One team timeline: every action journaled here is also an Event on its workload, posted
            // off the caller's thread; a refused event is said in the top bar, never blocks the action.
            eventThread = NamedThreads.fixed("headroom-team-events", 1);
            java.util.Deque<String> eventProblems = new java.util.concurrent.ConcurrentLinkedDeque<>();
            java.util.Map<String, io.headroom.cluster.WorkloadRef> workloads = new java.util.LinkedHashMap<>();
            classes.forEach(c -> workloads.put(c.name(), c.target()));
            Journal journal = new io.headroom.supervise.TeamTimeline(local, cluster.events(), workloads, eventThread, problem -> {
                eventProblems.addLast(problem);
                while (eventProblems.size() > EVENT_PROBLEMS_KEPT) {
                    eventProblems.pollFirst();
                }
            });
            String actor = operator != null ? operator : targets.keySet().stream().findFirst()
                    .flatMap(contexts::get).map(io.headroom.kube.KubeContext::user)
                    .filter(u -> u != null && !u.isBlank()).orElse(Supervisor.osUser());
            Supervisor supervisor = new Supervisor(classes, cluster, journal, clock, scheduler, freezeThreads,
                    actor, PROPOSAL_TTL);
            supervisor.setPodLoad(metrics::inFlightByPod);
            supervisor.holdProposals(MIN_ACTIONABLE, System::nanoTime);
            java.util.Map<String, io.headroom.decision.AdmissionPolicy> admission = new java.util.LinkedHashMap<>();
            file.classes().forEach(c -> admission.put(c.name(), c.admission()));
            supervisor.setAdmissionPolicies(admission); // a class with an admission: block publishes it
            ControlLoop loop = new ControlLoop(classes, cluster, metrics, supervisor, clock);
            Session s = new Session(loop, clock, Duration.ofMillis((long) (poll * 1000)), false, scheduler,
                    freezeThreads, supervisor, journal, eventProblems);
            s.extra.addAll(opened);
            s.events = eventThread;
            s.config = file;
            s.clientBuilds = builds;
            pending.forEach(p -> s.connections.put(p.name(), p));
            return s;
        } catch (RuntimeException | OpenFailure e) {
            for (AutoCloseable c : opened) {
                try {
                    c.close();
                } catch (Exception ignored) {
                    // already failing; the first error is the one to report
                }
            }
            scheduler.shutdownNow();
            freezeThreads.shutdownNow();
            builders.shutdown(); // what is being built closes when built (PendingContext)
            if (eventThread != null) {
                eventThread.shutdownNow();
            }
            throw e;
        }
    }

    private final List<AutoCloseable> extra = new ArrayList<>();
    /** Where team events are posted (a connected session only); drained at close, before the cluster goes. */
    private ExecutorService events;

    public ControlLoop loop() {
        return loop;
    }

    /** Every class's load history (what-if and the command line read it; charts may). */
    public History history() {
        return history;
    }

    /**
     * Fills the history's past day from the metrics source ({@code query_range} for Prometheus; the
     * sandbox's warm-up ticks are its past) on {@code executor}, under the live ticks.
     */
    public java.util.concurrent.CompletableFuture<List<Backfill.Result>> backfill(
            java.util.concurrent.Executor executor) {
        List<String> names = loop.classes().stream().map(WorkloadClass::name).toList();
        Instant now = clock.instant();
        return java.util.concurrent.CompletableFuture.supplyAsync(
                () -> Backfill.fillAll(history, loop.metrics(), names, now, history.span()), executor);
    }

    public boolean isSandbox() {
        return sandbox;
    }

    /** The control interval in the session's own time. */
    public Duration tick() {
        return tick;
    }

    /** The session's time: simulated in the sandbox (it may run faster than the wall), the wall's otherwise. */
    public java.time.Clock clock() {
        return clock;
    }

    /** The console's executor for blocking work off the FX and loop threads; it stops with the session. */
    public java.util.concurrent.Executor io() {
        return background;
    }

    /**
     * Replays {@code span} of simulated time through the loop as fast as it runs, on the
     * calling thread (never the FX thread), so the charts open with history.
     */
    public void warmUp(Duration span) {
        if (!(clock.delegate() instanceof ManualClock manual)) {
            throw new IllegalStateException("warm-up only before the session goes live");
        }
        Instant end = manual.instant().plus(span);
        while (!manual.instant().isAfter(end)) {
            if (closing) { // closed while warming up: no more ticks, and start() does not go live
                return;
            }
            loop.tick();
            manual.advance(tick);
        }
        manual.set(end);
    }

    /** Goes live: time runs at {@link #speed()} × real time and the loop ticks on its own thread. */
    public synchronized void start() {
        if (running != null) {
            throw new IllegalStateException("already live");
        }
        if (closing) {
            throw new java.util.concurrent.CancellationException("the session was closed before it went live");
        }
        running = RunningClock.startingAt(clock.instant(), speed);
        clock.switchTo(running);
        supervisor.restore(journal::replay); // read under the freezes' lock: a freeze made meanwhile is kept
        opened();
        loop.setActuator(supervisor);
        runner.start(wallPeriod());
    }

    /** Says in the journal which build went live, so an incident report can name the build that acted. */
    private void opened() {
        try {
            journal.append(io.headroom.journal.JournalRecord.of(clock.instant(),
                    io.headroom.journal.JournalRecord.Kind.CONSOLE_OPENED, supervisor.user(),
                    loop.cluster().contextName(), null).detail(io.headroom.BuildInfo.current().line()));
        } catch (RuntimeException e) {
            // A journal that cannot be written says so itself (failure()); going live does not wait for it.
            java.util.logging.Logger.getLogger(Session.class.getName()).warning("journal: " + e.getMessage());
        }
    }

    /**
     * Warm-up then go live, on the loop's own thread, so everything that touches the loop and
     * the supervisor happens on one thread. Returns at once.
     */
    public java.util.concurrent.CompletableFuture<Void> startAsync(Duration warmUp) {
        releaseClients(); // held while the window was drawn: the live loop needs them
        if (!sandbox) {
            java.util.concurrent.ExecutorService backfills = NamedThreads.fixed("headroom-history-backfill", 1);
            extra.add(backfills::shutdownNow);
            backfill(backfills).whenComplete((r, e) -> backfills.shutdown());
        }
        backfillWeek(); // the sandbox's week is its own programme's, before its start
        forecasts.schedule(forecastThread, FORECAST_CHECK);
        java.util.concurrent.CompletableFuture<Void> live = java.util.concurrent.CompletableFuture.runAsync(() -> {
            if (!warmUp.isZero()) {
                warmUp(warmUp);
            }
            start();
        }, scheduler);
        goingLive = live;
        return live.whenComplete((v, e) -> {
            if (e != null && !closing) {
                java.util.logging.Logger.getLogger(Session.class.getName())
                        .log(java.util.logging.Level.SEVERE, "the session failed to start", e);
            } else if (e != null) { // closed before it went live (the window closed in its first seconds): not a failure
                java.util.logging.Logger.getLogger(Session.class.getName()).fine("closed before it went live");
            }
        });
    }

    /** The warm-up and going live, once asked ({@link #startAsync}): cancelled by {@link #close} if not done by then. */
    private volatile java.util.concurrent.CompletableFuture<Void> goingLive;

    /** Sandbox only: runs simulated time faster (or slower) than real time; before going live, sets the start speed. */
    public synchronized void setSpeed(double newSpeed) {
        if (!(newSpeed > 0)) {
            throw new IllegalArgumentException("speed must be > 0, got " + newSpeed);
        }
        speed = newSpeed;
        if (running != null) {
            running.setSpeed(newSpeed);
            runner.start(wallPeriod());
        }
    }

    public double speed() {
        return speed;
    }

    private Duration wallPeriod() {
        return Duration.ofNanos((long) (tick.toNanos() / speed));
    }

    /** How often (wall time) the forecast thread looks for classes due a new forecast. */
    static final Duration FORECAST_CHECK = Duration.ofSeconds(5);

    @Override
    public void close() {
        closing = true; // the week's backfill stops before its next chunk, a warm-up before its next tick
        java.util.concurrent.CompletableFuture<Void> live = goingLive;
        if (live != null) {
            live.cancel(false); // never run (the scheduler is shut down below), or stopping: done either way
        }
        weekThread.shutdownNow();
        forecastThread.shutdownNow();
        runner.close();
        background.shutdownNow();
        freezeThreads.shutdownNow();
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (events != null) { // the last actions' events (a hand-back on exit) still reach the cluster
            events.shutdown();
            try {
                if (!events.awaitTermination(3, TimeUnit.SECONDS)) {
                    events.shutdownNow();
                }
            } catch (InterruptedException e) {
                events.shutdownNow();
                Thread.currentThread().interrupt();
            }
        }
        loop.cluster().close();
        loop.metrics().close();
        for (AutoCloseable c : extra) {
            try {
                c.close();
            } catch (Exception e) {
                java.util.logging.Logger.getLogger(Session.class.getName()).warning("close: " + e.getMessage());
            }
        }
        journal.close();
    }
}
