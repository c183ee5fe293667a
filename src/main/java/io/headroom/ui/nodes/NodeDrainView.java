package io.headroom.ui.nodes;

import io.headroom.ui.Styles;
import java.time.Duration;
import javafx.beans.binding.Bindings;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Spinner;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The node drain window (thin: it binds {@link NodeDrainViewModel}): the nodes, the selected node's
 * drain pod by pod, every PodDisruptionBudget refusal, and Drain / Cancel drain / Uncordon.
 */
public final class NodeDrainView extends BorderPane {
    public static final String TABLE_ID = "nodes-table";
    public static final String DRAIN_ID = "nodes-drain";
    public static final String CANCEL_ID = "nodes-cancel";
    public static final String UNCORDON_ID = "nodes-uncordon";
    public static final String STATE_ID = "nodes-drain-state";
    public static final String PODS_ID = "nodes-pods";
    public static final String REFUSALS_ID = "nodes-refusals";
    public static final String STATUS_ID = "nodes-status";
    /** The warning about nodes Headroom cordoned with no drain of this console running. */
    public static final String LEFT_CORDONED_ID = "nodes-left-cordoned";
    /** The style class of the node name column (its cells cut names in the middle). */
    public static final String NAME_COLUMN = "nodes-name";

    public NodeDrainView(NodeDrainViewModel vm) {
        setPadding(new Insets(12));

        TableView<NodeDrainViewModel.NodeRow> table = new TableView<>(vm.nodes());
        table.setId(TABLE_ID);
        table.getColumns().add(nameColumn());
        table.getColumns().add(column("Schedulable", r -> r.cordoned() ? "cordoned" : "yes"));
        table.getColumns().add(column("Ready", r -> r.ready() ? "yes" : "NO"));
        table.getColumns().add(column("Pods", r -> Integer.toString(r.pods())));
        table.getColumns().add(column("Drain", NodeDrainViewModel.NodeRow::drain));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.getSelectionModel().selectedItemProperty().addListener((o, a, b) -> {
            if (b != null) {
                vm.selectedProperty().set(b);
            }
        });
        vm.selectedProperty().addListener((o, a, b) -> {
            if (b != null && table.getSelectionModel().getSelectedItem() != b) {
                table.getSelectionModel().select(b);
            }
        });

        Spinner<Integer> minutes = new Spinner<>(1, 240, (int) vm.deadlineProperty().get().toMinutes());
        minutes.setEditable(true);
        minutes.setPrefWidth(80);
        minutes.valueProperty().addListener((o, a, b) -> vm.deadlineProperty().set(Duration.ofMinutes(b)));
        TextField reason = new TextField();
        reason.setPromptText("reason (journaled)");
        reason.textProperty().bindBidirectional(vm.reasonProperty());
        HBox.setHgrow(reason, Priority.ALWAYS);

        Button refresh = new Button("Refresh");
        refresh.setOnAction(e -> vm.refresh());
        Button all = new Button("All nodes");
        all.setTooltip(new Tooltip("Every node of the context, not only those the class runs on"));
        all.visibleProperty().bind(vm.classFilterProperty().isNotNull());
        all.managedProperty().bind(all.visibleProperty());
        all.setOnAction(e -> {
            vm.classFilterProperty().set(null);
            vm.refresh();
        });
        Button drain = new Button("Drain node");
        drain.setId(DRAIN_ID);
        drain.setTooltip(new Tooltip("Cordon, drain Headroom's pods first (their jobs to 0), evict every pod through"
                + " the Eviction API; PodDisruptionBudget refusals are retried with back-off until the deadline"));
        drain.disableProperty().bind(vm.selectedProperty().isNull().or(vm.drainingProperty()));
        drain.setOnAction(e -> vm.askToDrain()); // asks first: the confirmation lists what it would evict
        vm.confirmationProperty().addListener((o, was, p) -> {
            if (p != null && getScene() != null) {
                NodeDrainConfirmView.open(getScene().getWindow(), vm, p);
            }
        });
        Button cancel = new Button("Cancel drain");
        cancel.setId(CANCEL_ID);
        cancel.disableProperty().bind(vm.drainingProperty().not());
        cancel.setOnAction(e -> vm.cancel());
        Button uncordon = new Button("Uncordon");
        uncordon.setId(UNCORDON_ID);
        uncordon.disableProperty().bind(Bindings.createBooleanBinding(() -> vm.selectedProperty().get() == null
                || !vm.selectedProperty().get().cordoned() || vm.drainingProperty().get(), vm.selectedProperty(),
                vm.drainingProperty()));
        uncordon.setOnAction(e -> vm.uncordon());
        HBox actions = new HBox(8, refresh, all, new Label("Deadline (min)"), minutes, reason, drain, cancel, uncordon);

        Label state = new Label();
        state.setId(STATE_ID);
        state.setWrapText(true);
        state.textProperty().bind(vm.drainStateProperty());
        ListView<String> pods = new ListView<>(vm.pods());
        pods.setId(PODS_ID);
        Label refusalsTitle = new Label("Refusals (PodDisruptionBudget 429s and failures), newest first");
        refusalsTitle.getStyleClass().add(Styles.SECTION_TITLE);
        ListView<String> refusals = new ListView<>(vm.refusals());
        refusals.setId(REFUSALS_ID);
        VBox drainBox = new VBox(6, state, pods, refusalsTitle, refusals);
        VBox.setVgrow(pods, Priority.ALWAYS);
        VBox.setVgrow(refusals, Priority.ALWAYS);

        SplitPane split = new SplitPane(table, drainBox);
        split.setDividerPositions(0.4);
        Label status = new Label();
        status.setId(STATUS_ID);
        status.textProperty().bind(vm.statusProperty());
        status.setWrapText(true);
        status.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        status.getStyleClass().add(Styles.MUTED);
        Label left = new Label();
        left.setId(LEFT_CORDONED_ID);
        left.setWrapText(true);
        left.getStyleClass().add(Styles.BAD);
        left.textProperty().bind(vm.leftCordonedProperty());
        left.visibleProperty().bind(vm.leftCordonedProperty().isNotEmpty());
        left.managedProperty().bind(left.visibleProperty());
        setTop(new VBox(6, left, actions));
        setCenter(split);
        setBottom(status);
        BorderPane.setMargin(split, new Insets(8, 0, 8, 0));
    }

    /**
     * Node names whole where they fit, else cut in the middle ("sandbox…node-12"), never at the end where nodes
     * of one pool differ; the whole name in a tooltip.
     */
    private static TableColumn<NodeDrainViewModel.NodeRow, String> nameColumn() {
        TableColumn<NodeDrainViewModel.NodeRow, String> c = column("Node", NodeDrainViewModel.NodeRow::name);
        c.setPrefWidth(220);
        c.setMinWidth(120);
        c.setCellFactory(col -> new javafx.scene.control.TableCell<>() {
            {
                setTextOverrun(javafx.scene.control.OverrunStyle.CENTER_ELLIPSIS);
            }

            @Override
            protected void updateItem(String name, boolean empty) {
                super.updateItem(name, empty);
                setText(empty ? null : name);
                setTooltip(empty || name == null ? null : new Tooltip(name));
            }
        });
        c.getStyleClass().add(NAME_COLUMN);
        return c;
    }

    private static TableColumn<NodeDrainViewModel.NodeRow, String> column(String title,
            java.util.function.Function<NodeDrainViewModel.NodeRow, String> value) {
        TableColumn<NodeDrainViewModel.NodeRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(value.apply(f.getValue())));
        return c;
    }

    /** Opens the window, reads the nodes, and stops listening when it closes. */
    public static Stage open(Window owner, NodeDrainViewModel vm, String title) {
        NodeDrainView view = new NodeDrainView(vm);
        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.setTitle(title);
        Scene scene = new Scene(view, 1200, 640);
        Styles.install(scene);
        boolean light = owner != null && owner.getScene() != null
                && owner.getScene().getRoot().getStyleClass().contains(Styles.THEME_LIGHT);
        view.getStyleClass().add(light ? Styles.THEME_LIGHT : Styles.THEME_DARK);
        stage.setScene(scene);
        stage.setOnHidden(e -> vm.dispose());
        io.headroom.ui.fx.DialogFit.keepInside(stage); // at 1280×800 inside the console, its buttons in view
        stage.show();
        vm.refresh();
        return stage;
    }
}
