package io.headroom.ui.shell;

import io.headroom.session.Settings;
import io.headroom.ui.Styles;
import java.io.File;
import java.nio.file.Path;
import java.util.Optional;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.Label;
import javafx.scene.control.RadioButton;
import javafx.scene.control.TextField;
import javafx.scene.control.ToggleGroup;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/** Where the console connects: the built-in sandbox, or a workloads file (Prometheus + clusters). */
public final class SettingsDialog {
    public static final String FILE_ID = "settings-workloads-file";
    public static final String SANDBOX_ID = "settings-sandbox";
    public static final String FILE_CHOICE_ID = "settings-use-file";

    private SettingsDialog() {
    }

    public static Optional<Settings> show(Window owner, Settings current) {
        Dialog<Settings> d = new Dialog<>();
        d.initOwner(owner);
        d.setTitle("Headroom settings");
        d.setHeaderText("Where should the console connect?");
        ToggleGroup group = new ToggleGroup();
        RadioButton sandbox = new RadioButton("The built-in sandbox (simulated cluster and queues)");
        sandbox.setId(SANDBOX_ID);
        RadioButton file = new RadioButton("A workloads file: Prometheus and the classes' clusters (kubeconfig contexts)");
        file.setId(FILE_CHOICE_ID);
        sandbox.setToggleGroup(group);
        file.setToggleGroup(group);
        TextField path = new TextField(current.workloadsFile() == null ? "" : current.workloadsFile().toString());
        path.setId(FILE_ID);
        path.setPromptText("/path/to/workloads.yaml");
        HBox.setHgrow(path, Priority.ALWAYS);
        Button browse = new Button("Browse…");
        browse.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Choose a workloads file");
            fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("YAML", "*.yaml", "*.yml"));
            File f = fc.showOpenDialog(d.getDialogPane().getScene().getWindow());
            if (f != null) {
                path.setText(f.getAbsolutePath());
                file.setSelected(true);
            }
        });
        HBox row = new HBox(6, path, browse);
        row.disableProperty().bind(file.selectedProperty().not());
        Label note = new Label("The file names the Prometheus URL, its credentials (by file or environment "
                + "variable) and each class's context; see " + io.headroom.BuildInfo.examples() + "/README-workloads.md. The choice is "
                + "remembered across restarts; secrets are not stored here.");
        note.setWrapText(true);
        note.setMaxWidth(520);
        note.getStyleClass().add(Styles.MUTED);
        (current.workloadsFile() == null ? sandbox : file).setSelected(true);
        VBox box = new VBox(10, sandbox, file, row, note);
        box.setPadding(new Insets(10));
        d.getDialogPane().setContent(box);
        ButtonType connect = new ButtonType("Connect", ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(connect, ButtonType.CANCEL);
        d.getDialogPane().lookupButton(connect).disableProperty().bind(file.selectedProperty()
                .and(path.textProperty().isEmpty()));
        if (owner != null && owner.getScene() != null) {
            d.getDialogPane().getStylesheets().addAll(owner.getScene().getStylesheets());
            d.getDialogPane().getStyleClass().add(owner.getScene().getRoot().getStyleClass()
                    .contains(Styles.THEME_LIGHT) ? Styles.THEME_LIGHT : Styles.THEME_DARK);
        }
        d.setResultConverter(b -> b != connect ? null
                : current.withWorkloadsFile(sandbox.isSelected() ? null : Path.of(path.getText().trim())));
        return d.showAndWait();
    }
}
