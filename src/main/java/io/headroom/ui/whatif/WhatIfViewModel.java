package io.headroom.ui.whatif;

import io.headroom.decision.Policy;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.EnumMap;
import java.util.Map;
import io.headroom.whatif.LoadSource;
import io.headroom.whatif.PolicyEdit;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The what-if panel of one class (design.md §6): policy fields the operator edits, and the replay of
 * the recent load under the current policy beside the edited one. Every edit replays again, off
 * the FX thread; a result that an edit has overtaken is dropped. Nothing is applied: the live
 * policy does not change.
 */
public final class WhatIfViewModel {

    /** One line of the comparison; {@code verdict} says whether the edited figure is better, worse or the same. */
    public record Row(String what, String current, String edited, String change, String keda,
                      ComparisonTable.Verdict verdict, String predictive) {
        /** Without a predictive run. */
        public Row(String what, String current, String edited, String change, String keda,
                   ComparisonTable.Verdict verdict) {
            this(what, current, edited, change, keda, verdict, "");
        }
    }

    /** An age objective to draw on the replayed age chart. */
    public record ObjectiveLine(double seconds, String label) {
    }

    /** The week range, in minutes: replayed from the class's week of history (a point a minute). */
    public static final int WEEK_MINUTES = io.headroom.whatif.WeekAhead.WEEK_MINUTES;
    /** The windows the replay offers, in minutes: up to the day the history keeps, and the week beside it. */
    public static final List<Integer> WINDOW_CHOICES = List.of(15, 30, 60, 180, 360, 720, 1440, WEEK_MINUTES);

    /**
     * One edit field: the text as typed, its unit, and what is wrong with it in plain words (blank
     * when it is valid). Nothing is clamped: an invalid value stays as typed and is refused.
     */
    public static final class Input {
        private final String label;
        private final String unit;
        private final StringProperty text = new SimpleStringProperty("");
        private final javafx.beans.property.ReadOnlyStringWrapper error = new javafx.beans.property.ReadOnlyStringWrapper("");

        Input(String label, String unit) {
            this.label = label;
            this.unit = unit;
        }

        public String label() {
            return label;
        }

        /** The unit shown beside the field: "s", "replicas", "connections (6 per replica)"… */
        public String unit() {
            return unit;
        }

        public StringProperty textProperty() {
            return text;
        }

        /** Blank when valid, else a sentence such as "1.5 is more than 1: …". */
        public javafx.beans.property.ReadOnlyStringProperty errorProperty() {
            return error.getReadOnlyProperty();
        }

        String trimmed() {
            return text.get() == null ? "" : text.get().trim();
        }

        void setProblem(String problem) {
            if (problem == null) {
                error.set("");
                return;
            }
            String v = trimmed();
            error.set(v.isEmpty() ? "A value " + problem : v + " " + problem);
        }
    }

    /**
     * One ceiling of the live policy and the operator's cap for it: blank keeps the live ceiling,
     * a number replaces it with a fixed replica limit of the same name.
     */
    public static final class CeilingEdit {
        private final io.headroom.decision.CeilingSpec live;
        private final Input input;
        private final StringProperty cap;

        CeilingEdit(io.headroom.decision.CeilingSpec live) {
            this.live = live;
            this.input = new Input("Ceiling " + live.name(), PolicyEdit.unit(live));
            this.cap = input.textProperty();
        }

        /** The edit field: replicas, or a budget ceiling's budget in its own units. */
        public Input input() {
            return input;
        }

        /** How the edit is read: replicas, a budget (per-replica amount kept), or a cap on a signal-fed ceiling. */
        public PolicyEdit.CeilingKind kind() {
            return PolicyEdit.kind(live);
        }

        public String name() {
            return live.name();
        }

        /** The live ceiling as an expression, e.g. "floor(40 connections / 6 per replica) = 6 replicas". */
        public String expression() {
            return PolicyEdit.expression(live);
        }

        /** The live ceiling in words, e.g. "100 / 8 per replica" or "from signal ceiling:db:budget". */
        public String describe() {
            var b = live.budget();
            var p = live.perReplica();
            if (live.dynamic()) {
                return "from " + (b.signal() != null ? b.signal() : p.signal()) + " (the replay has no such signal:"
                        + " it uses the conservative " + live.conservativeReplicas() + ")";
            }
            return p.constant() == 1 ? num(b.constant()) + " replicas" : num(b.constant()) + " / " + num(p.constant())
                    + " per replica";
        }

        /** The typed edit: blank keeps the live ceiling. */
        public StringProperty capProperty() {
            return cap;
        }
    }

    private final String className;
    private final Policy current;
    private final LoadSource history;
    /** The class's week of history (a point a minute), or null: the week range and the forecasts then use the day's. */
    private volatile LoadSource week;
    /** The weeks computed ahead, or null; {@link #showingAhead} while the figures shown are one of them. */
    private io.headroom.whatif.WeekAhead weekAhead;
    private boolean showingAhead;
    /** What the exact figures on screen replayed (window end, length, edited policy, listLength), or null. */
    private String exactShown;
    private final Executor background;
    /** Where a replay's runs (live, edited, KEDA's) go side by side; the replaying thread alone until set. */
    private volatile Executor runs = Runnable::run;
    private final Executor fx;
    private final long seed;
    /** The replay in flight is this one; an edit or a cancel moves it on, and the older replay stops. */
    private final java.util.concurrent.atomic.AtomicLong generation = new java.util.concurrent.atomic.AtomicLong();

    // The edits as typed, prefilled from the live policy, each with its unit and problem
    private final Map<PolicyEdit.Field, Input> inputs = new EnumMap<>(PolicyEdit.Field.class);
    private final Input kedaListLength = new Input("KEDA listLength", "jobs / replica");
    private final ObjectProperty<Integer> windowMinutes = new SimpleObjectProperty<>(30);
    private final ObjectProperty<Double> pinnedEnd = new SimpleObjectProperty<>();
    private final StringProperty pinned = new SimpleStringProperty("");
    private final BooleanProperty valid = new SimpleBooleanProperty(true);
    private final DoubleProperty progress = new SimpleDoubleProperty(-1);
    private final ObservableList<ObjectiveLine> objectives = FXCollections.observableArrayList();
    private java.time.ZoneId zone = java.time.ZoneId.systemDefault();
    private final StringProperty status = new SimpleStringProperty("");
    private final StringProperty trade = new SimpleStringProperty("");
    private final StringProperty predictive = new SimpleStringProperty("");
    private final BooleanProperty running = new SimpleBooleanProperty();
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<Replay.Comparison> comparison = new SimpleObjectProperty<>();
    private final List<CeilingEdit> ceilings;
    // Admission off vs on and placement vs one pool (issue 30), under the live policy, replayed after the comparison
    private volatile io.headroom.whatif.AdmissionPlacement.Ask loops = io.headroom.whatif.AdmissionPlacement.Ask.NONE;
    private final ObservableList<Row> loopRows = FXCollections.observableArrayList();
    private final StringProperty loopsStatus = new SimpleStringProperty("");
    /** The window the rows above were replayed over ("end/minutes"): another replay of it is not needed. */
    private String loopsReplayed;

    /**
     * @param history    the class's load; asked on the FX thread (a copy is replayed in the background)
     * @param background where replays run
     * @param fx         the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public WhatIfViewModel(String className, Policy current, LoadSource history, Executor background,
                           Executor fx, long seed) {
        this.className = className;
        this.current = current;
        this.history = history;
        this.background = background;
        this.fx = fx;
        this.seed = seed;
        for (PolicyEdit.Field f : PolicyEdit.Field.values()) {
            inputs.put(f, new Input(f.label(), f.unit()));
        }
        this.ceilings = current.ceilings().stream().map(CeilingEdit::new).toList();
        javafx.beans.InvalidationListener check = o -> validate();
        inputs.values().forEach(i -> i.textProperty().addListener(check));
        ceilings.forEach(c -> c.cap.addListener(check));
        kedaListLength.textProperty().addListener(check);
        kedaListLength.textProperty().set(num(ComparisonTable.DEFAULT_KEDA_LIST_LENGTH));
        windowMinutes.addListener((o, a, b) -> updatePinned());
        pinnedEnd.addListener((o, a, b) -> updatePinned());
        reset();
    }

    public String className() { return className; }
    public Policy current() { return current; }
    /** The field of one policy value. */
    public Input input(PolicyEdit.Field f) { return inputs.get(f); }
    /** A share of the slots, more than 0 and at most 1. */
    public StringProperty targetUtilizationProperty() { return inputs.get(PolicyEdit.Field.TARGET_UTILIZATION).textProperty(); }
    public StringProperty slotsPerReplicaProperty() { return inputs.get(PolicyEdit.Field.SLOTS_PER_REPLICA).textProperty(); }
    public StringProperty drainTargetSecondsProperty() { return inputs.get(PolicyEdit.Field.DRAIN_TARGET_SECONDS).textProperty(); }
    /** Seconds, or blank for no age objective. */
    public StringProperty maxAgeSecondsProperty() { return inputs.get(PolicyEdit.Field.MAX_AGE_SECONDS).textProperty(); }
    public StringProperty minReplicasProperty() { return inputs.get(PolicyEdit.Field.MIN_REPLICAS).textProperty(); }
    public StringProperty maxReplicasProperty() { return inputs.get(PolicyEdit.Field.MAX_REPLICAS).textProperty(); }
    /** How long the replayed window is, one of {@link #WINDOW_CHOICES}; its end stays pinned. */
    public ObjectProperty<Integer> windowMinutesProperty() { return windowMinutes; }
    /** The listLength of the third run, KEDA's rule on the same load (blank or 0: no third run). */
    public Input kedaListLength() { return kedaListLength; }
    public StringProperty kedaListLengthProperty() { return kedaListLength.textProperty(); }
    /** False while any field is invalid: Apply, Save and Copy are refused then. */
    public BooleanProperty validProperty() { return valid; }
    /** The compared window's end (epoch seconds), pinned: it does not slide while the operator compares. */
    public ObjectProperty<Double> pinnedEndProperty() { return pinnedEnd; }
    /** "pinned at 13:05–13:35", blank before there is any history. */
    public StringProperty pinnedProperty() { return pinned; }
    /** The running replay's share done, 0 to 1; -1 when none runs. */
    public DoubleProperty progressProperty() { return progress; }
    /** The age objectives of the replayed runs (live, and the edited one when it differs). */
    public ObservableList<ObjectiveLine> objectives() { return objectives; }

    /**
     * Where the week range and the predictive run's forecasts read the class's past: its week of history (the
     * console's week tier), null for none (the day's history is used as far as it reaches).
     */
    public void setWeek(LoadSource week) {
        this.week = week;
    }

    /**
     * The weeks the console computes ahead in the background with the live policies ({@link
     * io.headroom.whatif.WeekAhead}), null for none: the week range of an unedited policy at the default listLength
     * shows the class's at once, said as such, while the exact replay runs.
     */
    public void setWeekAhead(io.headroom.whatif.WeekAhead weekAhead) {
        this.weekAhead = weekAhead;
    }

    /** What the predictive floors did against the live policy reactive, in a sentence; blank for none. */
    public StringProperty predictiveProperty() { return predictive; }

    /** The time zone of the pinned label (the console's). */
    public void setZone(java.time.ZoneId zone) {
        this.zone = zone;
        updatePinned();
    }

    /** Pins the window's end at the newest point of the history and replays. */
    public CompletableFuture<Replay.Comparison> moveToNow() {
        double newest = history.newestTime();
        pinnedEnd.set(Double.isFinite(newest) ? newest : null);
        return replay();
    }

    private void updatePinned() {
        Double end = pinnedEnd.get();
        if (end == null) {
            pinned.set("");
            return;
        }
        java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern(
                windowMinutes.get() >= 24 * 60 ? "EEE HH:mm" : "HH:mm", java.util.Locale.ROOT).withZone(zone);
        pinned.set("pinned at " + f.format(java.time.Instant.ofEpochSecond((long) (end - windowMinutes.get() * 60.0)))
                + "–" + f.format(java.time.Instant.ofEpochSecond(end.longValue())));
    }

    /** Checks every field on its own and min against max; sets each field's problem and {@link #validProperty()}. */
    private void validate() {
        Map<PolicyEdit.Field, String> texts = texts();
        Map<PolicyEdit.Field, String> cross = PolicyEdit.crossProblems(texts, current);
        boolean ok = true;
        for (var e : inputs.entrySet()) {
            String problem = e.getKey().problem(e.getValue().trimmed());
            if (problem == null) {
                problem = cross.get(e.getKey());
            }
            e.getValue().setProblem(problem);
            ok &= problem == null;
        }
        for (CeilingEdit c : ceilings) {
            String problem = PolicyEdit.problem(c.live, c.input.trimmed());
            c.input.setProblem(problem);
            ok &= problem == null;
        }
        String k = kedaListLength.trimmed();
        String kp = null;
        if (!k.isEmpty()) {
            try {
                double d = Double.parseDouble(k);
                kp = d < 0 ? "cannot be negative (0 or blank: no KEDA run)" : !Double.isFinite(d) || d > 1e9
                        ? "is too large" : null;
            } catch (NumberFormatException e) {
                kp = "is not a number of jobs per replica (0 or blank: no KEDA run)";
            }
        }
        kedaListLength.setProblem(kp);
        valid.set(ok && kp == null);
    }

    private Map<PolicyEdit.Field, String> texts() {
        Map<PolicyEdit.Field, String> texts = new EnumMap<>(PolicyEdit.Field.class);
        inputs.forEach((f, i) -> texts.put(f, i.trimmed()));
        return texts;
    }

    private Double listLength() {
        String k = kedaListLength.trimmed();
        return k.isEmpty() ? null : Double.valueOf(k);
    }
    /** What the last replay said, or why there is none. */
    public StringProperty statusProperty() { return status; }

    /** The trade the last replay showed (time over the objective against replica-hours), blank for none. */
    public StringProperty tradeProperty() { return trade; }
    public BooleanProperty runningProperty() { return running; }
    public ObservableList<Row> rows() { return rows; }
    /** The live policy's ceilings, each with its edit. */
    public List<CeilingEdit> ceilings() { return ceilings; }
    /** The last replay shown (for the charts), null when there is none. */
    public ObjectProperty<Replay.Comparison> comparisonProperty() { return comparison; }

    /**
     * Admission off against on and placement against one pool, under the live policy, for a class that publishes
     * admission or lists pools (issue 30): header rows name each comparison, "current" is without (admission off,
     * the first pool alone), "edited" with. Empty when the class has neither or the window is too long.
     */
    public ObservableList<Row> admissionPlacementRows() { return loopRows; }

    /** What the admission and placement replay says (running, its scenario, why it is not shown); blank for none. */
    public StringProperty admissionPlacementStatusProperty() { return loopsStatus; }

    /** What the class has to compare: an admission it publishes, the pools it is placed across. */
    public void setAdmissionPlacement(io.headroom.whatif.AdmissionPlacement.Ask ask) {
        this.loops = ask == null ? io.headroom.whatif.AdmissionPlacement.Ask.NONE : ask;
        loopsReplayed = null;
    }

    /** Whether the class has admission or placement to compare (the window's section shows only then). */
    public boolean hasAdmissionPlacement() {
        return loops.any();
    }

    /**
     * Admission off vs on and placement vs one pool over the same window under the live policy, in the background
     * after the comparison (a window already replayed is not replayed again: the live policy does not change here).
     */
    private void replayAdmissionPlacement(LoadHistory h, double end, int minutes, long mine) {
        io.headroom.whatif.AdmissionPlacement.Ask ask = loops;
        if (!ask.any()) {
            return;
        }
        String key = end + "/" + minutes;
        if (key.equals(loopsReplayed)) {
            return;
        }
        loopsStatus.set("Replaying " + (ask.admission() ? "admission off and on" : "")
                + (ask.admission() && ask.placed() ? ", and " : "") + (ask.placed() ? "placement against one pool" : "")
                + " under the live policy…");
        CompletableFuture.supplyAsync(() -> io.headroom.whatif.AdmissionPlacement.replay(h, current, ask, seed,
                () -> mine != generation.get()), background).whenComplete((r, e) -> fx.execute(() -> {
                    if (mine != generation.get()) {
                        return; // overtaken: the next replay does it again
                    }
                    if (e != null) {
                        Throwable cause = e.getCause() != null ? e.getCause() : e;
                        loopRows.clear();
                        loopsStatus.set("Admission and placement not replayed: " + cause.getMessage());
                        return;
                    }
                    loopsReplayed = key;
                    loopRows.setAll(admissionPlacementRows(r, current, ask));
                    List<String> said = new java.util.ArrayList<>();
                    if (r.placement() != null) {
                        said.add("Placement: " + io.headroom.whatif.AdmissionPlacement.scenarioWords(r.placement(),
                                ask.timing()) + ".");
                    }
                    if (r.admission() != null) {
                        said.add("Admission: producers that obey it retry a refused job after "
                                + num(io.headroom.whatif.AdmissionPlacement.RETRY_SECONDS) + " s.");
                    }
                    said.addAll(r.notes());
                    loopsStatus.set(String.join(" ", said));
                }));
    }

    /** The rows of both comparisons, each under a header row naming it ("without" as current, "with" as edited). */
    static List<Row> admissionPlacementRows(io.headroom.whatif.AdmissionPlacement.Result r, Policy live,
                                            io.headroom.whatif.AdmissionPlacement.Ask ask) {
        List<Row> out = new java.util.ArrayList<>();
        if (r.admission() != null) {
            out.add(new Row("Admission", "off", "on", "", "", ComparisonTable.Verdict.NOT_JUDGED));
            io.headroom.whatif.AdmissionPlacement.admissionRows(r.admission(), live).forEach(x -> out.add(
                    new Row(x.what(), x.current(), x.edited(), x.change(), "", x.verdict())));
        }
        if (r.placement() != null) {
            out.add(new Row("Placement", "one pool (" + ask.pools().get(0).name() + ")", "placed ("
                    + String.join(", ", ask.pools().stream().map(io.headroom.decision.Placement.PoolSpec::name)
                    .toList()) + ")", "", "", ComparisonTable.Verdict.NOT_JUDGED));
            io.headroom.whatif.AdmissionPlacement.placementRows(r.placement()).forEach(x -> out.add(
                    new Row(x.what(), x.current(), x.edited(), x.change(), "", x.verdict())));
        }
        return out;
    }

    /**
     * Lets a replay's runs go side by side on {@code runs} (threads that may block; the console's I/O
     * pool), so a day's replay takes one run's time on two cores. Runs no thread of {@code runs} has
     * started are run by the replaying thread, so any executor is safe.
     */
    public void setReplayRuns(Executor runs) {
        this.runs = java.util.Objects.requireNonNull(runs, "runs");
    }

    /** Puts every field back to the live policy. */
    public void reset() {
        inputs.forEach((f, i) -> i.textProperty().set(f.text(current)));
        for (CeilingEdit c : ceilings) {
            c.cap.set(PolicyEdit.text(c.live));
        }
    }

    /** The edited policy, or an exception naming the field that is wrong. */
    public Policy edited() {
        Map<String, String> caps = new java.util.LinkedHashMap<>();
        ceilings.forEach(c -> caps.put(c.name(), c.input.trimmed()));
        try {
            return PolicyEdit.apply(current, texts(), caps);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(plain(e.getMessage()), e);
        }
    }

    /** "maxAgeSeconds: 'soon' is not…" as the window names its fields: "Age objective: soon is not…". */
    private static String plain(String message) {
        for (PolicyEdit.Field f : PolicyEdit.Field.values()) {
            if (message.startsWith(f.key() + ": ")) {
                return f.label() + ": " + message.substring(f.key().length() + 2).replaceFirst("^'([^']*)'", "$1");
            }
        }
        return message.replaceFirst("^(ceiling [^:]+): '([^']*)'", "$1: $2");
    }

    /**
     * The edited policy as a {@code policy:} block for the class's entry in the workloads file
     * (export: the operator pastes it in and reloads; nothing is applied from here), or null with the
     * status saying why.
     */
    public String editedYaml() {
        try {
            if (policyText == null) {
                status.set("Not copied: this window has no way to write a policy as text.");
                return null;
            }
            String yaml = policyText.apply(edited());
            status.set("Copied the edited policy as a policy: block for " + className + " in the workloads file."
                    + " Nothing is applied until the file is changed and loaded.");
            return yaml;
        } catch (IllegalArgumentException e) {
            status.set("Not copied: " + e.getMessage());
            return null;
        }
    }

    /** Commits an edited policy to the running console; the outcome says what happened. */
    public interface Commit {
        CompletableFuture<io.headroom.supervise.Outcome> apply(Policy edited, String reason);
    }

    private Commit commit;
    private java.util.function.Function<Policy, String> policyText;

    /** How a policy becomes its {@code policy:} block of YAML (the session's config writer); the copy needs it. */
    public void setPolicyText(java.util.function.Function<Policy, String> policyText) {
        this.policyText = policyText;
    }

    /** Where "Apply to this console" goes; without it the window only compares. */
    public void setCommit(Commit commit) {
        this.commit = commit;
        canCommit.set(commit != null);
    }

    private final BooleanProperty canCommit = new SimpleBooleanProperty();
    private Commit save;
    private final BooleanProperty canSave = new SimpleBooleanProperty();
    private String saveTarget = "";

    /** Where "Save to workloads file" goes (the session's file), named for the window; null: not offered. */
    public void setSave(Commit save, String fileName) {
        this.save = save;
        this.saveTarget = fileName == null ? "" : fileName;
        canSave.set(save != null);
    }

    public BooleanProperty canSaveProperty() {
        return canSave;
    }

    /** The workloads file's name, for the Save dialog. */
    public String saveTarget() {
        return saveTarget;
    }

    /** Writes the edited policy into the workloads file (then the console reloads it). */
    public CompletableFuture<io.headroom.supervise.Outcome> saveToFile(String reason) {
        Policy edited;
        try {
            edited = edited();
        } catch (IllegalArgumentException e) {
            status.set("Not saved: " + e.getMessage());
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(io.headroom.supervise.Outcome.Why.INVALID, e.getMessage()));
        }
        if (save == null) {
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(io.headroom.supervise.Outcome.Why.NOT_FOUND, "no workloads file"));
        }
        status.set("Saving the edited policy of " + className + " into " + saveTarget + "…");
        return save.apply(edited, reason).whenCompleteAsync((o, e) -> status.set(e != null
                ? "Not saved: " + io.headroom.ErrorWords.of(e) : o.ok() ? o.message() + ". Reloading the workloads file…"
                : o.message().startsWith("not saved") ? "N" + o.message().substring(1) : "Not saved: " + o.message()), fx);
    }

    public BooleanProperty canCommitProperty() {
        return canCommit;
    }

    /**
     * What applying the edits would change in the live policy ({@code maxReplicas 20 → 8}), empty when
     * nothing; null with the status saying why when an edit is not valid.
     */
    public List<String> pendingChanges() {
        try {
            return io.headroom.session.PolicyEdits.diff(current, edited());
        } catch (IllegalArgumentException e) {
            status.set("Not applied: " + e.getMessage());
            return null;
        }
    }

    /** Makes the edited policy the class's live policy in this console, journaled with {@code reason}. */
    public CompletableFuture<io.headroom.supervise.Outcome> applyToConsole(String reason) {
        Policy edited;
        try {
            edited = edited();
        } catch (IllegalArgumentException e) {
            status.set("Not applied: " + e.getMessage());
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(io.headroom.supervise.Outcome.Why.INVALID, e.getMessage()));
        }
        if (commit == null) {
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(io.headroom.supervise.Outcome.Why.NOT_FOUND, "nothing to apply to"));
        }
        status.set("Applying the edited policy to " + className + "…");
        return commit.apply(edited, reason).whenCompleteAsync((o, e) -> status.set(e != null
                ? "Not applied: " + io.headroom.ErrorWords.of(e) : o.ok() ? o.message()
                + ". It lasts until reverted (the class's POLICY EDITED chip) or the workloads file is read again."
                : "Not applied: " + o.message()), fx);
    }

    /** Stops the replay in flight; its result, if it comes, is dropped. */
    public void cancel() {
        if (running.get()) {
            generation.incrementAndGet();
            running.set(false);
            progress.set(-1);
            status.set("Replay cancelled." + (showingAhead ? " The figures shown are the live policy's week"
                    + " computed earlier in the background." : "") + " Change a field or press Replay to run it again.");
        }
    }

    /**
     * Replays the pinned window under both policies (FX thread; the work itself runs in the
     * background, reports its progress, and stops when an edit or a cancel overtakes it).
     */
    public CompletableFuture<Replay.Comparison> replay() {
        long mine = generation.incrementAndGet();
        Policy edited;
        try {
            edited = edited();
        } catch (IllegalArgumentException e) {
            status.set("Not replayed: " + e.getMessage());
            running.set(false);
            progress.set(-1);
            clearShown();
            return CompletableFuture.failedFuture(e);
        }
        if (pinnedEnd.get() == null) {
            double newest = history.newestTime();
            pinnedEnd.set(Double.isFinite(newest) ? newest : null);
        }
        updatePinned(); // the window's length may have changed just now: its listeners can run after this one
        double end = pinnedEnd.get() == null ? 0 : pinnedEnd.get();
        int minutes = windowMinutes.get();
        // The same inputs as the week computed ahead (ReplayInputs): the window's load, the forecasts' past, KEDA's.
        Double kedaLength = kedaListLength.errorProperty().get().isEmpty() ? listLength() : null;
        io.headroom.whatif.ReplayInputs inputs = io.headroom.whatif.ReplayInputs.of(history, week, end, minutes,
                current.timeZone(), kedaLength);
        LoadHistory h = inputs.load();
        running.set(true);
        progress.set(0);
        String replaying = "Replaying " + minutes(minutes) + (pinned.get().isEmpty() ? "" : ", " + pinned.get()) + "…";
        // What this replay replays: when its own exact figures are on screen already, none computed ahead replaces them.
        String replays = end + "/" + minutes + "/" + edited + "/" + kedaLength;
        var ahead = weekAhead == null || minutes != WEEK_MINUTES || !edited.equals(current) || kedaLength == null
                || replays.equals(exactShown) ? java.util.Optional.<io.headroom.whatif.WeekAhead.Entry>empty()
                : weekAhead.lookup(className, current, kedaLength);
        if (ahead.isPresent()) {
            // The live policy's week, computed in the background a little earlier: shown now, said as such, while
            // the exact replay to the pinned end runs; it replaces these figures when it finishes.
            var e = ahead.get();
            show(e.comparison(), current, edited);
            status.set("Week of " + className + " to " + clock(e.end()) + " (computed " + ago(weekAhead.age(e))
                    + " in the background" + held(e.comparison(), minutes) + "); replaying to " + clock(end) + "…");
            showingAhead = true;
        } else {
            if (showingAhead) {
                clearShown(); // figures computed ahead are the live policy's only: never left under another replay
            }
            status.set(replaying);
        }
        double[] reported = {0};
        Replay.Progress report = new Replay.Progress() {
            @Override
            public void done(double fraction) {
                if (fraction - reported[0] >= 0.02) { // a few dozen updates, not one per tick
                    reported[0] = fraction;
                    fx.execute(() -> {
                        if (mine == generation.get()) {
                            progress.set(fraction);
                        }
                    });
                }
            }

            @Override
            public boolean cancelled() {
                return mine != generation.get();
            }
        };
        CompletableFuture<Replay.Comparison> f = CompletableFuture.supplyAsync(
                () -> inputs.compare(current, edited, seed, report, runs), background);
        f.whenComplete((c, e) -> fx.execute(() -> {
            if (mine != generation.get()) {
                return; // an edit or a cancel came after this replay started
            }
            running.set(false);
            progress.set(-1);
            showingAhead = false;
            if (e != null) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                status.set("Not replayed: " + cause.getMessage());
                clearShown();
                return;
            }
            show(c, current, edited);
            exactShown = replays;
            replayAdmissionPlacement(h, end, minutes, mine);
            long shown = Math.round(c.seconds() / 60);
            // The week's history trails the day's by a minute or two: within 1 % the whole range was replayed.
            boolean whole = shown + Math.max(1, minutes / 100) >= minutes;
            status.set("Replayed " + minutes(whole ? minutes : shown) + " of " + className
                    + "'s load under both policies" + (c.baseline() != null ? ", " + c.baselineLabel() : "")
                    + (c.predictive() != null ? " and the live policy with predictive floors" : "")
                    + ", same arrivals"
                    + (!whole ? " (the history holds only " + minutes(shown) + " of the "
                    + minutes(minutes) + " asked)" : "")
                    + (c.caveats().isEmpty() ? "" : "; " + String.join("; ", c.caveats()))
                    + ". Nothing is applied: the live policy is unchanged.");
        }));
        return f;
    }

    /** Shows a replay's figures: rows, trade, the predictive sentence, objectives, and the charts' comparison. */
    private void show(Replay.Comparison c, Policy current, Policy edited) {
        rows.setAll(rows(c, current, edited));
        String t = ComparisonTable.trade(c, current, edited);
        trade.set(t == null ? "" : t);
        String pr = ComparisonTable.predictive(c, current);
        predictive.set(pr == null ? "" : pr);
        List<ObjectiveLine> lines = new java.util.ArrayList<>();
        if (current.maxAgeSeconds() != null) {
            lines.add(new ObjectiveLine(current.maxAgeSeconds(), "objective " + num(current.maxAgeSeconds()) + " s"));
        }
        if (edited.maxAgeSeconds() != null && !edited.maxAgeSeconds().equals(current.maxAgeSeconds())) {
            lines.add(new ObjectiveLine(edited.maxAgeSeconds(), "edited objective " + num(edited.maxAgeSeconds())
                    + " s"));
        }
        objectives.setAll(lines);
        comparison.set(c);
    }

    private void clearShown() {
        rows.clear();
        trade.set("");
        predictive.set("");
        comparison.set(null);
        objectives.clear();
        showingAhead = false;
        exactShown = null;
    }

    /** "15:40" in the window's zone. */
    private String clock(double epochSeconds) {
        return java.time.format.DateTimeFormatter.ofPattern("HH:mm", java.util.Locale.ROOT).withZone(zone)
                .format(java.time.Instant.ofEpochSecond((long) epochSeconds));
    }

    /** "just now", "1 min ago", "3 min ago". */
    static String ago(java.time.Duration d) {
        long m = d.toMinutes();
        return m < 1 ? "just now" : m + " min ago";
    }

    /** ", the history then held only 2 days" when the week computed ahead is shorter than the week; blank else. */
    private static String held(Replay.Comparison c, int minutes) {
        long shown = Math.round(c.seconds() / 60);
        return shown + Math.max(1, minutes / 100) >= minutes ? "" : ", the history then held only " + minutes(shown);
    }

    /** "30 min", "3 h", "24 h", "week", "3 days". */
    static String minutes(long m) {
        if (m == WEEK_MINUTES) {
            return "week";
        }
        if (m >= 2 * 1440) {
            return m % 1440 == 0 ? m / 1440 + " days"
                    : String.format(java.util.Locale.ROOT, "%.1f days", m / 1440.0);
        }
        return m >= 120 && m % 60 == 0 ? m / 60 + " h" : m + " min";
    }

    static List<Row> rows(Replay.Comparison c, Policy current, Policy edited) {
        return ComparisonTable.rows(c, current, edited).stream()
                .map(r -> new Row(r.what(), r.current(), r.edited(), r.change(), r.keda(), r.verdict(), r.predictive()))
                .toList();
    }

    static String num(double v) {
        return ComparisonTable.num(v);
    }
}
