package io.headroom.ui.whatif;

import io.headroom.baseline.Baselines;
import io.headroom.decision.Policy;
import io.headroom.whatif.ComparisonTable;
import io.headroom.whatif.LoadHistory;
import io.headroom.whatif.Replay;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.DoubleFunction;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The what-if panel of one class (DESIGN §6): policy fields the operator edits, and the replay of
 * the recent load under the current policy beside the edited one. Every edit replays again, off
 * the FX thread; a result that an edit has overtaken is dropped. Nothing is applied: the live
 * policy does not change.
 */
public final class WhatIfViewModel {

    /** One line of the comparison. */
    public record Row(String what, String current, String edited, String change, String keda) {
    }

    /**
     * One ceiling of the live policy and the operator's cap for it: blank keeps the live ceiling,
     * a number replaces it with a fixed replica limit of the same name.
     */
    public static final class CeilingEdit {
        private final io.headroom.decision.CeilingSpec live;
        private final StringProperty cap = new SimpleStringProperty("");

        CeilingEdit(io.headroom.decision.CeilingSpec live) {
            this.live = live;
        }

        public String name() {
            return live.name();
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

        public StringProperty capProperty() {
            return cap;
        }
    }

    private final String className;
    private final Policy current;
    private final DoubleFunction<LoadHistory> history;
    private final Executor background;
    private final Executor fx;
    private final long seed;
    private long generation;

    // Properties: the edits, prefilled from the live policy
    private final ObjectProperty<Double> targetUtilization = new SimpleObjectProperty<>();
    private final ObjectProperty<Integer> slotsPerReplica = new SimpleObjectProperty<>();
    private final ObjectProperty<Double> drainTargetSeconds = new SimpleObjectProperty<>();
    private final StringProperty maxAgeSeconds = new SimpleStringProperty("");
    private final ObjectProperty<Integer> minReplicas = new SimpleObjectProperty<>();
    private final ObjectProperty<Integer> maxReplicas = new SimpleObjectProperty<>();
    private final ObjectProperty<Integer> windowMinutes = new SimpleObjectProperty<>(30);
    private final ObjectProperty<Double> kedaListLength =
            new SimpleObjectProperty<>(ComparisonTable.DEFAULT_KEDA_LIST_LENGTH);
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty running = new SimpleBooleanProperty();
    private final ObservableList<Row> rows = FXCollections.observableArrayList();
    private final ObjectProperty<Replay.Comparison> comparison = new SimpleObjectProperty<>();
    private final List<CeilingEdit> ceilings;

    /**
     * @param history    the class's load over the last N seconds; called on the FX thread
     * @param background where replays run
     * @param fx         the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public WhatIfViewModel(String className, Policy current, DoubleFunction<LoadHistory> history, Executor background,
                           Executor fx, long seed) {
        this.className = className;
        this.current = current;
        this.history = history;
        this.background = background;
        this.fx = fx;
        this.seed = seed;
        this.ceilings = current.ceilings().stream().map(CeilingEdit::new).toList();
        reset();
    }

    public String className() { return className; }
    public Policy current() { return current; }
    public ObjectProperty<Double> targetUtilizationProperty() { return targetUtilization; }
    public ObjectProperty<Integer> slotsPerReplicaProperty() { return slotsPerReplica; }
    public ObjectProperty<Double> drainTargetSecondsProperty() { return drainTargetSeconds; }
    /** Seconds, or blank for no age objective. */
    public StringProperty maxAgeSecondsProperty() { return maxAgeSeconds; }
    public ObjectProperty<Integer> minReplicasProperty() { return minReplicas; }
    public ObjectProperty<Integer> maxReplicasProperty() { return maxReplicas; }
    public ObjectProperty<Integer> windowMinutesProperty() { return windowMinutes; }
    /** The listLength of the third run, KEDA's rule on the same load. */
    public ObjectProperty<Double> kedaListLengthProperty() { return kedaListLength; }
    /** What the last replay said, or why there is none. */
    public StringProperty statusProperty() { return status; }
    public BooleanProperty runningProperty() { return running; }
    public ObservableList<Row> rows() { return rows; }
    /** The live policy's ceilings, each with its edit. */
    public List<CeilingEdit> ceilings() { return ceilings; }
    /** The last replay shown (for the charts), null when there is none. */
    public ObjectProperty<Replay.Comparison> comparisonProperty() { return comparison; }

    /** Puts every field back to the live policy. */
    public void reset() {
        targetUtilization.set(current.targetUtilization());
        slotsPerReplica.set(current.slotsPerReplica());
        drainTargetSeconds.set(current.drainTargetSeconds());
        maxAgeSeconds.set(current.maxAgeSeconds() == null ? "" : num(current.maxAgeSeconds()));
        minReplicas.set(current.minReplicas());
        maxReplicas.set(current.maxReplicas());
        for (CeilingEdit c : ceilings) {
            c.cap.set("");
        }
    }

    /** The edited policy, or an exception naming the field that is wrong. */
    public Policy edited() {
        Double age;
        String a = maxAgeSeconds.get() == null ? "" : maxAgeSeconds.get().trim();
        try {
            age = a.isEmpty() ? null : Double.valueOf(a);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("age objective: \"" + a + "\" is not a number of seconds");
        }
        List<io.headroom.decision.CeilingSpec> caps = new java.util.ArrayList<>();
        for (CeilingEdit c : ceilings) {
            String v = c.cap.get() == null ? "" : c.cap.get().trim();
            if (v.isEmpty()) {
                caps.add(c.live);
                continue;
            }
            try {
                caps.add(io.headroom.decision.CeilingSpec.replicas(c.name(), Integer.parseInt(v)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("ceiling " + c.name() + ": \"" + v + "\" is not a whole number of"
                        + " replicas");
            }
        }
        return current.toBuilder().targetUtilization(targetUtilization.get()).slotsPerReplica(slotsPerReplica.get())
                .drainTargetSeconds(drainTargetSeconds.get()).maxAgeSeconds(age).minReplicas(minReplicas.get())
                .maxReplicas(maxReplicas.get()).ceilings(caps).build();
    }

    /**
     * The edited policy as a {@code policy:} block for the class's entry in the workloads file
     * (export: the operator pastes it in and reloads; nothing is applied from here), or null with the
     * status saying why.
     */
    public String editedYaml() {
        try {
            String yaml = io.headroom.config.PolicyWriter.toYaml(edited());
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
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(e.getMessage()));
        }
        if (save == null) {
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused("no workloads file"));
        }
        status.set("Saving the edited policy of " + className + " into " + saveTarget + "…");
        return save.apply(edited, reason).whenCompleteAsync((o, e) -> status.set(e != null
                ? "Not saved: " + e.getMessage() : o.ok() ? o.message() + ". Reloading the workloads file…"
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
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused(e.getMessage()));
        }
        if (commit == null) {
            return CompletableFuture.completedFuture(io.headroom.supervise.Outcome.refused("nothing to apply to"));
        }
        status.set("Applying the edited policy to " + className + "…");
        return commit.apply(edited, reason).whenCompleteAsync((o, e) -> status.set(e != null
                ? "Not applied: " + e.getMessage() : o.ok() ? o.message()
                + ". It lasts until reverted (the class's POLICY EDITED chip) or the workloads file is read again."
                : "Not applied: " + o.message()), fx);
    }

    /** Replays the window under both policies (FX thread; the work itself runs in the background). */
    public CompletableFuture<Replay.Comparison> replay() {
        long mine = ++generation;
        Policy edited;
        try {
            edited = edited();
        } catch (IllegalArgumentException e) {
            status.set("Not replayed: " + e.getMessage());
            rows.clear();
            comparison.set(null);
            return CompletableFuture.failedFuture(e);
        }
        LoadHistory h = history.apply(windowMinutes.get() * 60.0);
        running.set(true);
        status.set("Replaying the last " + windowMinutes.get() + " min…");
        Double listLength = kedaListLength.get();
        Baselines.Named keda = ComparisonTable.keda(listLength);
        CompletableFuture<Replay.Comparison> f = CompletableFuture.supplyAsync(
                () -> Replay.compare(h, current, edited, seed, keda), background);
        f.whenComplete((c, e) -> fx.execute(() -> {
            if (mine != generation) {
                return; // an edit came after this replay started
            }
            running.set(false);
            if (e != null) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                status.set("Not replayed: " + cause.getMessage());
                rows.clear();
                comparison.set(null);
                return;
            }
            rows.setAll(rows(c, current, edited));
            comparison.set(c);
            status.set("Replayed " + Math.round(c.seconds() / 60) + " min of " + className
                    + "'s load under both policies" + (c.baseline() != null ? " and " + c.baselineLabel() : "")
                    + ", same arrivals"
                    + (c.caveats().isEmpty() ? "" : "; " + String.join("; ", c.caveats()))
                    + ". Nothing is applied: the live policy is unchanged.");
        }));
        return f;
    }

    static List<Row> rows(Replay.Comparison c, Policy current, Policy edited) {
        return ComparisonTable.rows(c, current, edited).stream()
                .map(r -> new Row(r.what(), r.current(), r.edited(), r.change(), r.keda())).toList();
    }

    static String num(double v) {
        return ComparisonTable.num(v);
    }
}
