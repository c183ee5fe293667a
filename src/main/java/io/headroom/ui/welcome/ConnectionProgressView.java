package io.headroom.ui.welcome;

import io.headroom.ui.Styles;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.Duration;

/**
 * The connection progress over a console opened from a workloads file: one line per endpoint
 * (Prometheus, each context) with its state, Cancel while waiting, then the decisions. It closes
 * itself once everything answered.
 */
public final class ConnectionProgressView {
    public static final String ENDPOINTS_ID = "connect-endpoints";
    public static final String HEADLINE_ID = "connect-headline";
    public static final String CANCEL_ID = "connect-cancel";
    public static final String SANDBOX_ID = "connect-sandbox";
    public static final String EDIT_ID = "connect-edit";
    public static final String QUIT_ID = "connect-quit";
    public static final String CONTINUE_ID = "connect-continue";
    public static final String RETRY_ID = "connect-retry";

    private final Stage stage;
    private final Timeline poll;
    /** What it says (scrolls when the window is as tall as it may be) and the buttons under it (always in view). */
    private final VBox said;
    private final VBox buttons;

    public ConnectionProgressView(Window owner, ConnectionProgressViewModel vm, Runnable sandbox, Runnable edit,
                                  Runnable quit) {
        this(owner, vm, sandbox, edit, quit, null);
    }

    /** @param retry "Try again" (offered among the decisions), or null for none */
    public ConnectionProgressView(Window owner, ConnectionProgressViewModel vm, Runnable sandbox, Runnable edit,
                                  Runnable quit, Runnable retry) {
        Label headline = new Label();
        headline.setId(HEADLINE_ID);
        headline.setWrapText(true);
        headline.textProperty().bind(vm.headline);
        VBox list = new VBox(4);
        list.setId(ENDPOINTS_ID);
        // Drawn now and on every change: the lines the view model read before this window existed
        // (every endpoint still connecting) are the ones the operator must see first.
        Runnable draw = () -> {
            list.getChildren().clear();
            for (int i = 0; i < vm.lines.size(); i++) {
                Label l = new Label(vm.lines.get(i));
                l.setWrapText(true);
                l.getStyleClass().add(switch (i < vm.states.size() ? vm.states.get(i) : io.headroom.session.Endpoints.State.CONNECTING) {
                    case OK -> Styles.OK;
                    case FAILED -> Styles.DANGER;
                    case TIMED_OUT -> Styles.WARN;
                    case CONNECTING -> Styles.MUTED;
                });
                list.getChildren().add(l);
            }
        };
        vm.lines.addListener((javafx.collections.ListChangeListener<String>) c -> draw.run());
        draw.run();
        Button cancel = new Button("Cancel");
        cancel.setId(CANCEL_ID);
        cancel.setOnAction(e -> vm.cancel());
        cancel.visibleProperty().bind(vm.choosing().not());
        cancel.managedProperty().bind(cancel.visibleProperty());
        Button toSandbox = new Button("Open the sandbox instead");
        toSandbox.setId(SANDBOX_ID);
        Button toEdit = new Button();
        toEdit.textProperty().bind(vm.editLabel);
        toEdit.setId(EDIT_ID);
        Button again = new Button("Try again");
        again.setId(RETRY_ID);
        again.setVisible(retry != null);
        again.managedProperty().bind(again.visibleProperty());
        Button toQuit = new Button("Quit");
        toQuit.setId(QUIT_ID);
        Button goOn = new Button("Go on with what answers");
        goOn.setId(CONTINUE_ID);
        goOn.visibleProperty().bind(vm.canGoOn());
        goOn.managedProperty().bind(goOn.visibleProperty());
        // The choices wrap inside the window's width rather than run past its edge.
        javafx.scene.layout.FlowPane choices = new javafx.scene.layout.FlowPane(8, 8, goOn, again, toSandbox, toEdit,
                toQuit);
        choices.setPrefWrapLength(600);
        choices.visibleProperty().bind(vm.choosing());
        choices.managedProperty().bind(choices.visibleProperty());
        Label title = new Label();
        title.textProperty().bind(vm.title);
        title.getStyleClass().add(Styles.HEADLINE);
        // What it says scrolls; the buttons stay under it, inside the window, however long the reasons get.
        said = new VBox(12, title, headline, list);
        said.setPadding(new Insets(20, 20, 0, 20));
        javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(said);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("edge-to-edge");
        buttons = new VBox(12, new HBox(8, cancel), choices);
        buttons.setPadding(new Insets(12, 20, 20, 20));
        javafx.scene.layout.BorderPane root = new javafx.scene.layout.BorderPane(scroll);
        root.setBottom(buttons);
        root.setPrefWidth(640);
        stage = Windows.modal(owner, root, "Headroom — connecting", vm::cancel);
        io.headroom.ui.fx.DialogFit.keepInside(stage);
        stage.setOnCloseRequest(e -> {
            e.consume();
            vm.cancel();
        });
        // The window was sized for "connecting": the reasons and the choices that follow make it grow,
        // so they are never below its bottom edge.
        vm.choosing().addListener((o, was, is) -> fit());
        vm.lines.addListener((javafx.collections.ListChangeListener<String>) c -> fit());
        vm.headline.addListener((o, a, b) -> fit());
        poll = new Timeline(new KeyFrame(Duration.millis(250), e -> vm.refresh()));
        poll.setCycleCount(Timeline.INDEFINITE);
        vm.done().addListener((o, was, is) -> {
            if (is) {
                close();
            }
        });
        goOn.setOnAction(e -> close());
        toSandbox.setOnAction(e -> {
            close();
            sandbox.run();
        });
        toEdit.setOnAction(e -> {
            if (vm.canGoOn().get()) {
                close();
            } else {
                vm.edited(); // nothing behind the dialog: it stays, for Try again once the file is saved
            }
            edit.run();
        });
        if (retry != null) {
            again.setOnAction(e -> {
                close();
                retry.run();
            });
        }
        toQuit.setOnAction(e -> quit.run());
    }

    /**
     * Sizes the window to what it shows now (after this pulse's layout); {@link io.headroom.ui.fx.DialogFit} keeps
     * it inside the console's window, what it says scrolling. The content's height is asked for through the
     * scene (its root's preferred height, then sizeToScene), never added to the window's own height: a window
     * system that resizes later (GTK) still reported the old scene height, so each of several fits in a row
     * added the difference again and the window grew past the screen's edge, Quit out of sight (issue 28).
     */
    private void fit() {
        io.headroom.ui.fx.FxExecutor.nextTurn(() -> {
            if (!stage.isShowing()) {
                return;
            }
            javafx.scene.layout.Region root = (javafx.scene.layout.Region) stage.getScene().getRoot();
            root.applyCss();
            root.layout();
            // Measured at the width it has (wrapped lines and button rows as drawn), not at a wider preferred one.
            double w = stage.getScene().getWidth();
            double h = Math.ceil(said.prefHeight(w) + buttons.prefHeight(w));
            if (Math.abs(h - root.getPrefHeight()) > 0.5) {
                root.setPrefHeight(h);
                stage.sizeToScene();
            }
        });
    }

    public void show() {
        poll.play();
        stage.show();
        fit();
    }

    public void close() {
        poll.stop();
        stage.hide();
    }

    public Stage stage() {
        return stage;
    }
}
