package io.headroom.ui.shell;

import io.headroom.session.HandBack;
import io.headroom.session.Leftover;
import io.headroom.session.Session;
import io.headroom.ui.Styles;
import java.time.ZoneId;
import java.util.concurrent.Executor;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.Toggle;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.ColumnConstraints;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * At start: what Headroom left on the clusters (pauses, drain marks, cordons), whoever left it, each with
 * its owner and expiry and a choice to hand it back, keep it or clear Headroom's record of it. Shown only
 * when there is something; the work is {@link LeftoversViewModel}'s.
 */
public final class LeftoversView {
    public static final String CONFIRM_ID = "leftovers-confirm";
    public static final String CANCEL_ID = "leftovers-cancel";
    public static final String STATUS_ID = "leftovers-status";
    public static final String PROBLEMS_ID = "leftovers-problems";
    /** A row's radio buttons: {@code CHOICE_PREFIX + choice (hand-back, keep, clear) + "-" + key}. */
    public static final String CHOICE_PREFIX = "leftover-";
    private static final String TITLE = "Left on the cluster";
    private static final String INTRO = "Headroom wrote these and they are still there: a console stopped, its "
            + "hand-back failed, or another console is still using them. Hand back what nobody uses any more; keep "
            + "what its owner may still need.";

    private LeftoversView() {
    }

    /** The id of a row's button for {@code c}: "leftover-hand-back-pause-orders". */
    public static String choiceId(Leftover.Choice c, String key) {
        return CHOICE_PREFIX + c.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-') + "-" + key;
    }

    /** Looks for leftovers once the session is live and, when there are any, shows them over {@code owner}. */
    public static void offer(Window owner, Session session, java.util.concurrent.CompletableFuture<?> live, Executor fx) {
        LeftoversViewModel vm = new LeftoversViewModel(session.leftovers(), fx, HandBack.EXIT_DEADLINE,
                ZoneId.systemDefault());
        live.thenCompose(v -> vm.load()).thenAcceptAsync(n -> {
            if (n > 0) {
                show(owner, vm);
            }
        }, fx);
    }

    static Stage show(Window owner, LeftoversViewModel vm) {
        Stage dialog = ChoiceDialog.stage(owner, TITLE);
        GridPane grid = ChoiceDialog.grid();
        ColumnConstraints wide = new ColumnConstraints();
        wide.setHgrow(Priority.ALWAYS);
        wide.setFillWidth(true);
        grid.getColumnConstraints().add(wide);
        int y = 0;
        for (LeftoversViewModel.Row r : vm.rows()) {
            Label what = new Label(r.what());
            what.setWrapText(true);
            Label whose = new Label(r.whose());
            whose.getStyleClass().add(Styles.MUTED);
            whose.setWrapText(true);
            // One column: the owner and expiry sit under what was left, and the choices flow onto as many
            // lines as they need, so nothing is cut or scrolled sideways at 1280x800 or at 2x.
            grid.add(what, 0, y);
            grid.add(whose, 0, y + 1);
            ToggleGroup g = new ToggleGroup();
            FlowPane choices = new FlowPane(12, 4);
            for (Leftover.Choice c : r.choices()) {
                RadioButton b = new RadioButton(r.choiceText(c));
                b.setId(choiceId(c, r.key()));
                b.setUserData(c);
                b.setToggleGroup(g);
                b.setMinWidth(Region.USE_PREF_SIZE);
                choices.getChildren().add(b);
            }
            Runnable sync = () -> g.getToggles().stream().filter(t -> t.getUserData() == r.choiceProperty().get())
                    .findFirst().ifPresent(t -> t.setSelected(true));
            sync.run();
            r.choiceProperty().addListener((o, a, b) -> sync.run());
            g.selectedToggleProperty().addListener((o, a, b) -> {
                if (b != null) {
                    r.choiceProperty().set((Leftover.Choice) ((Toggle) b).getUserData());
                }
            });
            grid.add(choices, 0, y + 2);
            GridPane.setMargin(choices, new javafx.geometry.Insets(0, 0, 8, 0));
            y += 3;
        }
        Label problems = new Label();
        problems.setId(PROBLEMS_ID);
        problems.setWrapText(true);
        problems.getStyleClass().add(Styles.MUTED);
        problems.textProperty().bind(vm.problemsProperty());
        problems.visibleProperty().bind(vm.problemsProperty().isNotEmpty());
        problems.managedProperty().bind(problems.visibleProperty());

        Label status = ChoiceDialog.status(STATUS_ID, vm.statusProperty());

        Button cancel = new Button("Not now");
        cancel.setId(CANCEL_ID);
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> dialog.close());
        Button confirm = new Button("Apply");
        confirm.setId(CONFIRM_ID);
        confirm.setDefaultButton(true);
        cancel.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        grid.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        confirm.disableProperty().bind(vm.busyProperty());
        confirm.setOnAction(e -> {
            if (vm.doneProperty().get()) { // the report was shown: now close
                dialog.close();
                return;
            }
            vm.confirm().thenAccept(report -> {
                if (report.ok()) {
                    dialog.close();
                } else {
                    confirm.setText("Close");
                }
            });
        });
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox buttons = new HBox(8, spring, cancel, confirm);
        ChoiceDialog.show(dialog, owner, TITLE, INTRO, grid, vm.rows().size(), status, buttons, 960, problems);
        return dialog;
    }
}
