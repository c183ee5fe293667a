package io.headroom.ui.shell;

import io.headroom.session.HandBack;
import io.headroom.session.KeepUntil;
import io.headroom.session.Session;
import io.headroom.ui.Styles;
import java.util.concurrent.Executor;
import javafx.collections.FXCollections;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyCodeCombination;
import javafx.scene.input.KeyCombination;
import javafx.scene.input.KeyEvent;
import javafx.stage.Stage;
import javafx.stage.WindowEvent;
import javafx.stage.Window;
import javafx.util.StringConverter;

/**
 * Hand back cleanly (design.md §4). When the console window is closed while classes are frozen, pinned or
 * in auto mode, this dialog lists them and asks, per class, to hand back (to KEDA or the HPA, or just
 * let go) or to keep the pause until an end the operator chooses (the hold's own by default; owner and
 * expiry then written on the workload). The
 * hand-back runs in the session with a deadline; what failed is said before the console goes (a class
 * whose hand-back the cluster did not confirm stays held, its pause owned, and the next console offers
 * it: {@link LeftoversView}). The work is the view model's.
 */
public final class ExitDialog {
    public static final String EXIT_ID = "exit-confirm";
    public static final String CANCEL_ID = "exit-cancel";
    public static final String STATUS_ID = "exit-status";
    public static final String HAND_BACK_ALL_ID = "exit-hand-back-all";
    public static final String KEEP_ALL_ID = "exit-keep-all";
    /** A row's radio buttons: {@code HAND_BACK_PREFIX + className}, {@code KEEP_PREFIX + className}. */
    public static final String HAND_BACK_PREFIX = "hand-back-";
    public static final String KEEP_PREFIX = "keep-";
    /** A row's kept pause's end: its choice ({@code KEEP_UNTIL_PREFIX + className}), custom text and problem. */
    public static final String KEEP_UNTIL_PREFIX = "keep-until-";
    public static final String KEEP_CUSTOM_PREFIX = "keep-custom-";
    public static final String KEEP_PROBLEM_PREFIX = "keep-problem-";

    private ExitDialog() {
    }

    /**
     * Asks before {@code stage} closes (the session in force when it is asked; none: it just closes):
     * with nothing held the console exits at once ({@code exit}); else the dialog decides. {@code exit}
     * runs on the FX thread, once.
     */
    public static void guard(Stage stage, java.util.function.Supplier<Session> session, Executor fx, Runnable exit) {
        guard(stage, session, fx, Runnable::run, exit);
    }

    /** What the exit asks after the hand-back (the published admission): it runs {@code go} to exit, or nothing when cancelled. */
    @FunctionalInterface
    public interface Then {
        void ask(Runnable go);
    }

    /**
     * As above, asking {@code then} after the hand-back. The console counts as exiting only once {@code then}
     * lets it go: a question cancelled there leaves the window to ask everything again at the next close.
     */
    public static void guard(Stage stage, java.util.function.Supplier<Session> session, Executor fx, Then then,
                             Runnable exit) {
        boolean[] exiting = new boolean[1];
        Runnable go = () -> {
            if (!exiting[0]) {
                exiting[0] = true;
                exit.run();
            }
        };
        Runnable once = () -> {
            if (!exiting[0]) {
                then.ask(go);
            }
        };
        stage.setOnCloseRequest(e -> {
            Session s = session.get();
            if (exiting[0] || s == null) {
                return;
            }
            e.consume();
            HandBackViewModel vm = new HandBackViewModel(s.handBack(), fx, HandBack.EXIT_DEADLINE);
            vm.loadAtExit().whenComplete((n, err) -> fx.execute(() -> {
                if (err != null || n == 0) {
                    once.run();
                } else {
                    show(stage, vm, "Before the console closes",
                            "These classes are still held by this console. Once it is gone nothing proposes, "
                                    + "scales or lifts them. Hand each back, or keep its pause until the end you "
                                    + "choose: the owner and the end are then written on the workload (and on its "
                                    + "ScaledObject), and the next console lists it and offers to hand it back (by "
                                    + "default once it has expired).",
                            "Exit", once);
                }
            }));
        });
        // Quit (Ctrl+Q; Cmd+Q on macOS) is a close request: the same question as closing the window. Where
        // nothing asks (no session yet, or already exiting), the window closes as a click on its close box would.
        stage.addEventFilter(KeyEvent.KEY_PRESSED, k -> {
            if (QUIT.match(k)) {
                k.consume();
                WindowEvent close = new WindowEvent(stage, WindowEvent.WINDOW_CLOSE_REQUEST);
                stage.getOnCloseRequest().handle(close);
                if (!close.isConsumed()) {
                    stage.close();
                }
            }
        });
    }

    /** The platform's quit shortcut. */
    public static final KeyCombination QUIT = new KeyCodeCombination(KeyCode.Q, KeyCombination.SHORTCUT_DOWN);

    /** When the row's kept pause ends: the options, and a text field for a custom end. */
    private static HBox endChoice(HandBackViewModel vm, HandBackViewModel.Row r) {
        ComboBox<KeepUntil.Option> until = new ComboBox<>(FXCollections.observableArrayList(KeepUntil.Option.values()));
        until.setId(KEEP_UNTIL_PREFIX + r.className());
        until.setConverter(new StringConverter<>() {
            @Override
            public String toString(KeepUntil.Option o) {
                return o == null ? "" : vm.optionText(r, o);
            }

            @Override
            public KeepUntil.Option fromString(String s) {
                return null;
            }
        });
        until.valueProperty().bindBidirectional(r.keepOptionProperty());
        TextField custom = new TextField();
        custom.setId(KEEP_CUSTOM_PREFIX + r.className());
        custom.setPromptText("90m, 2h, 17:30");
        custom.setPrefColumnCount(10);
        custom.textProperty().bindBidirectional(r.customUntilProperty());
        custom.visibleProperty().bind(r.keepOptionProperty().isEqualTo(KeepUntil.Option.CUSTOM));
        custom.managedProperty().bind(custom.visibleProperty());
        return new HBox(6, until, custom);
    }

    /** The dialog over {@code owner}; {@code after} runs once the choices are carried out. */
    static Stage show(Window owner, HandBackViewModel vm, String title, String intro, String confirmText,
                      Runnable after) {
        Stage dialog = ChoiceDialog.stage(owner, title);
        GridPane grid = ChoiceDialog.grid();
        int y = 0;
        for (HandBackViewModel.Row r : vm.rows()) {
            Label name = new Label(r.className());
            name.getStyleClass().add(Styles.CLASS_NAME);
            name.setMinWidth(Region.USE_PREF_SIZE); // names and choices are read whole, never cut to "…"
            Label holds = new Label(r.holds());
            holds.getStyleClass().add(Styles.MUTED);
            holds.setWrapText(true);
            ToggleGroup g = new ToggleGroup();
            RadioButton back = new RadioButton(r.handBackText());
            back.setId(HAND_BACK_PREFIX + r.className());
            back.setToggleGroup(g);
            RadioButton keep = new RadioButton(r.keepText());
            keep.setId(KEEP_PREFIX + r.className());
            back.setMinWidth(Region.USE_PREF_SIZE);
            keep.setMinWidth(Region.USE_PREF_SIZE);
            keep.setToggleGroup(g);
            Runnable sync = () -> (r.choiceProperty().get() == HandBack.Choice.KEEP ? keep : back).setSelected(true);
            sync.run();
            r.choiceProperty().addListener((o, a, b) -> sync.run());
            g.selectedToggleProperty().addListener((o, a, b) -> {
                if (b != null) {
                    r.choiceProperty().set(b == keep ? HandBack.Choice.KEEP : HandBack.Choice.HAND_BACK);
                }
            });
            grid.add(name, 0, y);
            grid.add(holds, 1, y, 2, 1);
            grid.add(back, 1, y + 1);
            if (r.choosesEnd()) {
                grid.add(new HBox(8, keep, endChoice(vm, r)), 2, y + 1);
                Label problem = new Label();
                problem.setId(KEEP_PROBLEM_PREFIX + r.className());
                problem.getStyleClass().add(Styles.MUTED);
                problem.setWrapText(true);
                problem.textProperty().bind(r.keepProblemProperty());
                problem.visibleProperty().bind(r.keepProblemProperty().isNotEmpty());
                problem.managedProperty().bind(problem.visibleProperty());
                grid.add(problem, 1, y + 2, 2, 1);
                y += 3;
            } else {
                grid.add(keep, 2, y + 1);
                y += 2;
            }
        }
        Label status = ChoiceDialog.status(STATUS_ID, vm.statusProperty());

        Button allBack = new Button("Hand back all");
        allBack.setId(HAND_BACK_ALL_ID);
        allBack.setOnAction(e -> vm.chooseAll(HandBack.Choice.HAND_BACK));
        Button allKeep = new Button("Keep all");
        allKeep.setId(KEEP_ALL_ID);
        allKeep.setOnAction(e -> vm.chooseAll(HandBack.Choice.KEEP));
        Button cancel = new Button("Cancel");
        cancel.setId(CANCEL_ID);
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> dialog.close());
        Button confirm = new Button(confirmText);
        confirm.setId(EXIT_ID);
        confirm.setDefaultButton(true);
        allBack.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        allKeep.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        cancel.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        grid.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        confirm.disableProperty().bind(vm.busyProperty());
        confirm.setOnAction(e -> {
            if (vm.doneProperty().get()) { // the report was shown: now go
                dialog.close();
                after.run();
                return;
            }
            vm.confirm().thenAccept(report -> {
                if (report == null) { // a kept pause's end was refused: said, nothing done
                    return;
                }
                if (report.ok()) {
                    dialog.close();
                    after.run();
                } else {
                    confirm.setText("Close the console");
                }
            });
        });
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox buttons = new HBox(8, allBack, allKeep, spring, cancel, confirm);
        ChoiceDialog.show(dialog, owner, title, intro, grid, vm.rows().size(), status, buttons, 900);
        return dialog;
    }
}
