package io.headroom.ui.nodes;

import io.headroom.drain.NodeDrainPreview;
import io.headroom.ui.Styles;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Modality;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The confirmation before a node drain starts (thin: the words are {@link NodeDrainConfirmWords}'): the node and
 * the classes by name, the pods to evict per class, the budgets and what they allow now, what will wait, what
 * is left alone; Drain starts it, Cancel (or Escape, or closing the window) starts nothing. What it lists
 * scrolls; the buttons stay in view inside the console's window.
 */
public final class NodeDrainConfirmView {
    public static final String ID = "node-drain-confirm";
    public static final String PODS_ID = "node-drain-confirm-pods";
    public static final String WAITS_ID = "node-drain-confirm-waits";
    public static final String CONFIRM_ID = "node-drain-confirm-drain";
    public static final String CANCEL_ID = "node-drain-confirm-cancel";

    private NodeDrainConfirmView() {
    }

    /** Opens the confirmation of {@code p} over {@code owner}; {@code vm} hears the answer. */
    public static Stage open(Window owner, NodeDrainViewModel vm, NodeDrainPreview p) {
        NodeDrainConfirmWords w = new NodeDrainConfirmWords(p, vm.deadlineProperty().get());
        Label heading = new Label(w.heading());
        heading.getStyleClass().add(Styles.SECTION_TITLE);
        heading.setWrapText(true);
        Label intro = wrapped(w.intro());
        VBox pods = new VBox(4);
        pods.setId(PODS_ID);
        for (NodeDrainConfirmWords.Section s : w.groups()) {
            pods.getChildren().add(section(s));
        }
        VBox said = new VBox(10, heading, intro, pods);
        if (!w.budgets().lines().isEmpty()) {
            said.getChildren().add(section(w.budgets()));
        }
        VBox waits = section(w.waits());
        waits.setId(WAITS_ID);
        said.getChildren().add(waits);
        if (!w.left().lines().isEmpty()) {
            said.getChildren().add(section(w.left()));
        }
        said.setPadding(new Insets(20, 20, 8, 20));
        ScrollPane scroll = new ScrollPane(said);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("edge-to-edge");

        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.initModality(Modality.WINDOW_MODAL);
        stage.setTitle("Headroom — " + w.heading());
        Button cancel = new Button("Cancel");
        cancel.setId(CANCEL_ID);
        cancel.setCancelButton(true);
        Button drain = new Button(w.confirmLabel());
        drain.setId(CONFIRM_ID);
        drain.setDisable(p.refused() != null);
        drain.getStyleClass().add(Styles.DANGER);
        boolean[] answered = {false};
        cancel.setOnAction(e -> {
            answered[0] = true;
            stage.close();
            vm.dismissConfirmation();
        });
        drain.setOnAction(e -> {
            answered[0] = true;
            stage.close();
            vm.confirmDrain();
        });
        stage.setOnHidden(e -> {
            if (!answered[0]) {
                vm.dismissConfirmation(); // closed or Escape: nothing starts
            }
        });
        Region gap = new Region();
        HBox.setHgrow(gap, Priority.ALWAYS);
        HBox buttons = new HBox(8, gap, cancel, drain);
        buttons.setPadding(new Insets(12, 20, 20, 20));
        BorderPane root = new BorderPane(scroll);
        root.setId(ID);
        root.setBottom(buttons);
        root.setPrefWidth(720);
        Scene scene = new Scene(root);
        Styles.install(scene);
        if (owner != null && owner.getScene() != null) {
            root.getStyleClass().addAll(owner.getScene().getRoot().getStyleClass().filtered(
                    c -> c.equals(Styles.THEME_DARK) || c.equals(Styles.THEME_LIGHT)));
        }
        Styles.paintDark(scene);
        stage.setScene(scene);
        io.headroom.ui.fx.EscapeCloses.install(stage);
        io.headroom.ui.fx.DialogFit.keepInside(stage);
        stage.show();
        cancel.requestFocus(); // Enter on a freshly opened confirmation starts nothing
        return stage;
    }

    private static VBox section(NodeDrainConfirmWords.Section s) {
        Label title = new Label(s.title());
        title.getStyleClass().add(Styles.SECTION_TITLE);
        VBox box = new VBox(2, title);
        List<String> lines = s.lines();
        for (String line : lines) {
            box.getChildren().add(wrapped("  " + line));
        }
        return box;
    }

    private static Label wrapped(String text) {
        Label l = new Label(text);
        l.setWrapText(true);
        l.setMinHeight(Region.USE_PREF_SIZE);
        return l;
    }
}
