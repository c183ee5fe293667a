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

    private final Label problems = new Label();
    private final Label status = new Label();
    private final Button sandbox = new Button("Open the sandbox");
    private final Button edit = new Button("Edit the file");
    private final Button reload = new Button("Reload the file");
    private final Button quit = new Button("Quit");

    public ConfigProblemView(Path file, List<String> located) {
        super(12);
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
        Label ask = new Label("Open the built-in sandbox instead, edit the file and reload it, or quit.");
        ask.setWrapText(true);
        status.getStyleClass().add(Styles.MUTED);
        sandbox.setId(SANDBOX_ID);
        sandbox.setDefaultButton(true);
        edit.setId(EDIT_ID);
        reload.setId(RELOAD_ID);
        quit.setId(QUIT_ID);
        quit.setCancelButton(true);
        HBox buttons = new HBox(8, sandbox, edit, reload, quit);
        getChildren().addAll(title, path, problems, ask, buttons, status);
    }

    /** "Open the sandbox": the sandbox opens with a standing warning naming the file. */
    public void setOnSandbox(Runnable r) {
        sandbox.setOnAction(e -> {
            working("Opening the sandbox …");
            r.run();
        });
    }

    /** "Edit the file": the desktop's editor opens it; "Reload the file" reads it again. */
    public void setOnEdit(Runnable r) {
        edit.setOnAction(e -> {
            r.run();
            status.setText("Save the file, then choose Reload the file.");
            reload.setDefaultButton(true);
            sandbox.setDefaultButton(false);
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

    /** What happened to the last choice (the editor could not be started, …). */
    public void setStatus(String text) {
        status.setText(text);
    }

    private void working(String text) {
        status.setText(text);
        sandbox.setDisable(true);
        reload.setDisable(true);
        edit.setDisable(true);
    }
}
