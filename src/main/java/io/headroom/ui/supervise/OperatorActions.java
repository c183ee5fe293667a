package io.headroom.ui.supervise;

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

    public OperatorActions(SupervisionViewModel vm, Supplier<Window> owner) {
        this.vm = vm;
        this.owner = owner;
    }

    public SupervisionViewModel viewModel() {
        return vm;
    }

    /** Approve; a large scale-down asks first. */
    public void approve(ProposalRow p) {
        if (p == null) {
            return;
        }
        String blocked = vm.blockedReason(p.className());
        if (blocked != null) {
            vm.statusProperty().set(p.className() + " cannot be scaled from here: " + blocked);
            vm.statusOkProperty().set(false);
            return;
        }
        if (p.largeScaleDown() && !Dialogs.confirm(owner.get(), "Large scale-down",
                p.className() + ": " + p.from() + " → " + p.to() + " removes more than half of its replicas. "
                        + "Pods that are busy will be stopped.", "Scale down to " + p.to())) {
            return;
        }
        vm.approve(p);
    }

    /** Server-side dry run of the proposal's change; the answer lands in the status line. */
    public void dryRun(ProposalRow p) {
        if (p != null) {
            vm.dryRun(p);
        }
    }

    public void reject(ProposalRow p) {
        if (p != null) {
            vm.reject(p, "rejected by the operator");
        }
    }

    public void approveOtherValue(ProposalRow p) {
        if (p == null) {
            return;
        }
        Dialogs.otherValue(owner.get(), p).ifPresent(n -> {
            if (n < p.from() && n * 2 < p.from() && p.from() - n >= 2 && !Dialogs.confirm(owner.get(),
                    "Large scale-down", p.className() + ": " + p.from() + " → " + n
                            + " removes more than half of its replicas.", "Scale down to " + n)) {
                return;
            }
            vm.approveWith(p, n, "chosen in the inbox");
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
        Dialogs.override(owner.get(), className, current).ifPresent(ch -> vm.setOverride(className, ch.replicas(),
                ch.duration(), ch.reason()));
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
        Dialogs.drain(owner.get(), className, current).ifPresent(ch -> vm.startDrain(className, ch.replicas(),
                ch.duration(), ch.reason()));
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

    public void undo() {
        vm.undo();
    }
}
