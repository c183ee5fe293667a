package io.headroom.ui.supervise;

import io.headroom.decision.ForecastMode;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Outcome;
import io.headroom.supervise.ReplicaOverride;
import io.headroom.supervise.SupervisionState;
import io.headroom.supervise.Supervisor;
import io.headroom.ui.AttentionHold;
import io.headroom.ui.Format;
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
    /** The pending proposals in class order, as the latest snapshot has them (the cards may be held apart). */
    private List<ProposalRow> live = List.of();
    /** Proposals added below the held cards since the hold began. */
    private final Set<String> arrived = new HashSet<>();
    private final AttentionHold hold = new AttentionHold(Clock.systemUTC(), this::release);
    private final StringProperty heldNote = new SimpleStringProperty("");
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
    private java.util.function.Function<String, ForecastMode> forecastModes = name -> null;
    private java.util.function.BiFunction<String, ForecastMode, CompletableFuture<Outcome>> setForecastMode =
            (name, m) -> CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.INVALID,
                    "forecast modes cannot be changed in this console"));
    private Consumer<List<ProposalRow>> onNewProposals = rows -> { };
    /** Newest first. */
    private final java.util.Deque<UndoStep> undos = new java.util.ArrayDeque<>();
    private final ObservableList<String> undoable = FXCollections.observableArrayList();
    /** How many actions Ctrl+Z can take back, newest first. */
    static final int UNDO_LEVELS = 20;

    /**
     * @param clock the session's clock (ages, countdowns, undo's remaining time)
     * @param fx    the FX thread's executor ({@code FxExecutor} in the console, {@code Runnable::run} in tests)
     */
    public SupervisionViewModel(Supervisor supervisor, Clock clock, java.util.concurrent.Executor fx) {
        this.supervisor = supervisor;
        this.clock = clock;
        this.fx = fx;
    }

    /**
     * The inbox's cards: the pending proposals, and while the operator's attention holds the cards, the ones that
     * went since (greyed, {@link ProposalRow#pending()} false). {@link #current} and {@link #proposalOf} read only
     * the pending ones.
     */
    public ObservableList<ProposalRow> proposals() { return proposals; }
    /** The pending proposals in class order, as the latest snapshot has them, whatever the cards show. */
    public List<ProposalRow> pending() { return live; }
    /** The hold on the cards' order, for the inbox to feed ({@link io.headroom.ui.fx.AttentionArea}). */
    public AttentionHold attention() { return hold; }
    /** Times the operator's touches of the inbox on {@code clock} from now on (a test's manual clock). */
    public void setAttentionClock(Clock clock) { hold.setClock(clock); }
    /** "held while you work: 1 gone, 2 new below" while the cards are held apart from class order; empty otherwise. */
    public StringProperty heldNoteProperty() { return heldNote; }
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

    /**
     * Applies the newest supervision snapshot. The inbox shows one card per pending proposal, in the
     * workloads file's class order, except while the operator's attention is on it ({@link #attention()}):
     * then no card moves. A proposal that went keeps its card, greyed and saying what became of it
     * ({@link ProposalRow#gone()}); a new one is added below the others; the class order comes back once
     * nothing holds it.
     */
    public void apply(SupervisionState s) {
        state.set(s);
        applyJournal(s);
        String keep = selected.get() == null ? null : selected.get().id();
        List<ProposalRow> rows = s.pending().stream().map(ProposalRow::of).toList();
        live = rows;
        if (hold.held()) {
            showHeld(rows);
        } else {
            show(rows);
        }
        ProposalRow again = proposals.stream().filter(r -> r.id().equals(keep)).findFirst()
                .orElse(proposals.stream().filter(ProposalRow::pending).findFirst().orElse(null));
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

    /** The cards in class order, one per pending proposal: what the inbox shows when nothing holds it. */
    private void show(List<ProposalRow> rows) {
        heldNote.set("");
        hold.setWaiting(false);
        if (rows.equals(proposals)) {
            return;
        }
        boolean sameCards = rows.size() == proposals.size();
        for (int i = 0; sameCards && i < rows.size(); i++) {
            sameCards = rows.get(i).id().equals(proposals.get(i).id());
        }
        if (sameCards) {
            // The same proposals with new figures (an expiry, an explanation): each card is updated where it
            // is, not the list replaced, so the cards are not drawn anew under the operator's keyboard focus.
            for (int i = 0; i < rows.size(); i++) {
                if (!rows.get(i).equals(proposals.get(i))) {
                    proposals.set(i, rows.get(i));
                }
            }
        } else {
            proposals.setAll(rows);
        }
    }

    /**
     * The cards where they are, under the operator's attention: each updated in place (new figures, or gone and
     * saying what became of it), the new ones added below; the class order waits.
     */
    private void showHeld(List<ProposalRow> rows) {
        List<ProposalRow> held = AttentionHold.keptInPlace(proposals, rows, ProposalRow::id,
                r -> r.pending() ? r.goneAs(whatBecameOf(r)) : r);
        // Each card updated where it is (not the list replaced, so no card is drawn anew under the focus), the new
        // ones added below.
        for (int i = 0; i < proposals.size(); i++) {
            if (!held.get(i).equals(proposals.get(i))) {
                proposals.set(i, held.get(i));
            }
        }
        List<ProposalRow> below = held.subList(proposals.size(), held.size());
        below.forEach(r -> arrived.add(r.id()));
        proposals.addAll(List.copyOf(below));
        boolean inOrder = proposals.stream().map(ProposalRow::id).toList().equals(rows.stream().map(ProposalRow::id)
                .toList());
        hold.setWaiting(!inOrder);
        if (inOrder) {
            arrived.clear(); // the new ones came where the class order has them: nothing to say
        }
        long gone = proposals.stream().filter(r -> !r.pending()).count();
        long added = proposals.stream().filter(r -> r.pending() && arrived.contains(r.id())).count();
        List<String> words = new java.util.ArrayList<>();
        if (gone > 0) {
            words.add(gone + " gone");
        }
        if (added > 0) {
            words.add(added + " new below");
        }
        heldNote.set(words.isEmpty() ? "" : "held while you work: " + String.join(", ", words));
    }

    /** The inbox in class order again, once the operator's attention has left it. */
    private void release() {
        arrived.clear();
        show(live);
        String sel = selected.get() == null ? null : selected.get().id();
        selected.set(proposals.stream().filter(r -> r.id().equals(sel)).findFirst()
                .orElse(proposals.isEmpty() ? null : proposals.get(0)));
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

    /** The global freeze, or null. */
    public Freeze globalFreeze() {
        SupervisionState s = state.get();
        return s == null ? null : s.freezeAll();
    }

    public ClassSupervision of(String className) {
        SupervisionState s = state.get();
        return s == null ? null : s.of(className);
    }

    // Commands

    /** The pending proposal of {@code className} (the class the operator has in view), or null. */
    public ProposalRow proposalOf(String className) {
        if (className == null) {
            return null;
        }
        return live.stream().filter(r -> r.className().equals(className)).findFirst().orElse(null);
    }

    /** The same proposal as it is now (same id), or null once it is no longer pending. */
    public ProposalRow current(ProposalRow p) {
        return p == null ? null : live.stream().filter(r -> r.id().equals(p.id())).findFirst().orElse(null);
    }

    /** Nothing waits for {@code className}: said in words, nothing is done. */
    public void nothingToActOn(String verb, String className) {
        statusOk.set(false);
        status.set(className == null ? "No class in view: nothing " + verb
                : "No proposal is waiting for " + className + ": nothing " + verb);
    }

    public CompletableFuture<Outcome> approve(ProposalRow p) {
        if (p.forecast()) {
            String floor = floor(p, p.to());
            return run(supervisor.approve(p.id()), "Approved the forecast floor of " + floor, "Not approved: "
                    + "the forecast floor of " + floor, p, new UndoStep(p.className(), "forecast floor of " + floor,
                    () -> supervisor.cancelFloor(p.className(), "undo of the approval")));
        }
        String change = change(p.className(), p.from(), p.to());
        return run(supervisor.approve(p.id()), "Approved " + change, "Not approved: " + change, p,
                new UndoStep(p.className(), "approval of " + change,
                        () -> supervisor.revert(p.className(), p.from(), p.to(), "undo of approval " + p.from()
                                + " → " + p.to())));
    }

    public CompletableFuture<Outcome> approveWith(ProposalRow p, int replicas, String reason) {
        if (p.forecast()) {
            String floor = floor(p, replicas);
            return run(supervisor.approveWith(p.id(), replicas, reason), "Approved the forecast floor of " + floor
                    + " (instead of " + p.to() + ")", "Not approved: the forecast floor of " + floor, p,
                    new UndoStep(p.className(), "forecast floor of " + floor,
                            () -> supervisor.cancelFloor(p.className(), "undo of the approval")));
        }
        String change = change(p.className(), p.from(), replicas);
        return run(supervisor.approveWith(p.id(), replicas, reason), "Approved " + change + " (instead of "
                + p.to() + ")", "Not approved: " + change, p, new UndoStep(p.className(), "approval of " + change,
                () -> supervisor.revert(p.className(), p.from(), replicas, "undo of approval " + p.from() + " → "
                        + replicas)));
    }

    /**
     * How {@code total} would split across the pools of the proposal's class (decision 0029), completed on the FX
     * thread: "12: spot 8, on-demand 4", what does not fit said as such; null for a class with one pool. Read on
     * the loop's thread (the pools are re-read), never this one.
     */
    public CompletableFuture<String> split(ProposalRow p, int total) {
        CompletableFuture<String> out = new CompletableFuture<>();
        supervisor.split(p.id(), total).whenComplete((s, e) -> fx.execute(() -> out.complete(
                e != null ? "not split: " + io.headroom.ErrorWords.of(e) : s == null ? null : s.words())));
        return out;
    }

    public CompletableFuture<Outcome> dryRun(ProposalRow p) {
        return run(supervisor.dryRun(p.id()), null, "Dry run of " + change(p.className(), p.from(), p.to()), p,
                null);
    }

    public CompletableFuture<Outcome> reject(ProposalRow p, String reason) {
        String change = p.forecast() ? "the forecast floor of " + floor(p, p.to())
                : change(p.className(), p.from(), p.to());
        // The reason the operator typed shows in the event list and the strip, as the journal keeps it.
        String said = reason == null || reason.isBlank() || reason.equals(OperatorActions.NO_REASON) ? ""
                : " (" + reason + ")";
        return run(supervisor.reject(p.id(), reason), "Rejected " + change + said, "Not rejected: " + change, p,
                p.forecast() ? null : new UndoStep(p.className(), "rejection of " + change,
                        () -> supervisor.unreject(p.className(), p.from(), p.to())));
    }

    /**
     * Takes away the forecast floor a class holds ("cancel floor", from the class controls, the banner or the
     * palette); journaled. Its rise is not proposed again.
     */
    public CompletableFuture<Outcome> cancelFloor(String className) {
        return run(supervisor.cancelFloor(className, "cancelled by the operator"), "Cancelled the forecast floor of "
                + className, "Forecast floor of " + className + " not cancelled", null, null);
    }

    public CompletableFuture<Outcome> freezeAll(Duration ttl, String reason) {
        return run(supervisor.freeze(null, ttl, reason), "Froze every class for " + Format.duration(ttl.toSeconds()),
                "Not frozen", null, new UndoStep(null, "freeze of every class",
                        () -> supervisor.unfreeze(null, "undo")));
    }

    public CompletableFuture<Outcome> unfreezeAll(String reason) {
        Freeze was = state.get() == null ? null : state.get().freezeAll();
        UndoStep undo = was == null ? null : new UndoStep(null, "lifting of the global freeze",
                () -> supervisor.freeze(null, positive(Duration.between(clock.instant(), was.until())), was.reason()));
        return run(supervisor.unfreeze(null, reason), "Lifted the global freeze", "Global freeze not lifted", null,
                undo);
    }

    public CompletableFuture<Outcome> freeze(String className, Duration ttl, String reason) {
        return run(supervisor.freeze(className, ttl, reason), "Froze " + className + " for " + Format.duration(ttl.toSeconds()),
                className + " not frozen", null, new UndoStep(className, "freeze of " + className,
                        () -> supervisor.unfreeze(className, "undo")));
    }

    public CompletableFuture<Outcome> unfreeze(String className, String reason) {
        ClassSupervision c = of(className);
        UndoStep undo = null;
        if (c != null && c.freeze() != null) {
            Freeze was = c.freeze();
            undo = new UndoStep(className, "lifting of the freeze of " + className, () -> supervisor.freeze(className,
                    positive(Duration.between(clock.instant(), was.until())), was.reason()));
        }
        return run(supervisor.unfreeze(className, reason), "Lifted the freeze of " + className,
                "Freeze of " + className + " not lifted", null, undo);
    }

    public CompletableFuture<Outcome> setOverride(String className, int replicas, Duration ttl, String reason) {
        ClassSupervision c = of(className);
        ReplicaOverride previous = c == null ? null : c.override();
        UndoStep undo = new UndoStep(className, "override of " + className + " to " + replicas,
                previous == null ? () -> supervisor.clearOverride(className, "undo")
                        : () -> supervisor.setOverride(className, previous.replicas(), previous.until(),
                        previous.reason()));
        return run(supervisor.setOverride(className, replicas, clock.instant().plus(ttl), reason),
                "Pinned " + className + " to " + replicas + " for " + Format.duration(ttl.toSeconds()),
                className + " not pinned", null, undo);
    }

    public CompletableFuture<Outcome> clearOverride(String className, String reason) {
        ClassSupervision c = of(className);
        UndoStep undo = null;
        if (c != null && c.override() != null) {
            ReplicaOverride was = c.override();
            undo = new UndoStep(className, "clearing of the override of " + className,
                    () -> supervisor.setOverride(className, was.replicas(), was.until(), was.reason()));
        }
        return run(supervisor.clearOverride(className, reason), "Cleared the override of " + className,
                "Override of " + className + " not cleared", null, undo);
    }

    public CompletableFuture<Outcome> startDrain(String className, int to, Duration deadline, String reason) {
        return run(supervisor.startDrain(className, to, deadline, reason), "Started draining " + className + " to "
                + to, "Drain of " + className + " not started", null, new UndoStep(className, "drain of " + className
                + " to " + to, () -> supervisor.cancelDrain(className, "undo")));
    }

    /** Drains one pod of a class (the pod panel): the supervised drain path, journaled, undone by cancelling. */
    public CompletableFuture<Outcome> startPodDrain(String className, String pod, Duration deadline, String reason) {
        return run(supervisor.startPodDrain(className, pod, deadline, reason), "Started draining pod " + pod + " of "
                + className, "Drain of pod " + pod + " not started", null, new UndoStep(className, "drain of pod " + pod,
                () -> supervisor.cancelDrain(className, "undo")));
    }

    /**
     * Replaces a STUCK pod (the pod panel): one more replica, then the hung pod evicted without waiting for its
     * jobs; journaled, undone by cancelling (until the eviction is accepted).
     */
    public CompletableFuture<Outcome> startReplaceDrain(String className, String pod, Duration deadline,
                                                        String reason) {
        return run(supervisor.startReplaceDrain(className, pod, deadline, reason), "Replacing pod " + pod + " of "
                + className, "Replacement of pod " + pod + " not started", null, new UndoStep(className,
                "replacement of pod " + pod, () -> supervisor.cancelDrain(className, "undo")));
    }

    public CompletableFuture<Outcome> cancelDrain(String className, String reason) {
        return run(supervisor.cancelDrain(className, reason), "Cancelled the drain of " + className,
                "Drain of " + className + " not cancelled", null, null);
    }

    public CompletableFuture<Outcome> setMode(String className, Mode mode) {
        ClassSupervision c = of(className);
        Mode was = c == null ? null : c.mode();
        String name = mode.name().toLowerCase(java.util.Locale.ROOT);
        return run(supervisor.setMode(className, mode), className + " is now in " + name + " mode",
                className + " stays in its mode", null, was == null || was == mode ? null
                        : new UndoStep(className, "switch of " + className + " to " + name,
                        () -> supervisor.setMode(className, was)));
    }

    /**
     * Where each class's forecast mode is read and set (issue 29): the live policy, changed through the session's
     * policy edits (journaled as a policy edit, revertable, saved with the workloads file).
     */
    public void setForecastModes(java.util.function.Function<String, ForecastMode> current,
                                 java.util.function.BiFunction<String, ForecastMode, CompletableFuture<Outcome>> set) {
        this.forecastModes = current;
        this.setForecastMode = set;
    }

    /** The class's forecast mode now, or null when it is not known here. */
    public ForecastMode forecastMode(String className) {
        return className == null ? null : forecastModes.apply(className);
    }

    /** Sets the class's forecast mode; Ctrl+Z sets the one before (both journaled). */
    public CompletableFuture<Outcome> setForecastMode(String className, ForecastMode mode) {
        ForecastMode was = forecastMode(className);
        return run(setForecastMode.apply(className, mode), className + ": forecast mode is now " + mode.word(),
                className + ": forecast mode stays " + (was == null ? "as it was" : was.word()), null,
                was == null || was == mode ? null : new UndoStep(className, "forecast mode " + mode.word() + " of "
                        + className, () -> setForecastMode.apply(className, was)));
    }

    /** What Ctrl+Z would undo, newest first (several levels). */
    public ObservableList<String> undoable() {
        return undoable;
    }

    /** Undoes the newest undoable action; journaled as an undo and posted to the team timeline. */
    public CompletableFuture<Outcome> undo() {
        UndoStep u = undos.pollFirst();
        refreshUndo();
        if (u == null) {
            statusOk.set(false);
            status.set("Nothing to undo");
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.NOT_FOUND, "nothing to undo"));
        }
        return runUndo(u);
    }

    /** How the newest undo is recorded, for Ctrl+Z's question. */
    public String newestUndoNote() {
        UndoStep u = undos.peekFirst();
        return u == null || u.note() == null ? "This is journaled as an undo and posted to the team timeline." : u.note();
    }

    private CompletableFuture<Outcome> runUndo(UndoStep u) {
        // A step the console offers itself (a saved file's revert) journals as its own kind: not the supervisor's undo.
        return run(u.note() != null ? u.inverse().get() : supervisor.undo(u.className(), u.what(), u.inverse()),
                "Undid the " + u.what(), "Could not undo the " + u.what(), null, null);
    }

    /**
     * Offers Ctrl+Z a change made outside the supervisor (a what-if edit saved into the workloads file):
     * {@code inverse} takes it back and journals that itself, as {@code note} tells the operator. Newest first,
     * as every undo.
     */
    public void offerUndo(String what, String note, Supplier<CompletableFuture<Outcome>> inverse) {
        undos.addFirst(new UndoStep(null, what, inverse, note));
        while (undos.size() > UNDO_LEVELS) {
            undos.removeLast();
        }
        refreshUndo();
    }

    /** Undoes the step {@code what} now, wherever it is in the stack (its own Revert button); refused when gone. */
    public CompletableFuture<Outcome> undo(String what) {
        UndoStep u = undos.stream().filter(x -> x.what().equals(what)).findFirst().orElse(null);
        if (u == null) {
            statusOk.set(false);
            status.set("Nothing to undo: the " + what + " was already taken back");
            return CompletableFuture.completedFuture(Outcome.refused(Outcome.Why.NOT_FOUND, "nothing to undo"));
        }
        undos.remove(u);
        refreshUndo();
        return runUndo(u);
    }

    /**
     * One level of undo: what it takes back, in words, and the command that does it.
     *
     * @param note null for the supervisor's (journaled through {@link Supervisor#undo}); else how the inverse,
     *             which journals itself, is recorded
     */
    private record UndoStep(String className, String what, Supplier<CompletableFuture<Outcome>> inverse,
                            String note) {
        UndoStep(String className, String what, Supplier<CompletableFuture<Outcome>> inverse) {
            this(className, what, inverse, null);
        }
    }

    private static Duration positive(Duration d) {
        return d.isNegative() || d.isZero() ? Duration.ofMinutes(1) : d;
    }

    /** "checkout: hold 16 replicas from 08:52 until 09:15". */
    private static String floor(ProposalRow p, int replicas) {
        return p.className() + ": hold " + replicas + " replicas from " + HHMM.format(p.floorFrom()) + " until "
                + HHMM.format(p.floorUntil());
    }

    private static String change(String className, int from, int to) {
        return className + " " + from + " → " + to;
    }

    /**
     * Outcomes arrive on the loop's thread; the echo (what was done, in words) is set on the FX
     * thread, and an action that went through can be undone.
     *
     * @param did     what the echo says when it went through (null: the supervisor's own words)
     * @param failed  what it says, before the reason, when refused
     * @param on      the proposal acted on, to say in words what became of it when it is gone
     */
    private CompletableFuture<Outcome> run(CompletableFuture<Outcome> f, String did, String failed, ProposalRow on,
                                           UndoStep undo) {
        return f.whenComplete((o, e) -> fx.execute(() -> {
            if (e != null) {
                statusOk.set(false);
                status.set(failed + ": " + io.headroom.ErrorWords.of(e)); // a CompletionException's text names classes
                return;
            }
            statusOk.set(o.ok());
            if (o.ok()) {
                if (undo != null) {
                    undos.addFirst(undo);
                    while (undos.size() > UNDO_LEVELS) {
                        undos.removeLast();
                    }
                    refreshUndo();
                }
                status.set((did == null ? o.message() : did) + (undo != null ? " · Ctrl+Z undoes" : ""));
            } else {
                status.set(failed + ": " + (on != null ? gone(on, o.message()) : o.message()));
            }
        }));
    }

    /** A refusal about a proposal that is no longer pending, in words: what became of it, no ids. */
    private String gone(ProposalRow p, String message) {
        if (!message.contains(p.id())) {
            return message;
        }
        return "the proposal is no longer waiting (" + whatBecameOf(p) + ")";
    }

    /** What the supervisor last did to the proposal's class: withdrawn, revised, expired, decided. */
    public String whatBecameOf(ProposalRow p) {
        SupervisionState latest = supervisor != null ? supervisor.state() : state.get();
        ClassSupervision c = latest == null ? null : latest.of(p.className());
        if (c != null && c.proposal() != null && c.proposal().id().equals(p.id())) {
            return "revised to " + c.proposal().from() + " → " + c.proposal().to();
        }
        if (c != null && c.lastAction() != null) {
            return c.lastAction().text();
        }
        return "expired, or decided in another console";
    }

    private void refreshUndo() {
        undoable.setAll(undos.stream().map(UndoStep::what).toList());
        undoLabel.set(undos.isEmpty() ? "" : "Undo: " + undos.peekFirst().what());
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
