package io.headroom.ui.shell;

import io.headroom.loop.ClassSnapshot;
import io.headroom.ui.overview.OverviewViewModel;
import io.headroom.ui.shell.Commands.Command;
import io.headroom.ui.shell.Commands.Key;
import io.headroom.ui.shell.Commands.Section;
import io.headroom.ui.supervise.OperatorActions;
import io.headroom.ui.supervise.ProposalRow;
import io.headroom.ui.supervise.SupervisionViewModel;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;

/**
 * The console's commands, each the same flow as its button: {@link OperatorActions} for what acts on
 * the cluster (with its dialogs, warnings and journal records), the window openers for the rest.
 */
final class ConsoleCommands {
    /**
     * What the commands reach in the console; MainView supplies each.
     *
     * @param latest each class's latest tick by name (null before its first): decisions, replicas, pods
     * @param quit   the same question as closing the window ({@code Ctrl+Q})
     */
    record Console(OperatorActions actions, MainViewModel main, OverviewViewModel overview,
                   Supplier<String> classInView, Function<String, ClassSnapshot> latest,
                   Supplier<List<String>> classNames,
                   BiFunction<String, Consumer<ProposalRow>, Runnable> onProposalInView,
                   Runnable openJournal, Runnable openSettings, Consumer<String> openWhatIf,
                   Consumer<String> openNodes, Consumer<String> openExportKeda, Runnable focusFilter,
                   Runnable toggleHelp, Runnable togglePalette, Runnable quit) {
    }

    private ConsoleCommands() {
    }

    static Commands build(Console c) {
        OperatorActions actions = c.actions();
        SupervisionViewModel sv = actions.viewModel();
        Supplier<String> noDecision = () -> {
            String cls = c.classInView().get();
            if (cls == null) {
                return "no class is shown";
            }
            ClassSnapshot s = c.latest().apply(cls);
            return s != null && s.decision() != null ? null : "no decision for " + cls + " yet: nothing to act on";
        };
        Supplier<String> noProposal = () -> {
            String cls = c.classInView().get();
            if (cls == null) {
                return "no class is shown";
            }
            return sv.proposalOf(cls) == null ? "no proposal waits for " + cls : null;
        };
        Supplier<String> approvable = () -> {
            String why = noProposal.get();
            return why != null ? why : blocked(sv, c.classInView().get());
        };
        Commands commands = new Commands();
        commands.add(new Command("Approve the proposal", Section.PROPOSAL, letter(KeyCode.A), approvable,
                        c.onProposalInView().apply("approved", actions::approve)))
                .add(new Command("Reject the proposal (asks why)…", Section.PROPOSAL, letter(KeyCode.R), noProposal,
                        c.onProposalInView().apply("rejected", actions::reject)))
                .add(new Command("Approve with another value…", Section.PROPOSAL, letter(KeyCode.O), approvable,
                        c.onProposalInView().apply("approved", actions::approveOtherValue)))
                .add(new Command("Dry run the proposal on the cluster", Section.PROPOSAL, letter(KeyCode.D),
                        noProposal, c.onProposalInView().apply("tried", actions::dryRun)))
                .add(new Command("Freeze or unfreeze the class in view", Section.CLASS, letter(KeyCode.F),
                        noDecision, () -> actions.toggleFreeze(c.classInView().get())))
                .add(new Command("Freeze or unfreeze every class", Section.CONSOLE,
                        Key.global(new KeyCodeCombination(KeyCode.F, KeyCombination.SHORTCUT_DOWN,
                                KeyCombination.SHIFT_DOWN)), null, actions::toggleFreezeAll))
                .add(new Command("Undo the last action (asks first)", Section.CONSOLE,
                        Key.pressed(new KeyCodeCombination(KeyCode.Z, KeyCombination.SHORTCUT_DOWN)),
                        () -> sv.undoable().isEmpty() ? "nothing to undo" : null, actions::undo))
                .add(new Command("Open the journal", Section.CONSOLE,
                        Key.global(new KeyCodeCombination(KeyCode.J, KeyCombination.SHORTCUT_DOWN)), null,
                        c.openJournal()))
                .add(new Command("Filter the classes", Section.CONSOLE, Key.typed("/"), null, c.focusFilter()))
                .add(new Command("Command palette: every action by name", Section.HELP,
                        Key.global(new KeyCodeCombination(KeyCode.K, KeyCombination.SHORTCUT_DOWN)), null,
                        c.togglePalette()))
                .add(new Command("Show or hide this list of keys", Section.HELP, Key.typed("?"), null,
                        c.toggleHelp()));
        // Palette only: every class's controls and pods by name (the class in view's first, showing the keys
        // above that act on it), then the console's.
        ClassCommands.Keys keys = new ClassCommands.Keys(letter(KeyCode.A), letter(KeyCode.R), letter(KeyCode.O),
                letter(KeyCode.D), letter(KeyCode.F));
        ClassCommands perClass = new ClassCommands(c, keys);
        commands.addGenerated(perClass::all)
                .add(new Command("Settings…", Section.CONSOLE, null, null, c.openSettings())
                        .alias("preferences configure workloads file connect"))
                .add(new Command("Switch theme (light or dark)", Section.CONSOLE, null, null,
                        () -> c.main().toggleTheme()).alias("dark light colours colors appearance"))
                .add(new Command("Node drain… (every node of the first context)", Section.CONSOLE, null, null,
                        () -> c.openNodes().accept(null)).alias("nodes cordon uncordon evict"))
                // Ctrl+Q is the window's own (ExitDialog): shown here, not dispatched by the registry.
                .addGenerated(() -> List.of(new Command("Quit Headroom (asks first when classes are held)",
                        Section.CONSOLE, Key.global(ExitDialog.QUIT), null, c.quit()).alias("exit close")))
                .addGenerated(() -> speedCommands(c.main()))
                .addGenerated(() -> goTo(c));
        return commands;
    }

    private static String blocked(SupervisionViewModel sv, String cls) {
        String why = sv.blockedReason(cls);
        return why == null ? null : cls + " cannot be scaled from here: " + why;
    }

    private static Key letter(KeyCode code) {
        return Key.pressed(new KeyCodeCombination(code));
    }

    private static List<Command> speedCommands(MainViewModel main) {
        List<Command> list = new ArrayList<>();
        for (double s : List.of(1.0, 10.0, 60.0)) {
            String label = (int) s + "×";
            list.add(new Command("Speed " + label + " (sandbox time)", Section.CONSOLE, null, () -> {
                if (!main.sandboxProperty().get()) {
                    return "only the sandbox's simulated time can run faster";
                }
                return main.speedProperty().get() == s ? "already at " + label : null;
            }, () -> main.setSpeed(s)));
        }
        return list;
    }

    private static List<Command> goTo(ConsoleCommands.Console c) {
        List<Command> list = new ArrayList<>();
        String shown = c.classInView().get();
        for (String name : c.classNames().get()) {
            list.add(new Command("Open class " + name, Section.GO_TO, null,
                    () -> name.equals(shown) ? name + " is already shown" : null, () -> c.overview().select(name))
                    .alias("show go to view select jump"));
        }
        List<String> contexts = new ArrayList<>(c.main().contexts());
        if (contexts.size() > 1) {
            contexts.add(0, OverviewViewModel.ALL);
            String current = c.main().selectedContextProperty().get();
            for (String context : contexts) {
                list.add(new Command("Switch context: " + context, Section.GO_TO, null,
                        () -> context.equals(current) || current == null && context.equals(OverviewViewModel.ALL)
                                ? "already shown" : null,
                        () -> c.main().selectedContextProperty().set(context)));
            }
        }
        return list;
    }
}
