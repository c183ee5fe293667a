package io.headroom.ui.shell;

import io.headroom.ui.Styles;
import java.nio.file.Path;
import java.util.List;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/**
 * Shown instead of the console when the workloads file has errors: each error located as
 * {@code FILE:LINE: field: message}, and the operator's choice: open the sandbox, edit the file
 * (then reload it), or quit. Nothing is opened until they choose.
 */
public final class ConfigProblemView extends VBox {
    public static final String PROBLEMS_ID = "config-problems";
    public static final String SANDBOX_ID = "config-open-sandbox";
    public static final String EDIT_ID = "config-edit";
    public static final String RELOAD_ID = "config-reload";
    public static final String QUIT_ID = "config-quit";
    /** The file's path, selectable, once "Edit the file" was chosen. */
    public static final String PATH_ID = "config-path";
    public static final String COPY_ID = "config-copy-path";
    public static final String STATUS_ID = "config-status";

    private final Label problems = new Label();
    private final Label status = new Label();
    private final Button sandbox = new Button("Open the sandbox");
    private final Button edit = new Button("Edit the file");
    private final Button reload = new Button("Reload the file");
    private final Button quit = new Button("Quit");
    private final javafx.scene.control.TextField pathField = new javafx.scene.control.TextField();
    private final Button copy = new Button("Copy the path");
    private final HBox where = new HBox(8, pathField, copy);
    private final Path file;

    public ConfigProblemView(Path file, List<String> located) {
        super(12);
        this.file = file;
        getStyleClass().add(Styles.THEME_DARK);
        setPadding(new Insets(32));
        setAlignment(Pos.TOP_LEFT);
        Label title = new Label("The workloads file has errors: nothing was opened");
        title.getStyleClass().add(Styles.SECTION_TITLE);
        Label path = new Label(file.toAbsolutePath().toString());
        path.getStyleClass().add(Styles.MUTED);
        problems.setId(PROBLEMS_ID);
        problems.setWrapText(true);
        problems.getStyleClass().add(Styles.NUMERIC);
        problems.setText(String.join("\n", located));
        Label ask = new Label("Fix the file and reload it (Enter), edit it from here, open the built-in sandbox"
                + " instead, or quit.");
        ask.setWrapText(true);
        status.getStyleClass().add(Styles.MUTED);
        status.setId(STATUS_ID);
        status.setWrapText(true);
        sandbox.setId(SANDBOX_ID);
        edit.setId(EDIT_ID);
        reload.setId(RELOAD_ID);
        // Enter reads the file again: an operator who fixed it in their own editor never lands in the sandbox
        // by a key; the sandbox is a choice made by its own button.
        reload.setDefaultButton(true);
        quit.setId(QUIT_ID);
        quit.setCancelButton(true);
        HBox buttons = new HBox(8, reload, edit, sandbox, quit);
        pathField.setId(PATH_ID);
        pathField.setEditable(false);
        pathField.setText(file.toAbsolutePath().toString());
        pathField.setPrefColumnCount(48);
        HBox.setHgrow(pathField, javafx.scene.layout.Priority.ALWAYS);
        copy.setId(COPY_ID);
        copy.setOnAction(e -> copyPath());
        where.setAlignment(Pos.CENTER_LEFT);
        where.setVisible(false);
        where.managedProperty().bind(where.visibleProperty());
        getChildren().addAll(title, path, problems, ask, buttons, status, where);
    }

    /** The file's path on the clipboard, for the operator's own editor. */
    private void copyPath() {
        javafx.scene.input.ClipboardContent c = new javafx.scene.input.ClipboardContent();
        c.putString(file.toAbsolutePath().toString());
        javafx.scene.input.Clipboard.getSystemClipboard().setContent(c);
        status.setText("Copied " + file.toAbsolutePath() + ": edit it, save it, then choose Reload the file.");
    }

    /** "Open the sandbox": the sandbox opens with a standing warning naming the file. */
    public void setOnSandbox(Runnable r) {
        sandbox.setOnAction(e -> {
            working("Opening the sandbox …");
            r.run();
        });
    }

    /**
     * "Edit the file": the desktop's editor is asked to open it; "Reload the file" reads it again. Whether an
     * editor opened cannot be known (a desktop without one ignores the request), so the path is shown, with a
     * button that copies it, every time: never a click that does nothing visible.
     */
    public void setOnEdit(Runnable r) {
        edit.setOnAction(e -> {
            status.setText("Asked the desktop to open " + file.toAbsolutePath() + " in its editor. If none opens,"
                    + " edit the file in yours (the path is below), save it, then choose Reload the file.");
            where.setVisible(true);
            r.run(); // a failure to start an editor replaces the status, saying why
        });
    }

    public void setOnReload(Runnable r) {
        reload.setOnAction(e -> {
            working("Reading the file again …");
            r.run();
        });
    }

    public void setOnQuit(Runnable r) {
        quit.setOnAction(e -> r.run());
    }

    /** What happened to the last choice (the editor could not be started, …); the path shows with it. */
    public void setStatus(String text) {
        status.setText(text);
        where.setVisible(true);
    }

    private void working(String text) {
        status.setText(text);
        sandbox.setDisable(true);
        reload.setDisable(true);
        edit.setDisable(true);
    }
}
