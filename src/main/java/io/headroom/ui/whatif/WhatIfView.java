package io.headroom.ui.whatif;

import io.headroom.ui.Styles;
import io.headroom.ui.chart.ChartSeries;
import io.headroom.ui.chart.ChartTheme;
import io.headroom.history.SeriesBuffer;
import io.headroom.ui.chart.SeriesKind;
import io.headroom.ui.chart.TimeAxis;
import io.headroom.ui.chart.TimeChart;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.Spinner;
import javafx.scene.control.SpinnerValueFactory;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The what-if window of one class: the policy fields on the left, the replay's comparison on the
 * right. Every edit replays; the live policy never changes from here.
 */
public final class WhatIfView extends BorderPane {
    public static final String TABLE_ID = "whatif-table";
    public static final String STATUS_ID = "whatif-status";
    public static final String MAX_REPLICAS_ID = "whatif-max-replicas";
    public static final String UTILIZATION_ID = "whatif-utilization";
    public static final String COPY_ID = "whatif-copy";
    public static final String APPLY_ID = "whatif-apply";
    public static final String SAVE_ID = "whatif-save";
    public static final String APPLY_REASON_ID = "whatif-apply-reason";

    public static final String KEDA_ID = "whatif-keda-list-length";

    /** Points per chart series: a 60-minute replay at a 1 s tick fits. */
    static final int CHART_POINTS = 4000;

    private final WhatIfViewModel vm;
    private List<TimeChart> charts = List.of();

    /** @param clock the session's clock (the replay's axis is labelled in its time) */
    public WhatIfView(WhatIfViewModel vm, java.time.Clock clock) {
        this.vm = vm;
        getStyleClass().add("whatif");
        setPadding(new Insets(12));

        GridPane edits = new GridPane();
        edits.setHgap(10);
        edits.setVgap(8);
        javafx.scene.layout.ColumnConstraints labels = new javafx.scene.layout.ColumnConstraints();
        labels.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE); // field names are never cut
        edits.getColumnConstraints().add(labels);
        int r = 0;
        Label head = new Label("Edit the policy");
        head.getStyleClass().add(Styles.SECTION_TITLE);
        edits.add(head, 0, r++, 2, 1);
        Spinner<Double> util = doubleSpinner(0.05, 1.0, 0.05, vm.targetUtilizationProperty().get());
        util.setId(UTILIZATION_ID);
        util.getValueFactory().valueProperty().bindBidirectional(vm.targetUtilizationProperty());
        edits.addRow(r++, field("Target utilization", "u: the share of slots to use at steady state"), util);
        Spinner<Integer> slots = intSpinner(1, 1000, vm.slotsPerReplicaProperty().get());
        slots.getValueFactory().valueProperty().bindBidirectional(vm.slotsPerReplicaProperty());
        edits.addRow(r++, field("Slots per replica", "k: jobs one pod works on at once (the replay's pods keep the"
                + " live value)"), slots);
        Spinner<Double> drain = doubleSpinner(1, 86_400, 10, vm.drainTargetSecondsProperty().get());
        drain.getValueFactory().valueProperty().bindBidirectional(vm.drainTargetSecondsProperty());
        edits.addRow(r++, field("Drain target (s)", "D: how fast a backlog should be worked off"), drain);
        TextField age = new TextField();
        age.setPromptText("none");
        age.setPrefColumnCount(8);
        age.textProperty().bindBidirectional(vm.maxAgeSecondsProperty());
        edits.addRow(r++, field("Age objective (s)", "the oldest job's age to stay under; blank for none"), age);
        Spinner<Integer> min = intSpinner(0, 1000, vm.minReplicasProperty().get());
        min.getValueFactory().valueProperty().bindBidirectional(vm.minReplicasProperty());
        edits.addRow(r++, field("Min replicas", null), min);
        Spinner<Integer> max = intSpinner(1, 1000, vm.maxReplicasProperty().get());
        max.setId(MAX_REPLICAS_ID);
        max.getValueFactory().valueProperty().bindBidirectional(vm.maxReplicasProperty());
        edits.addRow(r++, field("Max replicas", null), max);
        ChoiceBox<Integer> window = new ChoiceBox<>();
        window.getItems().addAll(15, 30, 60);
        window.valueProperty().bindBidirectional(vm.windowMinutesProperty());
        edits.addRow(r++, field("Replay the last (min)", "how much of the charted load to replay"), window);
        Spinner<Double> keda = doubleSpinner(0.5, 10_000, 1, vm.kedaListLengthProperty().get());
        keda.setId(KEDA_ID);
        keda.getValueFactory().valueProperty().bindBidirectional(vm.kedaListLengthProperty());
        edits.addRow(r++, field("KEDA listLength", "the third run: KEDA's queue-length rule, ceil(waiting jobs /"
                + " listLength) with the HPA's default behaviour and the live min/max, on the same load"), keda);
        for (WhatIfViewModel.CeilingEdit c : vm.ceilings()) {
            TextField cap = new TextField();
            cap.setPromptText("as live");
            cap.setPrefColumnCount(8);
            cap.setId("whatif-ceiling-" + c.name());
            cap.textProperty().bindBidirectional(c.capProperty());
            edits.addRow(r++, field("Ceiling " + c.name(), "live: " + c.describe() + ". A number caps it at that"
                    + " many replicas in the replay; blank keeps it"), cap);
        }
        Button reset = new Button("Back to the live policy");
        reset.setOnAction(e -> vm.reset());
        Button copy = new Button("Copy as YAML");
        copy.setId(COPY_ID);
        copy.setTooltip(new Tooltip("The edited policy as a policy: block for the workloads file, on the clipboard"));
        copy.setOnAction(e -> {
            String yaml = vm.editedYaml();
            if (yaml != null) {
                javafx.scene.input.ClipboardContent content = new javafx.scene.input.ClipboardContent();
                content.putString(yaml);
                javafx.scene.input.Clipboard.getSystemClipboard().setContent(content);
            }
        });
        Button apply = new Button("Apply to this console…");
        apply.setId(APPLY_ID);
        apply.setTooltip(new Tooltip("Make the edited policy this class's live policy here (journaled, undoable,"
                + " until reverted or the workloads file is read again)"));
        apply.disableProperty().bind(vm.canCommitProperty().not());
        apply.setOnAction(e -> {
            List<String> changes = vm.pendingChanges();
            if (changes == null) {
                return;
            }
            if (changes.isEmpty()) {
                vm.statusProperty().set("Nothing to apply: the edits are the live policy.");
                return;
            }
            askReason(apply.getScene().getWindow(), "Apply to this console — " + vm.className(),
                    "The live policy of " + vm.className() + " changes from the next tick:", "Apply", changes)
                    .ifPresent(vm::applyToConsole);
        });
        Button save = new Button("Save to workloads file…");
        save.setId(SAVE_ID);
        save.setTooltip(new Tooltip("Write the changed values into the workloads file in place (comments kept, a .bak"
                + " beside it), then reload it"));
        save.disableProperty().bind(vm.canSaveProperty().not());
        save.setOnAction(e -> {
            List<String> changes = vm.pendingChanges();
            if (changes == null) {
                return;
            }
            if (changes.isEmpty()) {
                vm.statusProperty().set("Nothing to save: the edits are the live policy.");
                return;
            }
            askReason(save.getScene().getWindow(), "Save into " + vm.saveTarget() + " — " + vm.className(),
                    "These values of " + vm.className() + " are written into " + vm.saveTarget()
                            + ", which is then read again:", "Save", changes).ifPresent(vm::saveToFile);
        });
        edits.add(new HBox(8, reset, copy, apply), 0, r++, 2, 1);
        edits.add(new HBox(8, save), 0, r, 2, 1);

        TableView<WhatIfViewModel.Row> table = new TableView<>(vm.rows());
        table.setId(TABLE_ID);
        table.getColumns().addAll(List.of(column("", WhatIfViewModel.Row::what, 190),
                column("Live policy", WhatIfViewModel.Row::current, 170),
                column("Edited", WhatIfViewModel.Row::edited, 170),
                column("Change", WhatIfViewModel.Row::change, 110),
                column("KEDA's rule", WhatIfViewModel.Row::keda, 150)));
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("No replay yet"));
        Label status = new Label();
        status.setId(STATUS_ID);
        status.setWrapText(true);
        status.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        status.getStyleClass().add(Styles.MUTED);
        status.textProperty().bind(vm.statusProperty());
        table.setPrefHeight(215);
        table.setMinHeight(215);
        VBox results = new VBox(8, table, status);
        edits.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE); // the table gives way, not the fields
        HBox body = new HBox(16, edits, results);
        HBox.setHgrow(results, Priority.ALWAYS);
        setTop(body);

        // Both runs over the window: replicas, and the oldest job's age against the objective.
        TimeAxis axis = new TimeAxis(clock, java.time.ZoneId.systemDefault());
        axis.setFollowLive(false);
        TimeChart replicas = new TimeChart("Replicas over the replayed window", axis);
        replicas.setUnit("replicas");
        TimeChart ages = new TimeChart("Oldest age", axis);
        ages.setUnit("s");
        ChartSeries liveReplicas = replicas.addSeries("live policy", SeriesKind.STEP, new SeriesBuffer(CHART_POINTS));
        ChartSeries editedReplicas = replicas.addSeries("edited", SeriesKind.STEP, new SeriesBuffer(CHART_POINTS));
        editedReplicas.setDashed(true);
        ChartSeries liveAge = ages.addSeries("live policy", SeriesKind.LINE, new SeriesBuffer(CHART_POINTS));
        ChartSeries editedAge = ages.addSeries("edited", SeriesKind.LINE, new SeriesBuffer(CHART_POINTS));
        editedAge.setDashed(true);
        ChartSeries kedaReplicas = replicas.addSeries("KEDA's rule", SeriesKind.STEP, new SeriesBuffer(CHART_POINTS));
        ChartSeries kedaAge = ages.addSeries("KEDA's rule", SeriesKind.LINE, new SeriesBuffer(CHART_POINTS));
        charts = List.of(replicas, ages);
        VBox chartBox = new VBox(8, replicas, ages);
        chartBox.setPadding(new Insets(12, 0, 0, 0));
        VBox.setVgrow(replicas, Priority.ALWAYS);
        VBox.setVgrow(ages, Priority.ALWAYS);
        setCenter(chartBox);
        vm.comparisonProperty().addListener((o, a, c) -> {
            for (ChartSeries cs : List.of(liveReplicas, editedReplicas, liveAge, editedAge, kedaReplicas, kedaAge)) {
                cs.getBuffer().clear();
            }
            if (c != null) {
                for (var t : c.current().ticks()) {
                    liveReplicas.getBuffer().append(c.start() + t.t(), t.replicas());
                    liveAge.getBuffer().append(c.start() + t.t(), t.oldestAgeSeconds());
                }
                for (var t : c.edited().ticks()) {
                    editedReplicas.getBuffer().append(c.start() + t.t(), t.replicas());
                    editedAge.getBuffer().append(c.start() + t.t(), t.oldestAgeSeconds());
                }
                if (c.baseline() != null) {
                    for (var t : c.baseline().ticks()) {
                        kedaReplicas.getBuffer().append(c.start() + t.t(), t.replicas());
                        kedaAge.getBuffer().append(c.start() + t.t(), t.oldestAgeSeconds());
                    }
                }
                axis.setWindowLength(Math.max(60, c.seconds()));
                axis.setWindowEnd(c.start() + c.seconds());
            }
            charts.forEach(TimeChart::requestRedraw);
        });

        // Every edit replays (in the background); a result overtaken by a later edit is dropped.
        javafx.beans.InvalidationListener replay = o -> vm.replay();
        List<javafx.beans.Observable> edited = new java.util.ArrayList<>(List.of(vm.targetUtilizationProperty(),
                vm.slotsPerReplicaProperty(), vm.drainTargetSecondsProperty(), vm.maxAgeSecondsProperty(),
                vm.minReplicasProperty(), vm.maxReplicasProperty(), vm.windowMinutesProperty(),
                vm.kedaListLengthProperty()));
        vm.ceilings().forEach(c -> edited.add(c.capProperty()));
        for (javafx.beans.Observable p : edited) {
            p.addListener(replay);
        }
    }

    /** Opens the window beside the console, themed like it, and replays once. */
    public static Stage open(Window owner, WhatIfViewModel vm, java.time.Clock clock) {
        WhatIfView view = new WhatIfView(vm, clock);
        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.setTitle("What if — " + vm.className() + " (nothing is applied)");
        Scene scene = new Scene(view, 1160, 760);
        Styles.install(scene);
        boolean light = owner != null && owner.getScene() != null
                && owner.getScene().getRoot().getStyleClass().contains(Styles.THEME_LIGHT);
        view.getStyleClass().add(light ? Styles.THEME_LIGHT : Styles.THEME_DARK);
        view.charts.forEach(c -> c.setTheme(light ? ChartTheme.light() : ChartTheme.dark()));
        stage.setScene(scene);
        stage.show();
        vm.replay();
        return stage;
    }

    private static Label field(String text, String tip) {
        Label l = new Label(text);
        if (tip != null) {
            l.setTooltip(new Tooltip(tip));
        }
        return l;
    }

    private static Spinner<Double> doubleSpinner(double min, double max, double step, double value) {
        Spinner<Double> s = new Spinner<>(new SpinnerValueFactory.DoubleSpinnerValueFactory(min, max, value, step));
        s.setEditable(true);
        s.setPrefWidth(110);
        return s;
    }

    private static Spinner<Integer> intSpinner(int min, int max, int value) {
        Spinner<Integer> s = new Spinner<>(min, max, value);
        s.setEditable(true);
        s.setPrefWidth(110);
        return s;
    }

    private static TableColumn<WhatIfViewModel.Row, String> column(String title,
            java.util.function.Function<WhatIfViewModel.Row, String> value, double width) {
        TableColumn<WhatIfViewModel.Row, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyStringWrapper(value.apply(f.getValue())));
        c.setPrefWidth(width);
        c.setSortable(false);
        return c;
    }

    /** Shows what would change and asks why; empty when cancelled. A reason is required: the team sees it. */
    static java.util.Optional<String> askReason(javafx.stage.Window owner, String title, String header, String action,
                                                List<String> changes) {
        javafx.scene.control.Dialog<String> d = new javafx.scene.control.Dialog<>();
        d.initOwner(owner);
        d.setTitle(title);
        d.setHeaderText(header);
        javafx.scene.control.TextField reason = new javafx.scene.control.TextField();
        reason.setId(APPLY_REASON_ID);
        reason.setPromptText("why (journaled and posted for the team)");
        Label list = new Label(String.join("\n", changes));
        list.getStyleClass().add(Styles.NUMERIC);
        d.getDialogPane().setContent(new VBox(8, list, reason));
        javafx.scene.control.ButtonType ok = new javafx.scene.control.ButtonType(action,
                javafx.scene.control.ButtonBar.ButtonData.OK_DONE);
        d.getDialogPane().getButtonTypes().addAll(ok, javafx.scene.control.ButtonType.CANCEL);
        d.getDialogPane().lookupButton(ok).disableProperty().bind(reason.textProperty().isEmpty());
        io.headroom.ui.supervise.Dialogs.styled(d);
        d.setOnShown(e -> reason.requestFocus());
        d.setResultConverter(b -> b == ok ? reason.getText().trim() : null);
        return d.showAndWait();
    }
}
