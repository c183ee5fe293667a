package io.headroom.ui.shell;

import io.headroom.session.AdmissionHandBack;
import io.headroom.session.HandBack;
import io.headroom.session.Session;
import io.headroom.ui.Styles;
import java.time.ZoneId;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * At exit, after the classes held by hand ({@link ExitDialog}): the admission this console published for
 * producers (design.md §2b, ADR 0027). Each class's entry is expired now (producers apply their own default) or
 * set OPEN for a while; left alone it expires within its TTL anyway. The work is the view model's.
 */
public final class AdmissionExitDialog {
    public static final String EXIT_ID = "admission-exit-confirm";
    public static final String CANCEL_ID = "admission-exit-cancel";
    public static final String STATUS_ID = "admission-exit-status";
    /** A row's radio buttons: {@code EXPIRE_PREFIX + className}, {@code OPEN_PREFIX + className}. */
    public static final String EXPIRE_PREFIX = "admission-expire-";
    public static final String OPEN_PREFIX = "admission-open-";

    private AdmissionExitDialog() {
    }

    /**
     * Asks about the session's published admission before {@code exit} runs (at once when there is none). A
     * cancelled question leaves the console open.
     */
    public static void ask(Window owner, Supplier<Session> session, Executor fx, Runnable exit) {
        Session s = session.get();
        if (s == null) {
            exit.run();
            return;
        }
        AdmissionExitViewModel vm = new AdmissionExitViewModel(s.admissionHandBack(), fx, HandBack.EXIT_DEADLINE,
                ZoneId.systemDefault());
        vm.load().whenComplete((n, err) -> fx.execute(() -> {
            if (err != null || n == 0) {
                exit.run();
            } else {
                show(owner, vm, exit);
            }
        }));
    }

    static Stage show(Window owner, AdmissionExitViewModel vm, Runnable after) {
        String title = "Admission published by this console";
        Stage dialog = ChoiceDialog.stage(owner, title);
        GridPane grid = ChoiceDialog.grid();
        int y = 0;
        for (AdmissionExitViewModel.Row r : vm.rows()) {
            Label name = new Label(r.className());
            name.getStyleClass().add(Styles.CLASS_NAME);
            name.setMinWidth(Region.USE_PREF_SIZE);
            Label published = new Label(r.published());
            published.getStyleClass().add(Styles.MUTED);
            published.setWrapText(true);
            ToggleGroup g = new ToggleGroup();
            RadioButton expire = new RadioButton("Expire now (producers apply their own default)");
            expire.setId(EXPIRE_PREFIX + r.className());
            expire.setToggleGroup(g);
            RadioButton open = new RadioButton(AdmissionExitViewModel.openText());
            open.setId(OPEN_PREFIX + r.className());
            open.setToggleGroup(g);
            Runnable sync = () -> (r.choiceProperty().get() == AdmissionHandBack.Choice.SET_OPEN ? open : expire)
                    .setSelected(true);
            sync.run();
            r.choiceProperty().addListener((o, a, b) -> sync.run());
            g.selectedToggleProperty().addListener((o, a, b) -> {
                if (b != null) {
                    r.choiceProperty().set(b == open ? AdmissionHandBack.Choice.SET_OPEN
                            : AdmissionHandBack.Choice.EXPIRE_NOW);
                }
            });
            grid.add(name, 0, y);
            grid.add(published, 1, y, 2, 1);
            grid.add(expire, 1, y + 1);
            grid.add(open, 2, y + 1);
            y += 2;
        }
        Label status = ChoiceDialog.status(STATUS_ID, vm.statusProperty());
        Button cancel = new Button("Cancel");
        cancel.setId(CANCEL_ID);
        cancel.setCancelButton(true);
        cancel.setOnAction(e -> dialog.close());
        Button confirm = new Button("Exit");
        confirm.setId(EXIT_ID);
        confirm.setDefaultButton(true);
        cancel.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        grid.disableProperty().bind(vm.busyProperty().or(vm.doneProperty()));
        confirm.disableProperty().bind(vm.busyProperty());
        confirm.setOnAction(e -> {
            if (vm.doneProperty().get()) {
                dialog.close();
                after.run();
                return;
            }
            vm.confirm().thenAccept(results -> {
                if (results.stream().allMatch(AdmissionHandBack.Result::ok)) {
                    dialog.close();
                    after.run();
                } else {
                    confirm.setText("Close the console");
                }
            });
        });
        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox buttons = new HBox(8, spring, cancel, confirm);
        ChoiceDialog.show(dialog, owner, title,
                "Producers read these from the headroom-admission ConfigMap. Once the console is gone nothing "
                        + "refreshes them: each expires by itself within its TTL. Expire each now, or set it OPEN "
                        + "for producers whose own default is to fail closed.", grid, vm.rows().size(), status,
                buttons, 900);
        return dialog;
    }
}
