package io.headroom.ui.export;

import io.headroom.ui.Styles;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TextArea;
import javafx.scene.control.TextField;
import javafx.scene.input.ClipboardContent;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * "Export / apply as KEDA…" for one class: the ScaledObject YAML (copyable), the dry run's difference
 * against the live object, and Apply to cluster, which asks once more (with a reason for the journal)
 * before anything is written. The work is {@link ExportKedaViewModel}'s.
 */
public final class ExportKedaView {
    public static final String YAML_ID = "keda-yaml";
    public static final String DIFF_ID = "keda-diff";
    public static final String STATUS_ID = "keda-status";
    public static final String COPY_ID = "keda-copy";
    public static final String APPLY_ID = "keda-apply";
    public static final String CONFIRM_ID = "keda-confirm";
    public static final String BACK_ID = "keda-back";
    public static final String REASON_ID = "keda-reason";

    private ExportKedaView() {
    }

    /** Opens the window over {@code owner} (may be null) and starts the export and dry run. */
    public static Stage open(Window owner, ExportKedaViewModel vm) {
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle("Export / apply as KEDA — " + vm.className());

        Label yamlTitle = new Label("ScaledObject (what KEDA cannot express is listed as comments)");
        yamlTitle.getStyleClass().add(Styles.SECTION_TITLE);
        TextArea yaml = new TextArea();
        yaml.setId(YAML_ID);
        yaml.setEditable(false);
        yaml.setWrapText(false);
        yaml.setStyle("-fx-font-family: monospace;");
        yaml.textProperty().bind(vm.yamlProperty());
        VBox.setVgrow(yaml, Priority.ALWAYS);

        Label diffTitle = new Label("Server-side dry run: the difference against the live object");
        diffTitle.getStyleClass().add(Styles.SECTION_TITLE);
        TextArea diff = new TextArea();
        diff.setId(DIFF_ID);
        diff.setEditable(false);
        diff.setPrefRowCount(7);
        diff.setStyle("-fx-font-family: monospace;");
        diff.textProperty().bind(vm.diffProperty());

        Label status = new Label();
        status.setId(STATUS_ID);
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());

        Button copy = new Button("Copy YAML");
        copy.setId(COPY_ID);
        copy.disableProperty().bind(vm.yamlProperty().isEmpty());
        copy.setOnAction(e -> {
            ClipboardContent c = new ClipboardContent();
            c.putString(vm.yamlProperty().get());
            javafx.scene.input.Clipboard.getSystemClipboard().setContent(c);
        });
        Button apply = new Button("Apply to cluster…");
        apply.setId(APPLY_ID);
        apply.disableProperty().bind(vm.applicableProperty().not().or(vm.busyProperty()).or(vm.confirmingProperty()));
        apply.setOnAction(e -> vm.askToApply());
        Button close = new Button("Close");
        close.setCancelButton(true);
        close.setOnAction(e -> stage.close());

        TextField reason = new TextField();
        reason.setId(REASON_ID);
        reason.setPromptText("why (for the journal and the team's events)");
        HBox.setHgrow(reason, Priority.ALWAYS);
        Button confirm = new Button("Apply");
        confirm.setId(CONFIRM_ID);
        confirm.getStyleClass().add(Styles.DANGER);
        confirm.setOnAction(e -> vm.confirm(reason.getText()));
        Button back = new Button("Back");
        back.setId(BACK_ID);
        back.setOnAction(e -> vm.cancelApply());
        HBox confirmRow = new HBox(8, new Label("Reason:"), reason, back, confirm);
        confirmRow.visibleProperty().bind(vm.confirmingProperty());
        confirmRow.managedProperty().bind(vm.confirmingProperty());

        Region spring = new Region();
        HBox.setHgrow(spring, Priority.ALWAYS);
        HBox buttons = new HBox(8, copy, spring, close, apply);
        VBox root = new VBox(10, yamlTitle, yaml, diffTitle, diff, status, confirmRow, buttons);
        root.setPadding(new Insets(16));
        Scene scene = new Scene(root, 820, 700);
        Styles.install(scene);
        if (owner != null && owner.getScene() != null) {
            root.getStyleClass().addAll(owner.getScene().getRoot().getStyleClass().filtered(
                    c -> c.equals(Styles.THEME_DARK) || c.equals(Styles.THEME_LIGHT)));
        }
        Styles.paintDark(scene);
        stage.setScene(scene);
        stage.show();
        vm.load();
        return stage;
    }
}
