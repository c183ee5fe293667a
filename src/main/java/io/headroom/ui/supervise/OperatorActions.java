package io.headroom.ui.supervise;

import io.headroom.decision.Decision;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Mode;
import java.util.function.Supplier;
import javafx.stage.Window;

/**
 * The operator's flows: each asks what it must (a reason, a value, a confirmation where the
 * action is dangerous) and hands the command to the view model. Shared by the inbox, the top
 * bar, the class detail and the keyboard shortcuts, so every path asks the same questions.
 */
public final class OperatorActions {
    private final SupervisionViewModel vm;
    private final Supplier<Window> owner;
    private java.util.function.Function<String, Decision> decisions = name -> null;

    public OperatorActions(SupervisionViewModel vm, Supplier<Window> owner) {
        this.vm = vm;
        this.owner = owner;
    }

    /** Where the latest decision of a class is read (ceilings, guard, desired), to warn before acting. */
    public void setDecisions(java.util.function.Function<String, Decision> latest) {
        this.decisions = latest;
    }

    public SupervisionViewModel viewModel() {
        return vm;
    }

    /** Approve; a large scale-down asks first. */
    public void approve(ProposalRow p) {
        if (p == null || gone(p, "approved")) {
            return;
        }
        String blocked = vm.blockedReason(p.className());
        if (blocked != null) {
            vm.statusProperty().set(p.className() + " cannot be scaled from here: " + blocked);
            vm.statusOkProperty().set(false);
            return;
        }
        if (p.largeScaleDown()) {
            ProposalWatch watch = new ProposalWatch(vm, p);
            boolean yes = Dialogs.confirm(owner.get(), "Large scale-down", r -> r.className() + ": " + r.from()
                    + " → " + r.to() + " removes more than half of its replicas. Pods that are busy will be stopped.",
                    watch);
            watch.stop();
            if (!yes || watch.goneProperty().get()) {
                return;
            }
            p = watch.currentProperty().get(); // what the dialog showed last
        }
        vm.approve(p);
    }

    /** Server-side dry run of the proposal's change; the answer lands in the status line. */
    public void dryRun(ProposalRow p) {
        if (p != null && !gone(p, "tried")) {
            vm.dryRun(p);
        }
    }

    /** What the journal says of a rejection the operator gave no reason for. */
    public static final String NO_REASON = "rejected by the operator";

    /**
     * Reject: asks why (optional; Enter rejects at once), following the proposal while the dialog is open, as
     * approve does. The reason goes to the journal's reason field, the event list and the strip.
     */
    public void reject(ProposalRow p) {
        if (p == null || gone(p, "rejected")) {
            return;
        }
        ProposalWatch watch = new ProposalWatch(vm, p);
        java.util.Optional<String> reason = Dialogs.reject(owner.get(), watch);
        watch.stop();
        if (reason.isEmpty() || watch.goneProperty().get()) {
            return;
        }
        rejectWith(watch.currentProperty().get(), reason.get());
    }

    /** Rejects with the reason typed (blank: {@link #NO_REASON}), without asking. */
    public void rejectWith(ProposalRow p, String reason) {
        if (p != null && !gone(p, "rejected")) {
            vm.reject(p, reason == null || reason.isBlank() ? NO_REASON : reason.strip());
        }
    }

    public void approveOtherValue(ProposalRow p) {
        if (p == null || gone(p, "approved")) {
            return;
        }
        ProposalWatch watch = new ProposalWatch(vm, p);
        java.util.Optional<Dialogs.Choice> chosen = Dialogs.otherValue(owner.get(), watch,
                n -> vm.split(watch.currentProperty().get(), n));
        watch.stop();
        if (watch.goneProperty().get()) {
            return;
        }
        chosen.ifPresent(ch -> {
            int n = ch.replicas();
            ProposalRow now = watch.currentProperty().get();
            if (n < now.from() && n * 2 < now.from() && now.from() - n >= 2 && !Dialogs.confirm(owner.get(),
                    "Large scale-down", now.className() + ": " + now.from() + " → " + n
                            + " removes more than half of its replicas.", "Scale down to " + n)) {
                return;
            }
            vm.approveWith(now, n, ch.reason());
        });
    }

    /** Freeze all, or lift it; lifting during an incident asks first. */
    public void toggleFreezeAll() {
        if (vm.frozenAllProperty().get()) {
            if (Dialogs.confirm(owner.get(), "Lift the global freeze?", vm.freezeTextProperty().get()
                    + "\n\nEvery class acts again according to its mode as soon as the freeze is lifted.",
                    "Lift freeze")) {
                vm.unfreezeAll("lifted by the operator");
            }
            return;
        }
        Dialogs.freeze(owner.get(), "every class").ifPresent(c -> vm.freezeAll(c.duration(), c.reason()));
    }

    public void toggleFreeze(String className) {
        if (className == null) {
            return;
        }
        ClassSupervision c = vm.of(className);
        if (c != null && c.freeze() != null) {
            vm.unfreeze(className, "lifted by the operator");
            return;
        }
        Dialogs.freeze(owner.get(), className).ifPresent(ch -> vm.freeze(className, ch.duration(), ch.reason()));
    }

    public void toggleOverride(String className, int current) {
        if (className == null) {
            return;
        }
        ClassSupervision c = vm.of(className);
        if (c != null && c.override() != null) {
            vm.clearOverride(className, "cleared by the operator");
            return;
        }
        Dialogs.override(owner.get(), className, current).ifPresent(ch -> {
            java.util.List<String> warnings = ActionWarnings.override(className, c, vm.globalFreeze(), decisions.apply(
                    className), ch.replicas());
            if (!warnings.isEmpty() && !Dialogs.confirm(owner.get(), "Pin " + className + " to " + ch.replicas()
                    + " anyway?", "• " + String.join("\n• ", warnings) + "\n\nYour reason goes to the journal with"
                    + " what you were warned of: " + ch.reason(), "Pin anyway")) {
                vm.statusOkProperty().set(true);
                vm.statusProperty().set(className + " not pinned: you cancelled after the warning");
                return;
            }
            String reason = warnings.isEmpty() ? ch.reason()
                    : ch.reason() + " (acknowledged: " + String.join("; ", warnings) + ")";
            vm.setOverride(className, ch.replicas(), ch.duration(), reason);
        });
    }

    /** Starts a drain, or cancels the running one. */
    public void toggleDrain(String className, int current) {
        if (className == null) {
            return;
        }
        ClassSupervision c = vm.of(className);
        if (c != null && c.draining()) {
            vm.cancelDrain(className, "cancelled in the console");
            return;
        }
        String blocked = vm.blockedReason(className);
        if (blocked != null) {
            vm.statusProperty().set(className + " cannot be scaled from here: " + blocked);
            vm.statusOkProperty().set(false);
            return;
        }
        Dialogs.drain(owner.get(), className, current).ifPresent(ch -> {
            String warning = ActionWarnings.drain(className, decisions.apply(className), ch.replicas());
            if (warning != null && !Dialogs.confirm(owner.get(), "Drain " + className + " below what it needs?",
                    warning, "Drain to " + ch.replicas() + " anyway")) {
                vm.statusOkProperty().set(true);
                vm.statusProperty().set(className + " not drained: you cancelled after the warning");
                return;
            }
            vm.startDrain(className, ch.replicas(), ch.duration(), warning == null ? ch.reason()
                    : (ch.reason().isBlank() ? "" : ch.reason() + " ") + "(acknowledged: below the decision's "
                    + decisions.apply(className).desiredReplicas() + ")");
        });
    }

    /**
     * Drains one pod (from the pod panel): asks the deadline and a reason, warns as a class drain does when
     * one fewer replica is below what the decision wants, then starts it through the supervised drain path.
     * {@code note} is shown in the dialog (e.g. why the pod is STUCK); null for none.
     */
    public void drainPod(String className, String pod, int current, io.headroom.loop.ClassSnapshot.PodPool pool,
                         String note) {
        if (className == null || pod == null) {
            return;
        }
        if (!mayDrainPod(className)) {
            return;
        }
        Dialogs.drainPod(owner.get(), className, pod, current, pool, note).ifPresent(ch -> {
            int to = Math.max(0, current - 1);
            String warning = ActionWarnings.drain(className, decisions.apply(className), to);
            if (warning != null && !Dialogs.confirm(owner.get(), "Drain " + pod + " below what " + className
                    + " needs?", warning, "Drain " + pod + " anyway")) {
                vm.statusOkProperty().set(true);
                vm.statusProperty().set(pod + " not drained: you cancelled after the warning");
                return;
            }
            vm.startPodDrain(className, pod, ch.duration(), warning == null ? ch.reason()
                    : (ch.reason().isBlank() ? "" : ch.reason() + " ") + "(acknowledged: below the decision's "
                    + decisions.apply(className).desiredReplicas() + ")");
        });
    }

    /** Whether a pod of the class may be drained or replaced now; says why not in the status line. */
    private boolean mayDrainPod(String className) {
        ClassSupervision c = vm.of(className);
        if (c != null && c.draining()) {
            vm.statusOkProperty().set(false);
            vm.statusProperty().set(className + " is already draining: cancel that drain first");
            return false;
        }
        String blocked = vm.blockedReason(className);
        if (blocked != null) {
            vm.statusProperty().set(className + " cannot be scaled from here: " + blocked);
            vm.statusOkProperty().set(false);
            return false;
        }
        return true;
    }

    /**
     * Replaces a STUCK pod (Drain… on it in the pod panel): the dialog says the pod makes no progress, so a drain
     * could never end, and what replacing costs; then the supervised replace drain starts. No warning about
     * capacity: the hung pod is none, and one more replica comes first.
     */
    public void replacePod(String className, String pod, int current, io.headroom.loop.ClassSnapshot.PodPool pool,
                           String why) {
        if (className == null || pod == null) {
            return;
        }
        if (!mayDrainPod(className)) {
            return;
        }
        Dialogs.replacePod(owner.get(), className, pod, current, pool, why).ifPresent(ch ->
                vm.startReplaceDrain(className, pod, ch.duration(), ch.reason()));
    }

    /** Auto mode is opt-in and confirmed: it says what it means. */
    public boolean setMode(String className, Mode mode) {
        if (mode == Mode.AUTO && !Dialogs.confirm(owner.get(), "Let Headroom act on " + className + "?",
                "In auto mode every decision for " + className + " is applied as soon as it is made, without a "
                        + "proposal. Freezes and overrides still win, and every change is journaled.",
                "Switch to auto")) {
            return false;
        }
        vm.setMode(className, mode);
        return true;
    }

    /**
     * A class's forecast mode (issue 29); auto is opt-in and confirmed, as auto mode is: it says what it means.
     *
     * @return false when the operator said no
     */
    public boolean setForecastMode(String className, io.headroom.decision.ForecastMode mode) {
        if (className == null || mode == null) {
            return false;
        }
        if (mode == io.headroom.decision.ForecastMode.AUTO && !Dialogs.confirm(owner.get(),
                "Let the forecast hold capacity for " + className + "?", "In forecast mode auto, ahead of each"
                        + " forecast rise a floor is held for " + className + " without a proposal: journaled and"
                        + " shown, never below what runs, and cancelled from the class controls. A freeze still"
                        + " stops it.", "Switch to auto")) {
            return false;
        }
        vm.setForecastMode(className, mode);
        return true;
    }

    /** Takes away the forecast floor a class holds (journaled). */
    public void cancelFloor(String className) {
        if (className != null) {
            vm.cancelFloor(className);
        }
    }

    /** Ctrl+Z: says what would be undone (and what is queued behind it), then undoes the newest on yes. */
    public void undo() {
        java.util.List<String> levels = java.util.List.copyOf(vm.undoable());
        if (levels.isEmpty()) {
            vm.undo(); // says there is nothing to undo
            return;
        }
        StringBuilder text = new StringBuilder("Takes back the " + levels.get(0) + ". " + vm.newestUndoNote());
        if (levels.size() > 1) {
            text.append("\n\nThen Ctrl+Z again would undo, newest first:");
            levels.stream().skip(1).limit(5).forEach(l -> text.append("\n• the ").append(l));
            if (levels.size() > 6) {
                text.append("\n• … and ").append(levels.size() - 6).append(" more");
            }
        }
        if (Dialogs.confirm(owner.get(), "Undo the " + levels.get(0) + "?", text.toString(), "Undo")) {
            vm.undo();
        }
    }

    /**
     * Whether {@code p} is a card held after its proposal went (issue 28): then the status line says what became of
     * it and that nothing was {@code done}, and nothing is sent.
     */
    private boolean gone(ProposalRow p, String done) {
        if (p.pending()) {
            return false;
        }
        vm.statusOkProperty().set(false);
        vm.statusProperty().set(p.className() + " " + p.from() + " → " + p.to() + " is no longer waiting ("
                + p.gone() + "): nothing " + done);
        return true;
    }
}
