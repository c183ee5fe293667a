package io.headroom.ui.welcome;

import io.headroom.ui.Styles;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The first run's welcome, over the sandbox that is already running behind it: take the sandbox
 * tour (the console as it is), open a workloads file, or import from KEDA. Whichever is chosen, or
 * closing it, answers it for good (the console remembers it in the settings).
 */
public final class WelcomeView {
    public static final String TOUR_ID = "welcome-tour";
    public static final String OPEN_ID = "welcome-open-file";
    public static final String IMPORT_ID = "welcome-import-keda";
    public static final String ROOT_ID = "welcome";

    private final Stage stage;
    private Runnable onTour = () -> { };
    private Runnable onOpenFile = () -> { };
    private Runnable onImport = () -> { };

    public WelcomeView(Window owner) {
        Label title = new Label("Welcome to Headroom");
        title.getStyleClass().add(Styles.HEADLINE);
        Label what = new Label("Headroom runs the scaling loop for your queue workers locally and shows, per workload "
                + "class, why it wants the replicas it wants. Nothing is configured yet, so the built-in sandbox is "
                + "running behind this window: six simulated classes, each showing one behaviour.");
        what.setWrapText(true);
        Button tour = choice(TOUR_ID, "Take the sandbox tour",
                "Look around the simulated cluster; nothing real is touched. Settings… connects later.");
        Button open = choice(OPEN_ID, "Open a workloads file…",
                "A file naming Prometheus and each class's queries and kubeconfig context (" + io.headroom.BuildInfo.examples() + "/workloads.yaml).");
        Button keda = choice(IMPORT_ID, "Import from KEDA…",
                "Pick a kubeconfig context and namespace; its ScaledObjects become a workloads file to review.");
        tour.setDefaultButton(true);
        Label note = new Label("This shows once. Escape or closing the window takes the tour.");
        note.getStyleClass().add(Styles.MUTED);
        VBox root = new VBox(12, title, what, tour, open, keda, note);
        root.setId(ROOT_ID);
        root.setPadding(new Insets(24));
        root.setPrefWidth(560);
        root.setAlignment(Pos.TOP_LEFT);
        stage = Windows.modal(owner, root, "Welcome to Headroom", () -> choose(onTour));
        stage.setOnCloseRequest(e -> choose(onTour));
        tour.setOnAction(e -> choose(onTour));
        open.setOnAction(e -> choose(onOpenFile));
        keda.setOnAction(e -> choose(onImport));
    }

    private static Button choice(String id, String text, String detail) {
        Button b = new Button(text + "\n" + detail);
        b.setId(id);
        b.setWrapText(true);
        b.setMaxWidth(Double.MAX_VALUE);
        b.setAlignment(Pos.CENTER_LEFT);
        b.setAccessibleText(text + ". " + detail);
        return b;
    }

    private void choose(Runnable r) {
        stage.hide();
        r.run();
    }

    public void setOnTour(Runnable r) {
        onTour = r;
    }

    public void setOnOpenFile(Runnable r) {
        onOpenFile = r;
    }

    public void setOnImport(Runnable r) {
        onImport = r;
    }

    public void show() {
        stage.show();
        stage.centerOnScreen();
    }

    public Stage stage() {
        return stage;
    }
}
