package io.headroom.ui.shell;

import io.headroom.cluster.PodState;
import io.headroom.decision.ForecastMode;
import io.headroom.loop.ClassSnapshot;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Mode;
import io.headroom.ui.detail.PodPanelViewModel;
import io.headroom.ui.shell.Commands.Command;
import io.headroom.ui.shell.Commands.Key;
import io.headroom.ui.shell.Commands.Section;
import io.headroom.ui.supervise.OperatorActions;
import io.headroom.ui.supervise.ProposalRow;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The palette's commands for every class by name, not only the class in view: its proposal (approve, reject
 * with a reason, another value, dry run), freeze, override, drain, mode, what-if, nodes, KEDA, and a drain or
 * a replacement for each of its pods. Each runs the flow of its button, with the same dialogs. The class in
 * view comes first and its rows show the key that acts on it. Titles say what would happen now.
 */
final class ClassCommands {
    /** The keys that act on the class in view, shown on its rows. */
    record Keys(Key approve, Key reject, Key other, Key dryRun, Key freeze) {
    }

    private final ConsoleCommands.Console c;
    private final Keys keys;

    ClassCommands(ConsoleCommands.Console c, Keys keys) {
        this.c = c;
        this.keys = keys;
    }

    /** Every class's commands, the class in view's first. */
    List<Command> all() {
        String shown = c.classInView().get();
        List<String> names = new ArrayList<>(c.classNames().get());
        if (shown != null && names.remove(shown)) {
            names.add(0, shown);
        }
        List<Command> list = new ArrayList<>();
        for (String name : names) {
            list.addAll(of(name, name.equals(shown)));
        }
        return list;
    }

    private List<Command> of(String cls, boolean inView) {
        Section section = inView ? Section.CLASS : Section.OTHER_CLASS;
        SupervisionViewModel sv = c.actions().viewModel();
        OperatorActions actions = c.actions();
        ClassSupervision state = sv.of(cls);
        Supplier<String> noDecision = () -> decision(cls) ? null : "no decision for " + cls + " yet: nothing to act on";
        List<Command> list = new ArrayList<>();
        proposal(cls, inView, list);
        boolean frozen = state != null && state.freeze() != null;
        list.add(keyed(new Command(frozen ? "Unfreeze " + cls : "Freeze " + cls + "…", section, null, noDecision,
                () -> actions.toggleFreeze(cls)).alias("hold stop pause"), inView, keys.freeze()));
        boolean pinned = state != null && state.override() != null;
        list.add(new Command(pinned ? "Clear the override of " + cls : "Override " + cls + "…", section, null,
                noDecision, () -> actions.toggleOverride(cls, replicas(cls))).alias("pin replicas set count"));
        boolean draining = state != null && state.draining();
        Supplier<String> drainWhy = () -> {
            String why = noDecision.get();
            if (why == null && draining && !state.drain().cancellable()) {
                return state.drain().replace() != null ? "the hung pod was evicted: the replacement can no longer"
                        + " be called off" : "the drain is lowering replicas: it can no longer be called off";
            }
            return why;
        };
        list.add(new Command(draining ? "Cancel the drain of " + cls : "Drain " + cls + "…", section, null,
                drainWhy, () -> actions.toggleDrain(cls, replicas(cls))).alias("scale down empty"));
        list.add(new Command("What-if… for " + cls, section, null, () -> null, // history only: no decision needed
                () -> c.openWhatIf().accept(cls)).alias("whatif simulate replay policy edit"));
        list.add(new Command("Nodes… where " + cls + " runs", section, null, noDecision,
                () -> c.openNodes().accept(cls)).alias("node drain cordon uncordon"));
        list.add(new Command("Export / apply " + cls + " as KEDA…", section, null, null,
                () -> c.openExportKeda().accept(cls)).alias("scaledobject yaml"));
        for (Mode m : Mode.values()) {
            String mode = m.name().toLowerCase(Locale.ROOT);
            list.add(new Command("Mode of " + cls + ": " + mode + (m == Mode.AUTO ? "…" : ""), section, null,
                    () -> {
                        String why = noDecision.get();
                        return why == null && state != null && state.mode() == m ? cls + " is already " + mode : why;
                    }, () -> actions.setMode(cls, m)));
        }
        forecast(cls, section, state, noDecision, list);
        pods(cls, section, list);
        return list;
    }

    /** Approve, reject (asks why), another value and dry run for the class's pending proposal, if any. */
    private void proposal(String cls, boolean inView, List<Command> list) {
        SupervisionViewModel sv = c.actions().viewModel();
        ProposalRow p = sv.proposalOf(cls);
        if (p == null) {
            return;
        }
        String change = p.forecast() ? "the forecast floor of " + cls + " (hold " + p.to() + ")"
                : cls + " " + p.from() + " → " + p.to();
        Supplier<String> gone = () -> sv.current(p) == null ? "the proposal is no longer waiting" : null;
        Supplier<String> approvable = () -> {
            String why = gone.get();
            String blocked = why == null ? sv.blockedReason(cls) : null;
            return why != null ? why : blocked == null ? null : cls + " cannot be scaled from here: " + blocked;
        };
        OperatorActions actions = c.actions();
        Section section = inView ? Section.PROPOSAL : Section.OTHER_PROPOSAL;
        list.add(keyed(new Command("Approve " + change, section, null, approvable,
                () -> actions.approve(sv.current(p))).alias("yes accept apply proposal"), inView, keys.approve()));
        list.add(keyed(new Command("Reject " + change + " (with a reason)…", section, null, gone,
                () -> actions.reject(sv.current(p))).alias("no decline deny why proposal"), inView, keys.reject()));
        list.add(keyed(new Command("Approve " + cls + " with another value…", section, null, approvable,
                () -> actions.approveOtherValue(sv.current(p))).alias("other count proposal"), inView, keys.other()));
        if (!p.forecast()) { // a floor changes nothing on approval: nothing to dry-run
            list.add(keyed(new Command("Dry run " + change + " on the cluster", section, null, gone,
                    () -> actions.dryRun(sv.current(p))).alias("try test proposal"), inView, keys.dryRun()));
        }
    }

    /** The class's forecast mode, each as a command, and the cancel of a floor it holds (issue 29). */
    private void forecast(String cls, Section section, ClassSupervision state, Supplier<String> noDecision,
                          List<Command> list) {
        OperatorActions actions = c.actions();
        ForecastMode now = actions.viewModel().forecastMode(cls);
        if (now != null) {
            for (ForecastMode m : ForecastMode.values()) {
                list.add(new Command("Forecast mode of " + cls + ": " + m.word().replace('-', ' ')
                        + (m == ForecastMode.AUTO ? "…" : ""), section, null,
                        () -> actions.viewModel().forecastMode(cls) == m ? cls + "'s forecast mode is already "
                                + m.word() : null,
                        () -> actions.setForecastMode(cls, m)).alias("predict predictive anticipate floor"));
            }
        }
        if (state != null && state.floor() != null) {
            list.add(new Command("Cancel the forecast floor of " + cls + " (" + state.floor().replicas() + ")", section,
                    null, noDecision, () -> actions.cancelFloor(cls)).alias("forecast floor undo stop hold"));
        }
    }

    /** A drain of each pod that can be drained; a STUCK one is offered its replacement, as its Drain… button does. */
    private void pods(String cls, Section section, List<Command> list) {
        ClassSnapshot s = c.latest().apply(cls);
        if (s == null || s.workload() == null) {
            return;
        }
        Set<String> stuck = s.decision() == null ? Set.of() : Set.copyOf(s.decision().stuckPods());
        int current = s.workload().specReplicas();
        for (PodState pod : s.workload().pods()) {
            if (pod.terminating() || pod.draining()) {
                continue;
            }
            String name = pod.name();
            if (stuck.contains(name)) {
                String why = PodPanelViewModel.stuckDetail(s, pod, s.work(name));
                list.add(new Command("Replace STUCK pod " + name + " of " + cls + "…", section, null, null,
                        () -> c.actions().replacePod(cls, name, current, s.podPool(name), why))
                        .alias("drain evict hung pod"));
            } else {
                list.add(new Command("Drain pod " + name + " of " + cls + "…", section, null, null,
                        () -> c.actions().drainPod(cls, name, current, s.podPool(name), null))
                        .alias("evict remove replace pod"));
            }
        }
    }

    private static Command keyed(Command command, boolean inView, Key key) {
        return inView ? command.withKey(key) : command;
    }

    private boolean decision(String cls) {
        ClassSnapshot s = c.latest().apply(cls);
        return s != null && s.decision() != null;
    }

    private int replicas(String cls) {
        ClassSnapshot s = c.latest().apply(cls);
        return s == null || s.decision() == null ? 0 : s.decision().currentReplicas();
    }
}
