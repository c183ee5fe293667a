package io.headroom.ui.supervise;

import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.ReplicaOverride;
import io.headroom.supervise.SupervisionState;
import io.headroom.supervise.Supervisor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.IntegerProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleIntegerProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * Supervised mode for the UI: the proposals inbox, the freeze state and the operator's
 * commands. Commands go to the {@link Supervisor} (which runs them on the loop's thread) and
 * their outcome comes back as a status line. FX thread only; holds no nodes.
 */
public final class SupervisionViewModel {
    static final DateTimeFormatter HHMM = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneId.systemDefault());

    // Properties
    private final ObservableList<ProposalRow> proposals = FXCollections.observableArrayList();
    private final ObjectProperty<ProposalRow> selected = new SimpleObjectProperty<>();
    private final IntegerProperty pendingCount = new SimpleIntegerProperty();
    private final BooleanProperty frozenAll = new SimpleBooleanProperty();
    private final StringProperty freezeText = new SimpleStringProperty("");
    private final StringProperty status = new SimpleStringProperty("");
    private final BooleanProperty statusOk = new SimpleBooleanProperty(true);
    private final StringProperty undoLabel = new SimpleStringProperty("");
    private final ObjectProperty<SupervisionState> state = new SimpleObjectProperty<>();
    private final StringProperty journalProblem = new SimpleStringProperty("");
    private final StringProperty journalDetail = new SimpleStringProperty("");
    private final BooleanProperty journalFailed = new SimpleBooleanProperty();

    private final java.util.Map<String, io.headroom.cluster.ActionCheck> access = new java.util.HashMap<>();
    private final Supervisor supervisor;
    private final Clock clock;
    private final java.util.concurrent.Executor fx;
    private final Set<String> seen = new HashSet<>();
    private Consumer<List<ProposalRow>> onNewProposals = rows -> { };
    private Supplier<CompletableFuture<Outcome>> undo;

    /**
     * @param clock the session's clock (ages, countdowns, undo's remaining time)
     * @param fx    the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public SupervisionViewModel(Supervisor supervisor, Clock clock, java.util.concurrent.Executor fx) {
        this.supervisor = supervisor;
        this.clock = clock;
        this.fx = fx;
    }

    public ObservableList<ProposalRow> proposals() { return proposals; }
    public ObjectProperty<ProposalRow> selectedProperty() { return selected; }
    public IntegerProperty pendingCountProperty() { return pendingCount; }
    public BooleanProperty frozenAllProperty() { return frozenAll; }
    /** "FROZEN until 14:05 — incident 4711 (alice)" or empty. */
    public StringProperty freezeTextProperty() { return freezeText; }
    public StringProperty statusProperty() { return status; }
    public BooleanProperty statusOkProperty() { return statusOk; }
    /** What Ctrl+Z would undo, or empty. */
    public StringProperty undoLabelProperty() { return undoLabel; }
    public ObjectProperty<SupervisionState> stateProperty() { return state; }
    /**
     * The journal's trouble, for a banner: why it cannot be written (nothing is acted on meanwhile),
     * or what could not be trusted when it was read back; empty when none.
     */
    public StringProperty journalProblemProperty() { return journalProblem; }
    /** Every warning, one per line, for the banner's tooltip. */
    public StringProperty journalDetailProperty() { return journalDetail; }
    /** True when the journal cannot be written: the banner is an error, not a warning. */
    public BooleanProperty journalFailedProperty() { return journalFailed; }

    /** Called with proposals that appeared since the last update (for desktop notifications). */
    public void setOnNewProposals(Consumer<List<ProposalRow>> handler) {
        this.onNewProposals = handler;
    }

    public Instant now() {
        return clock.instant();
    }

    /** Applies the newest supervision snapshot. */
    public void apply(SupervisionState s) {
        state.set(s);
        applyJournal(s);
        String keep = selected.get() == null ? null : selected.get().id();
        List<ProposalRow> rows = s.pending().stream().map(ProposalRow::of).toList();
        if (!rows.equals(proposals)) {
            proposals.setAll(rows);
        }
        ProposalRow again = rows.stream().filter(r -> r.id().equals(keep)).findFirst()
                .orElse(rows.isEmpty() ? null : rows.get(0));
        selected.set(again);
        pendingCount.set(rows.size());
        List<ProposalRow> fresh = rows.stream().filter(r -> seen.add(r.id())).toList();
        if (!fresh.isEmpty()) {
            onNewProposals.accept(fresh);
        }
        Freeze f = s.freezeAll();
        frozenAll.set(f != null);
        long classFreezes = s.classes().values().stream().filter(c -> c.freeze() != null).count();
        freezeText.set(f != null ? "FROZEN until " + HHMM.format(f.until()) + " — " + f.reason() + " (" + f.by() + ")"
                : classFreezes > 0 ? classFreezes + (classFreezes == 1 ? " class" : " classes") + " frozen" : "");
    }

    private void applyJournal(SupervisionState s) {
        int n = s.warnings().size();
        journalFailed.set(s.journalFailure() != null);
        if (s.journalFailure() != null) {
            journalProblem.set("The journal cannot be written: nothing is scaled, proposed or changed until it can"
                    + " (" + s.journalFailure() + ")");
        } else if (n > 0) {
            journalProblem.set("Journal read back with " + (n == 1 ? "a warning" : n + " warnings") + ": "
                    + s.warnings().get(0) + (n > 1 ? " (and " + (n - 1) + " more)" : ""));
        } else {
            journalProblem.set("");
        }
        List<String> lines = new java.util.ArrayList<>();
        if (s.journalFailure() != null) {
            lines.add(s.journalFailure());
        }
        lines.addAll(s.warnings());
        journalDetail.set(String.join("\n", lines));
    }

    /** Whether this console may scale each class now (lease, RBAC, another autoscaler). */
    public void applyAccess(java.util.Map<String, io.headroom.cluster.ActionCheck> latest) {
        access.clear();
        access.putAll(latest);
    }

    /** Why {@code className} cannot be scaled from here, or null when it can. */
    public String blockedReason(String className) {
        io.headroom.cluster.ActionCheck c = access.get(className);
        return c == null || c.allowed() ? null : c.reason();
    }

    public ClassSupervision of(String className) {
        SupervisionState s = state.get();
        return s == null ? null : s.of(className);
    }

    // Commands

    public CompletableFuture<Outcome> approve(ProposalRow p) {
        return report(supervisor.approve(p.id()));
    }

    public CompletableFuture<Outcome> approveWith(ProposalRow p, int replicas, String reason) {
        return report(supervisor.approveWith(p.id(), replicas, reason));
    }

    public CompletableFuture<Outcome> dryRun(ProposalRow p) {
        return report(supervisor.dryRun(p.id()));
    }

    public CompletableFuture<Outcome> reject(ProposalRow p, String reason) {
        return report(supervisor.reject(p.id(), reason));
    }

    public CompletableFuture<Outcome> freezeAll(Duration ttl, String reason) {
        undo = () -> supervisor.unfreeze(null, "undo");
        undoLabel.set("Undo: freeze all");
        return report(supervisor.freeze(null, ttl, reason));
    }

    public CompletableFuture<Outcome> unfreezeAll(String reason) {
        Freeze was = state.get() == null ? null : state.get().freezeAll();
        if (was != null) {
            Duration left = Duration.between(clock.instant(), was.until());
            undo = () -> supervisor.freeze(null, left, was.reason());
            undoLabel.set("Undo: unfreeze all");
        }
        return report(supervisor.unfreeze(null, reason));
    }

    public CompletableFuture<Outcome> freeze(String className, Duration ttl, String reason) {
        undo = () -> supervisor.unfreeze(className, "undo");
        undoLabel.set("Undo: freeze " + className);
        return report(supervisor.freeze(className, ttl, reason));
    }

    public CompletableFuture<Outcome> unfreeze(String className, String reason) {
        ClassSupervision c = of(className);
        if (c != null && c.freeze() != null) {
            Freeze was = c.freeze();
            undo = () -> supervisor.freeze(className, Duration.between(clock.instant(), was.until()), was.reason());
            undoLabel.set("Undo: unfreeze " + className);
        }
        return report(supervisor.unfreeze(className, reason));
    }

    public CompletableFuture<Outcome> setOverride(String className, int replicas, Duration ttl, String reason) {
        ClassSupervision c = of(className);
        ReplicaOverride previous = c == null ? null : c.override();
        undo = previous == null ? () -> supervisor.clearOverride(className, "undo")
                : () -> supervisor.setOverride(className, previous.replicas(), previous.until(), previous.reason());
        undoLabel.set("Undo: override of " + className);
        return report(supervisor.setOverride(className, replicas, clock.instant().plus(ttl), reason));
    }

    public CompletableFuture<Outcome> clearOverride(String className, String reason) {
        ClassSupervision c = of(className);
        if (c != null && c.override() != null) {
            ReplicaOverride was = c.override();
            undo = () -> supervisor.setOverride(className, was.replicas(), was.until(), was.reason());
            undoLabel.set("Undo: clear override of " + className);
        }
        return report(supervisor.clearOverride(className, reason));
    }

    public CompletableFuture<Outcome> startDrain(String className, int to, Duration deadline, String reason) {
        return report(supervisor.startDrain(className, to, deadline, reason));
    }

    public CompletableFuture<Outcome> cancelDrain(String className, String reason) {
        return report(supervisor.cancelDrain(className, reason));
    }

    public CompletableFuture<Outcome> setMode(String className, Mode mode) {
        return report(supervisor.setMode(className, mode));
    }

    /** Undoes the last freeze or override change, once. */
    public CompletableFuture<Outcome> undo() {
        if (undo == null) {
            return CompletableFuture.completedFuture(Outcome.refused("nothing to undo"));
        }
        Supplier<CompletableFuture<Outcome>> u = undo;
        undo = null;
        undoLabel.set("");
        return report(u.get());
    }

    /** Outcomes arrive on the loop's thread; the status line is set on the FX thread. */
    private CompletableFuture<Outcome> report(CompletableFuture<Outcome> f) {
        return f.whenComplete((o, e) -> fx.execute(() -> {
            if (e != null) {
                statusOk.set(false);
                status.set("failed: " + e.getMessage());
            } else {
                statusOk.set(o.ok());
                status.set(o.message());
            }
        }));
    }

    /** "4m 10s left", for the inbox. */
    public String expiresIn(ProposalRow p) {
        long s = Math.max(0, Duration.between(clock.instant(), p.expiresAt()).toSeconds());
        return s >= 60 ? (s / 60) + "m " + (s % 60) + "s left" : s + " s left";
    }

    public String age(ProposalRow p) {
        long s = Math.max(0, Duration.between(p.createdAt(), clock.instant()).toSeconds());
        return s >= 60 ? (s / 60) + "m " + (s % 60) + "s ago" : s + " s ago";
    }
}
