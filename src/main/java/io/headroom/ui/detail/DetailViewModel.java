package io.headroom.ui.detail;

import io.headroom.decision.SignalName;
import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.decision.Figures;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signals;
import io.headroom.decision.Term;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.beans.property.LongProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.SimpleLongProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The class detail: chart history for every class (so switching is instant) and the selected
 * class's live decision, broken into rows the view binds to. FX thread only; holds no nodes.
 */
public final class DetailViewModel {

    /** One term of the decision: name, its number, how it was computed. */
    public record TermRow(String name, String value, String formula) {
    }

    /** One ceiling with its limit in replicas and whether it bound. */
    public record CeilingRow(String name, int limit, String detail, boolean binding, boolean fallback) {
    }

    /** One input signal: value and freshness, or why it is unusable. */
    public record InputRow(String name, String value, String status, boolean usable) {
    }

    // Properties
    private final StringProperty className = new SimpleStringProperty("");
    private final ObjectProperty<ClassSeries> series = new SimpleObjectProperty<>();
    private final LongProperty revision = new SimpleLongProperty();
    private final LongProperty structure = new SimpleLongProperty();
    private final StringProperty headline = new SimpleStringProperty("");
    private final StringProperty direction = new SimpleStringProperty("hold");
    private final StringProperty explanation = new SimpleStringProperty("");
    private final StringProperty admission = new SimpleStringProperty("");
    private final StringProperty admissionState = new SimpleStringProperty("");
    private final StringProperty policySummary = new SimpleStringProperty("");
    private final StringProperty autoscaler = new SimpleStringProperty("");
    private final StringProperty actuation = new SimpleStringProperty("");
    private final javafx.beans.property.BooleanProperty actionable = new javafx.beans.property.SimpleBooleanProperty();
    private java.util.Map<String, io.headroom.cluster.ActionCheck> access = java.util.Map.of();
    private java.util.Map<String, io.headroom.cluster.AutoscalerView> autoscalers = java.util.Map.of();
    private final ObjectProperty<Double> ageObjective = new SimpleObjectProperty<>();
    private final ObjectProperty<io.headroom.supervise.JobStates> work = new SimpleObjectProperty<>();
    private io.headroom.supervise.SupervisionState supervision;
    private final javafx.beans.property.BooleanProperty governed = new javafx.beans.property.SimpleBooleanProperty();
    private final ObservableList<TermRow> terms = FXCollections.observableArrayList();
    private final ObservableList<CeilingRow> ceilings = FXCollections.observableArrayList();
    private final ObservableList<String> reasons = FXCollections.observableArrayList();
    private final ObservableList<InputRow> inputs = FXCollections.observableArrayList();
    private final ObservableList<PoolBreakdown.PoolRow> pools = FXCollections.observableArrayList();
    private final ObjectProperty<PoolBreakdown.Waiting> poolWaiting = new SimpleObjectProperty<>(PoolBreakdown.Waiting.NONE);
    private java.util.function.Function<String, PoolBreakdown.Facts> poolFacts = name -> PoolBreakdown.Facts.NONE;

    /**
     * Up to this many classes, every class is charted from its first tick (switching to one shows its
     * ceilings' and governor's past too). A fleet past it charts only the classes opened, the
     * {@link #KEEP_OPENED} most recent, each seeded from the domain history when opened: a day of nine
     * chart series is about 1 MB a class at a 15 s tick, 5 GB for 5,000 classes, appended on the FX thread.
     */
    static final int CHART_EVERY_CLASS_UP_TO = 50;
    /** Classes a fleet keeps charts for once opened, the most recently opened first to stay. */
    static final int KEEP_OPENED = 16;

    /** Chart series by class; in order of opening (the last opened last), so the eldest go first. */
    private final Map<String, ClassSeries> byClass = new java.util.LinkedHashMap<>();
    private final Map<String, ClassSnapshot> latest = new HashMap<>();
    private final java.time.Clock clock;
    private final java.util.concurrent.Executor fx;

    /**
     * @param clock the session's clock: history windows end at its now
     * @param fx    the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public DetailViewModel(java.time.Clock clock, java.util.concurrent.Executor fx) {
        this.clock = clock;
        this.fx = fx;
        this.week = new WeekCharts(clock, fx);
    }

    /** The forecast section's view model (issue 29): its words, mode and bands follow the selected class. */
    private final ForecastViewModel forecast = new ForecastViewModel(latest::get);

    public ForecastViewModel forecast() {
        return forecast;
    }

    public ReadOnlyStringProperty classNameProperty() { return className; }
    public ObjectProperty<ClassSeries> seriesProperty() { return series; }
    /** Bumped whenever new points were appended: charts redraw. */
    public LongProperty revisionProperty() { return revision; }
    /** Bumped when the set of series changed (a new ceiling): charts rebuild their legends. */
    public LongProperty structureProperty() { return structure; }
    public StringProperty headlineProperty() { return headline; }
    /** "up", "down" or "hold", for styling the headline. */
    public StringProperty directionProperty() { return direction; }
    public StringProperty explanationProperty() { return explanation; }
    public StringProperty admissionProperty() { return admission; }
    public StringProperty admissionStateProperty() { return admissionState; }
    public StringProperty policySummaryProperty() { return policySummary; }
    /** What KEDA or an HPA would do for this workload, beside Headroom's decision; empty when none. */
    public StringProperty autoscalerProperty() { return autoscaler; }
    /** Whether this console may scale the class, and why not. */
    public StringProperty actuationProperty() { return actuation; }
    /** The selected class's work: queued, starting, executing, awaiting approval, held back; null when unknown. */
    public ObjectProperty<io.headroom.supervise.JobStates> workProperty() { return work; }

    private final StringProperty policyEdit = new SimpleStringProperty("");
    private Map<String, io.headroom.session.PolicyEdits.Edit> policyEdits = Map.of();
    private java.util.function.Function<String, java.util.concurrent.CompletableFuture<io.headroom.supervise.Outcome>>
            revert;

    /** Empty when the selected class runs the workloads file's policy; else who changed what, and why. */
    public StringProperty policyEditProperty() { return policyEdit; }

    /** The live policy edits (from the session, on the FX thread). */
    public void applyPolicyEdits(Map<String, io.headroom.session.PolicyEdits.Edit> edits) {
        this.policyEdits = Map.copyOf(edits);
        refreshPolicyEdit();
    }

    /** How a class's edit is reverted (the session's, run off the FX thread). */
    public void setRevert(java.util.function.Function<String,
            java.util.concurrent.CompletableFuture<io.headroom.supervise.Outcome>> revert) {
        this.revert = revert;
    }

    /** Puts the selected class's policy back to the workloads file's; the outcome replaces the chip's text. */
    public void revertPolicy() {
        String name = className.get();
        if (revert == null || !policyEdits.containsKey(name)) {
            return;
        }
        revert.apply(name).whenCompleteAsync((o, e) -> {
            if (e != null || !o.ok()) {
                policyEdit.set("Not reverted: " + (e != null ? io.headroom.ErrorWords.of(e) : o.message()));
            }
        }, fx);
    }

    private void refreshPolicyEdit() {
        io.headroom.session.PolicyEdits.Edit e = policyEdits.get(className.get());
        policyEdit.set(e == null ? "" : "Edited in this console by " + e.by() + " at "
                + io.headroom.ui.Format.time(e.at()) + ": " + e.summary() + "\nReason: " + e.reason()
                + "\nIt lasts until reverted or the workloads file is read again.");
    }

    /** Supervision's newest state: what waits for the operator's approval and what a freeze or override holds. */
    public void applySupervision(io.headroom.supervise.SupervisionState state) {
        this.supervision = state;
        refreshWork();
        ClassSnapshot s = latest.get(className.get());
        if (s != null && s.decision() != null) {
            refreshHeadline(s); // a pin or a freeze set or lifted between ticks
        }
    }

    /** The headline: the decision, or the pin or freeze that holds the class and what the decision would do. */
    private void refreshHeadline(ClassSnapshot s) {
        io.headroom.supervise.SupervisionState st = supervision;
        Instant now = st == null || st.at().isBefore(s.at()) ? s.at() : st.at();
        io.headroom.supervise.Proposal pending = st == null ? null : st.pending().stream()
                .filter(p -> p.className().equals(s.name()) && p.floor() == null).findFirst().orElse(null);
        Headline h = Headline.of(s.decision(), st == null ? null : st.of(s.name()), st == null ? null : st.freezeAll(),
                now, pending);
        headline.set(h.text());
        direction.set(h.direction());
    }

    private void refreshWork() {
        ClassSnapshot s = latest.get(className.get());
        io.headroom.supervise.SupervisionState st = supervision;
        work.set(s == null ? null : io.headroom.supervise.JobStates.of(s, st == null ? null : st.of(s.name()),
                st == null ? null : st.freezeAll(), st == null ? s.at() : st.at().isAfter(s.at()) ? st.at() : s.at()));
    }

    /**
     * True once the selected class has a decision at its latest tick: until then (no tick yet, the
     * cluster unreadable) there is nothing to act on, and its actions are disabled.
     */
    public javafx.beans.property.ReadOnlyBooleanProperty actionableProperty() { return actionable; }

    /** Access checks and other autoscalers, as read on the loop's thread at the last tick. */
    public void applyAccess(java.util.Map<String, io.headroom.cluster.ActionCheck> access,
                            java.util.Map<String, io.headroom.cluster.AutoscalerView> autoscalers) {
        this.access = access;
        this.autoscalers = autoscalers;
        refreshAccess();
    }

    private void refreshAccess() {
        String name = className.get();
        io.headroom.cluster.ActionCheck a = access.get(name);
        actuation.set(a == null ? "" : a.allowed() ? "this console may scale " + name : "observe-only here: " + a.reason());
        io.headroom.cluster.AutoscalerView v = autoscalers.get(name);
        autoscaler.set(v == null || !v.managed() ? "" : describe(v));
    }

    static String describe(io.headroom.cluster.AutoscalerView v) {
        StringBuilder b = new StringBuilder(v.kind().name()).append(' ').append(v.name() == null ? "" : v.name());
        b.append(" · replicas ").append(v.minReplicas() == null ? "?" : v.minReplicas()).append('–')
                .append(v.maxReplicas() == null ? "?" : v.maxReplicas());
        if (v.desiredReplicas() != null) {
            b.append(" · its desired ").append(v.desiredReplicas());
        }
        if (v.pausedReplicas() != null) {
            b.append(" · paused at ").append(v.pausedReplicas()).append(" (paused-replicas)");
        }
        for (io.headroom.cluster.AutoscalerView.Trigger t : v.triggers()) {
            b.append("\n  trigger ").append(t.type()).append(t.name() == null ? "" : " " + t.name()).append(' ')
                    .append(t.metadata());
        }
        return b.toString();
    }
    public ObjectProperty<Double> ageObjectiveProperty() { return ageObjective; }
    /** The class has a dependency guard, so its capacity chart shows the governor's limit. */
    public javafx.beans.property.BooleanProperty governedProperty() { return governed; }
    public ObservableList<TermRow> terms() { return terms; }
    public ObservableList<CeilingRow> ceilings() { return ceilings; }
    public ObservableList<String> reasons() { return reasons; }
    /** Whether the REASONS section shows: never as an empty heading (issue 11). */
    public javafx.beans.binding.BooleanBinding reasonsShownProperty() { return reasonsShown; }
    private final javafx.beans.binding.BooleanBinding reasonsShown =
            javafx.beans.binding.Bindings.isNotEmpty(reasons);
    public ObservableList<InputRow> inputs() { return inputs; }
    /** The selected class's pools (decision 0029), in preference order; empty for a class with one pool. */
    public ObservableList<PoolBreakdown.PoolRow> pools() { return pools; }
    /** The selected class's replicas waiting for a pool (THE WORK strip); {@link PoolBreakdown.Waiting#NONE} when none. */
    public ObjectProperty<PoolBreakdown.Waiting> poolWaitingProperty() { return poolWaiting; }

    /**
     * Where the breakdown finds a class's pool specs and what each pool was seen running (the console's
     * live wiring); without it the rows show what the placement itself says.
     */
    public void setPoolFacts(java.util.function.Function<String, PoolBreakdown.Facts> facts) {
        this.poolFacts = facts == null ? name -> PoolBreakdown.Facts.NONE : facts;
        refreshPools(latest.get(className.get()));
    }

    private void refreshPools(ClassSnapshot s) {
        PoolBreakdown.Facts f = s == null ? PoolBreakdown.Facts.NONE : poolFacts.apply(s.name());
        List<PoolBreakdown.PoolRow> next = PoolBreakdown.rows(s, f);
        if (!next.equals(pools)) {
            pools.setAll(next);
        }
        poolWaiting.set(PoolBreakdown.waiting(s, f));
    }

    // Commands

    /** Appends a batch of ticks to every class's history and refreshes the selected class. */
    public void apply(List<TickResult> batch) {
        boolean rebuilt = false;
        for (TickResult tick : batch) {
            boolean every = Math.max(latest.size(), tick.classes().size()) <= CHART_EVERY_CLASS_UP_TO;
            if (!every) {
                trim(className.get());
            }
            for (ClassSnapshot s : tick.classes()) {
                latest.put(s.name(), s);
                ClassSeries cs = every ? byClass.computeIfAbsent(s.name(), n -> new ClassSeries(chartCapacity))
                        : byClass.get(s.name());
                if (cs != null && cs.append(s) && s.name().equals(className.get())) {
                    rebuilt = true;
                }
            }
        }
        if (className.get().isEmpty() && !latest.isEmpty() && !batch.isEmpty()) {
            select(batch.get(batch.size() - 1).classes().get(0).name());
            return;
        }
        if (rebuilt) {
            structure.set(structure.get() + 1);
        }
        revision.set(revision.get() + 1);
        seedFromDomain(className.get()); // the start-up backfill may have landed since
        refreshWeek(); // a minute rolled up, a chunk of the week's backfill arrived
        refresh();
    }

    /** The week window (issue 29): the charts read the week tier, a point a minute. */
    public static final Duration WEEK = Duration.ofDays(7);

    /** Chart windows the range selector offers: 5m, 15m, 1h, 6h, 24h (the day at the tick) and 7d (the week). */
    public static final List<Duration> WINDOWS = List.of(Duration.ofMinutes(5), Duration.ofMinutes(15),
            Duration.ofHours(1), Duration.ofHours(6), Duration.ofHours(24), WEEK);

    private final WeekCharts week;

    /**
     * The session's week tier ({@code History::findWeek}) and how far its backfill got, for the 7-day window; the
     * week is copied into chart series on {@code reads}, never on the FX thread.
     */
    public void setWeekHistory(java.util.function.Function<String, io.headroom.history.ClassHistory> weeks,
                               java.util.function.Supplier<io.headroom.history.WeekBackfill.Progress> progress,
                               java.util.concurrent.Executor reads) {
        week.set(weeks, progress, reads);
        refreshWeek();
    }

    /** True while the 7-day window is shown. */
    public boolean weekShown() {
        return WEEK.equals(window.get());
    }

    /** At 7 d while the week is still arriving: "history: 3 of 7 days…", said over the part not read yet. */
    public ReadOnlyStringProperty weekPendingProperty() { return week.pendingWordsProperty(); }

    /** The oldest minute of the shown class's week read so far (-∞ when nothing is pending). */
    public javafx.beans.property.ReadOnlyDoubleProperty weekPendingUntilProperty() {
        return week.pendingUntilProperty();
    }

    /**
     * What the age chart says over its part of the week: the backfill's progress, or that the week's history has
     * no oldest age before a time (the sandbox's past, a source without it), where "no data" would read as an outage.
     */
    public ReadOnlyStringProperty weekAgePendingProperty() { return week.age().words; }

    /** Until when the age chart's words apply (-∞: nothing said; +∞: the whole week). */
    public javafx.beans.property.ReadOnlyDoubleProperty weekAgePendingUntilProperty() { return week.age().until; }

    /** What the capacity chart says over its part of the week, as {@link #weekAgePendingProperty()} for replicas. */
    public ReadOnlyStringProperty weekCapacityPendingProperty() { return week.capacity().words; }

    /** Until when the capacity chart's words apply. */
    public javafx.beans.property.ReadOnlyDoubleProperty weekCapacityPendingUntilProperty() {
        return week.capacity().until;
    }

    /** At 7 d, copies the selected class's week again if it grew, and points the charts at the copy. */
    private void refreshWeek() {
        String name = className.get();
        ClassSnapshot s = latest.get(name);
        if (!weekShown() || s == null) {
            if (!weekShown()) {
                week.clearPending();
            }
            return;
        }
        week.refresh(name, s.cls().policy().slotsPerReplica(), cs -> {
            if (!weekShown() || !name.equals(className.get())) {
                refreshWeek(); // another class was opened while this one's week was copied
            } else if (series.get() != cs) {
                series.set(cs);
                structure.set(structure.get() + 1);
                revision.set(revision.get() + 1);
            }
        });
    }

    private final ObjectProperty<Duration> window = new SimpleObjectProperty<>(Duration.ofMinutes(15));

    /** The charted window (the range selector); the view's time axis follows it. */
    public ObjectProperty<Duration> windowProperty() { return window; }

    /**
     * Shows {@code w} of history (one of {@link #WINDOWS}) at {@code pixelWidth} columns: the
     * selected class's charts are filled from the domain history (and the metrics source's past,
     * where it keeps one) back to the window's start.
     */
    public void showWindow(Duration w, int pixelWidth) {
        if (!WINDOWS.contains(w)) {
            throw new IllegalArgumentException("not a chart window: " + w);
        }
        boolean wasWeek = weekShown();
        window.set(w); // kept while the console runs: another class opens at the same window
        if (wasWeek != weekShown()) {
            String name = className.get();
            series.set(name.isEmpty() ? null : weekShown() ? week.seriesFor(name) : opened(name));
            structure.set(structure.get() + 1);
            revision.set(revision.get() + 1);
        }
        if (weekShown()) {
            refreshWeek();
        } else {
            week.clearPending();
            backfill(w, pixelWidth);
        }
    }

    private java.util.function.Function<String, io.headroom.history.ClassHistory> domain;
    private java.util.concurrent.Executor domainReads;
    private int chartCapacity = ClassSeries.CAPACITY;
    private final java.util.Set<String> seeding = new java.util.HashSet<>();
    /** Per class, the domain history's first time at the last seed: seed again only when it reaches further. */
    private final Map<String, Double> seededFrom = new HashMap<>();

    /**
     * The session's load history in domain units (kept for a day, backfilled at start): charts
     * are filled from it when a class is opened, the window widens, or it reaches further back
     * than the charts do. Copies are taken on {@code reads} and applied on the FX thread.
     *
     * @param capacity points per chart series: the domain history's own (a day at the tick)
     */
    public void setDomainHistory(java.util.function.Function<String, io.headroom.history.ClassHistory> history,
                                 int capacity, java.util.concurrent.Executor reads) {
        this.domain = history;
        this.chartCapacity = Math.max(2, capacity);
        this.domainReads = reads;
    }

    /**
     * The longest time between two of the selected class's points that is still continuous data:
     * two and a half control intervals. The age chart shades longer stretches as missing.
     */
    public double gapSpacingSeconds() {
        ClassSnapshot s = latest.get(className.get());
        double poll = s == null ? 15 : s.cls().policy().pollIntervalSeconds();
        double step = weekShown() ? io.headroom.history.History.WEEK_STEP.toSeconds() : 1; // the week: a minute
        return 2.5 * Math.max(step, poll);
    }

    /** The points per chart series a new class gets. */
    int chartCapacity() {
        return chartCapacity;
    }

    /**
     * Puts the domain history from before the charts' first point under the selected class's
     * series, when the domain history reaches further back (once at a time per class).
     */
    private void seedFromDomain(String name) {
        if (domain == null || name.isEmpty() || seeding.contains(name)) {
            return;
        }
        io.headroom.history.ClassHistory h = domain.apply(name);
        ClassSeries cs = byClass.get(name);
        if (h == null || cs == null) {
            return;
        }
        double chartFirst = cs.firstTime();
        double domainFirst = h.firstTime();
        if (!(domainFirst < chartFirst) && !(chartFirst != chartFirst && domainFirst == domainFirst)) {
            return; // nothing older there
        }
        Double last = seededFrom.get(name);
        if (last != null && !(domainFirst < last)) {
            return; // seeded from this far back already (what did not fit the ring stays out)
        }
        ClassSnapshot s = latest.get(name);
        if (s == null) {
            return; // its slots per replica are not known yet: the tick that brings them seeds it
        }
        seededFrom.put(name, domainFirst);
        int k = s.cls().policy().slotsPerReplica();
        seeding.add(name);
        double before = chartFirst == chartFirst ? chartFirst : Double.POSITIVE_INFINITY;
        java.util.concurrent.CompletableFuture.supplyAsync(() -> h.window(Double.NEGATIVE_INFINITY,
                Math.nextDown(before)), domainReads).whenComplete((w, e) -> fx.execute(() -> {
                    seeding.remove(name);
                    if (e == null && w.size() > 0 && cs.seed(w, k) > 0) {
                        revision.set(revision.get() + 1);
                        if (name.equals(className.get())) {
                            backfillStatus.set("history from " + io.headroom.ui.Format.time(
                                    Instant.ofEpochMilli((long) (cs.firstTime() * 1000))));
                        }
                    }
                }));
    }

    /** Asks for a signal's history; set for sources that keep it (Prometheus), absent in the sandbox. */
    public interface HistorySource {
        java.util.concurrent.CompletableFuture<io.headroom.metrics.SignalHistory> history(String className,
                SignalName signal, Instant from, Instant to, int pixelWidth);
    }

    /** The signals the charts can fill from history. */
    static final List<SignalName> BACKFILLED = List.of(io.headroom.decision.Signals.OLDEST_AGE,
            io.headroom.decision.Signals.QUEUE_LENGTH, io.headroom.decision.Signals.ARRIVAL_RATE,
            io.headroom.decision.Signals.MEAN_SERVICE);

    private HistorySource historySource;
    private final java.util.Set<String> backfilled = new java.util.HashSet<>();
    private final StringProperty backfillStatus = new SimpleStringProperty("");

    /** "history: 4 signals from Prometheus" or why not; for the detail header. */
    public StringProperty backfillStatusProperty() { return backfillStatus; }

    public void setHistorySource(HistorySource source) {
        this.historySource = source;
    }

    /**
     * Fills the selected class's charts from history for the window (once per class and window);
     * results cross to the FX thread through the view model's executor.
     */
    public void backfill(Duration window, int pixelWidth) {
        String name = className.get();
        if (domain != null) {
            // The domain history holds the day (backfilled at start at the tick's resolution): no query here.
            seedFromDomain(name);
            return;
        }
        if (historySource == null || name.isEmpty() || !backfilled.add(name + "@" + window.toSeconds())) {
            return;
        }
        ClassSeries cs = opened(name);
        Instant to = clock.instant();
        Instant from = to.minus(window);
        backfillStatus.set("loading " + BACKFILLED.size() + " signals of history…");
        java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(BACKFILLED.size());
        List<String> missing = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        for (SignalName signal : BACKFILLED) {
            historySource.history(name, signal, from, to, pixelWidth).whenComplete((h, e) -> fx.execute(() -> {
                if (e != null || h == null || h.size() == 0) {
                    missing.add(signal + (e != null ? " (" + io.headroom.ui.PlainWords.detail(e.getMessage()) + ")"
                            : h == null ? "" : " (" + io.headroom.ui.PlainWords.reason(h.noData()) + ")"));
                } else {
                    cs.backfill(signal, h.times(), h.values());
                    revision.set(revision.get() + 1);
                }
                if (left.decrementAndGet() == 0) {
                    backfillStatus.set(missing.isEmpty() ? "history filled from " + window.toMinutes() + " min back"
                            : "no history for " + String.join(", ", missing));
                }
            }));
        }
    }

    /** Shows another class; its history is already here. */
    public void select(String name) {
        if (name == null || name.equals(className.get())) {
            return;
        }
        className.set(name);
        ClassSeries day = opened(name); // the day's charts keep their ticks while the week is shown
        series.set(weekShown() ? week.seriesFor(name) : day);
        seedFromDomain(name); // a class a fleet had not charted has only the domain history's past
        ClassSnapshot s = latest.get(name);
        ageObjective.set(s == null ? null : s.cls().policy().maxAgeSeconds());
        governed.set(s != null && s.cls().policy().dependencyGuard() != null);
        refreshAccess();
        structure.set(structure.get() + 1);
        revision.set(revision.get() + 1);
        refreshWeek();
        refresh();
    }

    /** True while the classes are few enough that every one is charted from its first tick. */
    private boolean chartsEveryClass() {
        return latest.size() <= CHART_EVERY_CLASS_UP_TO;
    }

    /**
     * The class's chart series, made (and later seeded from the domain history) if it has none, and
     * now the most recently opened; in a fleet, the eldest opened beyond {@link #KEEP_OPENED} go.
     */
    private ClassSeries opened(String name) {
        ClassSeries cs = byClass.remove(name);
        byClass.put(name, cs != null ? cs : new ClassSeries(chartCapacity));
        if (!chartsEveryClass()) {
            trim(name);
        }
        return byClass.get(name);
    }

    /** Drops the eldest opened classes' charts beyond {@link #KEEP_OPENED}, never {@code keep}'s nor the shown class's. */
    private void trim(String keep) {
        java.util.Iterator<String> eldest = byClass.keySet().iterator();
        while (byClass.size() > KEEP_OPENED && eldest.hasNext()) {
            String gone = eldest.next();
            if (!gone.equals(keep) && !gone.equals(className.get())) {
                eldest.remove();
                seededFrom.remove(gone); // opened again, it is seeded again
                backfilled.removeIf(k -> k.startsWith(gone + "@"));
            }
        }
    }

    /** A class's chart history, or null before its first tick (or, in a fleet, while it is not open). FX thread only. */
    public ClassSeries series(String name) {
        return byClass.get(name);
    }

    public ClassSnapshot latest(String name) {
        return latest.get(name);
    }

    private void refresh() {
        forecast.refresh(className.get());
        ClassSnapshot s = latest.get(className.get());
        refreshWork();
        refreshPolicyEdit();
        actionable.set(s != null && s.decision() != null);
        refreshPools(s);
        if (s == null) {
            return;
        }
        // Also here, not only in select(): the first class is selected before its first tick has arrived.
        ageObjective.set(s.cls().policy().maxAgeSeconds());
        governed.set(s.cls().policy().dependencyGuard() != null);
        policySummary.set(summarise(s.cls().policy()));
        Decision d = s.decision();
        if (d == null) {
            headline.set("not decided");
            direction.set("problem");
            explanation.set(io.headroom.ui.PlainWords.reason(s.problem()));
            terms.clear();
            ceilings.clear();
            reasons.setAll("PROBLEM");
            // What the metrics source read at that tick still shows (the cluster may be the one that failed).
            inputs.setAll(s.signals().entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getValue().present()
                    ? new InputRow(e.getKey().id(), Figures.fmt(e.getValue().value()), ageOf(e.getValue().sampledAt(), s.at()),
                    true)
                    : new InputRow(e.getKey().id(), "—", "no data: " + io.headroom.ui.PlainWords.reason(
                    e.getValue().missingReason()), false)).toList());
            admission.set("");
            admissionState.set("");
            return;
        }
        refreshHeadline(s);
        // The decision quotes its inputs' reasons as the metrics source gave them (codes, class names).
        explanation.set(io.headroom.ui.PlainWords.sentence(d.explanation()));
        terms.setAll(d.terms().stream().map(DetailViewModel::termRow).toList());
        ceilings.setAll(d.ceilings().stream().map(DetailViewModel::ceilingRow).toList());
        reasons.setAll(d.reasons().stream().map(Reason::toString).toList());
        inputs.setAll(d.inputs().stream().map(in -> inputRow(in, d.at())).toList());
        admissionState.set(d.admission().state().name());
        admission.set(d.admission().message());
    }

    static TermRow termRow(Term t) {
        return new TermRow(t.name(), Figures.fmt(t.value()), t.formula());
    }

    static CeilingRow ceilingRow(CeilingResult c) {
        return new CeilingRow(c.name(), c.limit(), c.note(), c.binding(), c.fromFallback());
    }

    static InputRow inputRow(InputStatus in, Instant now) {
        return switch (in.status()) {
            case OK -> new InputRow(in.name().id(), Figures.fmt(in.value()),
                    ageOf(in.sampledAt(), now), true);
            case STALE -> new InputRow(in.name().id(), Figures.fmt(in.value()), "stale: " + io.headroom.ui.PlainWords.reason(in.reason()),
                    false);
            // A signal nobody collects for this class is not an alarm; one that failed is.
            case NOT_COLLECTED -> new InputRow(in.name().id(), "—", Signals.QUEUED_SERVICE.equals(in.name())
                    ? "not collected (Q = L × S)" : "not collected", true);
            case MISSING -> new InputRow(in.name().id(), "—", "no data: " + io.headroom.ui.PlainWords.reason(in.reason()), false);
            // A number from an answer Prometheus warned may be incomplete: shown, with the warnings, not as fine.
            case PARTIAL -> new InputRow(in.name().id(), Figures.fmt(in.value()),
                    io.headroom.ui.PlainWords.detail(in.reason()), false);
        };
    }

    private static String ageOf(Instant sampled, Instant now) {
        long s = Math.max(0, Duration.between(sampled, now).toSeconds());
        return s == 0 ? "fresh" : s + " s old";
    }

    static String summarise(Policy p) {
        StringBuilder b = new StringBuilder();
        b.append("k ").append(p.slotsPerReplica())
                .append(" · u ").append(Figures.fmt(p.targetUtilization()))
                .append(" · D ").append(Figures.fmt(p.drainTargetSeconds())).append(" s");
        if (p.maxAgeSeconds() != null) {
            b.append(" · age objective ").append(Figures.fmt(p.maxAgeSeconds())).append(" s");
        }
        b.append(" · replicas ").append(p.minReplicas()).append("–").append(p.maxReplicas());
        return b.toString();
    }
}
