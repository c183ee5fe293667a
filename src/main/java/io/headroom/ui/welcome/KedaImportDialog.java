package io.headroom.ui.welcome;

import io.headroom.session.KedaImport;
import io.headroom.ui.Styles;
import io.headroom.ui.fx.TextCell;
import java.nio.file.Path;
import java.util.function.Consumer;
import javafx.geometry.Insets;
import javafx.scene.control.Button;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;
import javafx.util.StringConverter;

/**
 * The guided import from KEDA ({@link KedaImportViewModel}): context and namespace from the
 * kubeconfig, the ScaledObjects found and what each becomes, then Save and open.
 */
public final class KedaImportDialog {
    public static final String CONTEXT_ID = "import-context";
    public static final String NAMESPACE_ID = "import-namespace";
    public static final String FIND_ID = "import-find";
    public static final String FOUND_ID = "import-found";
    public static final String PROMETHEUS_ID = "import-prometheus";
    public static final String FILE_ID = "import-file";
    public static final String SAVE_ID = "import-save";
    public static final String STATUS_ID = "import-status";

    private final Stage stage;

    /** @param saved hears the new workloads file once written (on the FX thread); the dialog closes */
    public KedaImportDialog(Window owner, KedaImportViewModel vm, Consumer<Path> saved) {
        ComboBox<KedaImport.Context> context = new ComboBox<>(vm.contexts);
        context.setId(CONTEXT_ID);
        context.valueProperty().bindBidirectional(vm.context);
        context.setConverter(new StringConverter<>() {
            @Override
            public String toString(KedaImport.Context c) {
                if (c == null) {
                    return "";
                }
                String name = c.name() + (c.current() ? " (current)" : "");
                return c.usable() ? name + " — " + c.server() : name + " — cannot be opened ("
                        + c.problems().size() + (c.problems().size() == 1 ? " problem)" : " problems)");
            }

            @Override
            public KedaImport.Context fromString(String s) {
                return null;
            }
        });
        context.setMaxWidth(Double.MAX_VALUE);
        TextField namespace = new TextField();
        namespace.setId(NAMESPACE_ID);
        namespace.textProperty().bindBidirectional(vm.namespace);
        namespace.setPromptText("namespace");
        Button find = new Button("Find ScaledObjects");
        find.setId(FIND_ID);
        find.disableProperty().bind(vm.canFind().not());
        find.setOnAction(e -> vm.find());
        namespace.setOnAction(e -> vm.find());

        ListView<KedaImport.Found> found = new ListView<>(vm.found);
        found.setId(FOUND_ID);
        found.setPrefHeight(200);
        found.setPlaceholder(new Label("Nothing found yet."));
        found.setCellFactory(l -> new TextCell<>(KedaImportViewModel::summary, f -> String.join("\n", f.notes())));

        TextField prometheus = new TextField();
        prometheus.setId(PROMETHEUS_ID);
        prometheus.textProperty().bindBidirectional(vm.prometheusUrl);
        TextField file = new TextField();
        file.setId(FILE_ID);
        file.textProperty().bindBidirectional(vm.file);

        GridPane form = new GridPane();
        form.setHgap(8);
        form.setVgap(8);
        form.addRow(0, new Label("Context"), context);
        form.addRow(1, new Label("Namespace"), new HBox(8, namespace, find));
        form.addRow(2, new Label("Prometheus URL"), prometheus);
        form.addRow(3, new Label("Save as"), file);
        GridPane.setHgrow(context, Priority.ALWAYS);
        GridPane.setHgrow(prometheus, Priority.ALWAYS);
        GridPane.setHgrow(file, Priority.ALWAYS);

        Label status = new Label();
        status.setId(STATUS_ID);
        status.setWrapText(true);
        status.textProperty().bind(vm.status());
        status.getStyleClass().add(Styles.MUTED);

        Button save = new Button("Save and open");
        save.setId(SAVE_ID);
        save.setDefaultButton(true);
        save.disableProperty().bind(vm.canSave().not());
        Button cancel = new Button("Cancel");
        HBox buttons = new HBox(8, save, cancel);

        Label title = new Label("Import from KEDA");
        title.getStyleClass().add(Styles.HEADLINE);
        VBox root = new VBox(10, title, form, new Label("ScaledObjects found, and the class each becomes"), found,
                status, buttons);
        root.setPadding(new Insets(20));
        root.setPrefWidth(680);
        stage = Windows.modal(owner, root, "Import from KEDA", this::close);
        cancel.setOnAction(e -> close());
        save.setOnAction(e -> vm.save(p -> {
            saved.accept(p); // first: closing after it is not an answer of its own
            close();
        }));
        vm.load();
    }

    public void show() {
        stage.show();
        stage.centerOnScreen();
    }

    public void close() {
        stage.hide();
    }

    public Stage stage() {
        return stage;
    }
}
