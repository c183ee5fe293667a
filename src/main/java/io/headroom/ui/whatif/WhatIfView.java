package io.headroom.ui.whatif;

import io.headroom.ui.Styles;
import io.headroom.ui.chart.ChartSeries;
import io.headroom.ui.chart.ChartTheme;
import io.headroom.history.SeriesBuffer;
import io.headroom.ui.chart.SeriesKind;
import io.headroom.ui.chart.TimeAxis;
import io.headroom.ui.chart.TimeChart;
import io.headroom.whatif.PolicyEdit;
import java.util.List;
import javafx.geometry.Insets;
import javafx.scene.Scene;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
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
    public static final String FLOORS_ID = "whatif-floors";
    public static final String TRADE_ID = "whatif-trade";
    /** The sentence under the table on what the predictive floors did. */
    public static final String PREDICTIVE_ID = "whatif-predictive";
    /** The table's column of the live policy with predictive floors. */
    public static final String PREDICTIVE_COLUMN_ID = "whatif-predictive-column";
    public static final String UTILIZATION_ID = "whatif-utilization";
    public static final String COPY_ID = "whatif-copy";
    public static final String APPLY_ID = "whatif-apply";
    public static final String SAVE_ID = "whatif-save";
    public static final String APPLY_REASON_ID = "whatif-apply-reason";

    public static final String KEDA_ID = "whatif-keda-list-length";
    /** Admission off vs on and placement vs one pool (issue 30): their table and what it replayed. */
    public static final String LOOPS_TABLE_ID = "whatif-admission-placement";
    public static final String LOOPS_STATUS_ID = "whatif-admission-placement-status";
    public static final String MIN_REPLICAS_ID = "whatif-min-replicas";
    public static final String WINDOW_ID = "whatif-window";
    public static final String PINNED_ID = "whatif-pinned";
    public static final String MOVE_TO_NOW_ID = "whatif-move-to-now";
    public static final String PROGRESS_ID = "whatif-progress";
    public static final String CANCEL_ID = "whatif-cancel";
    /** The message under a field is the field's id with this suffix. */
    public static final String ERROR_SUFFIX = "-error";

    /** Points per chart series: a longer replay is reduced to the most of each group of ticks, so peaks stay. */
    static final int CHART_POINTS = 4000;

    static final List<String> VERDICT_CLASSES = List.of("whatif-better", "whatif-worse", "whatif-same");

    static String verdictClass(io.headroom.whatif.ComparisonTable.Verdict v) {
        return switch (v) {
            case BETTER -> "whatif-better";
            case WORSE -> "whatif-worse";
            case SAME -> "whatif-same";
            case NOT_JUDGED -> null;
        };
    }

    /** A run's replicas and ages into two series, at most {@link #CHART_POINTS} each (the highest of a group). */
    static void chart(List<io.headroom.sim.Simulator.TickLine> ticks, double start, ChartSeries replicas,
                      ChartSeries ages) {
        int group = Math.max(1, (ticks.size() + CHART_POINTS - 1) / CHART_POINTS);
        for (int i = 0; i < ticks.size(); i += group) {
            double r = Double.NEGATIVE_INFINITY;
            double a = Double.NEGATIVE_INFINITY;
            for (int j = i; j < Math.min(ticks.size(), i + group); j++) {
                r = Math.max(r, ticks.get(j).replicas());
                a = Math.max(a, ticks.get(j).oldestAgeSeconds());
            }
            double t = start + ticks.get(i).t();
            replicas.getBuffer().append(t, r);
            ages.getBuffer().append(t, a);
        }
    }

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
        // Every field is typed text with its unit beside it; an invalid value is refused (never
        // clamped) with a plain message under it, and Apply, Save and Copy wait until it is fixed.
        edits.addRow(r++, field("Target utilization", "u: the share of slots to use at steady state, more than 0 and"
                + " at most 1"), input(vm.input(PolicyEdit.Field.TARGET_UTILIZATION), UTILIZATION_ID));
        edits.addRow(r++, field("Slots per replica", "k: jobs one pod works on at once (the replay's pods keep the"
                + " live value)"), input(vm.input(PolicyEdit.Field.SLOTS_PER_REPLICA), "whatif-slots"));
        edits.addRow(r++, field("Drain target", "D: how fast a backlog should be worked off"),
                input(vm.input(PolicyEdit.Field.DRAIN_TARGET_SECONDS), "whatif-drain"));
        edits.addRow(r++, field("Age objective", "the oldest job's age to stay under; blank for none"),
                input(vm.input(PolicyEdit.Field.MAX_AGE_SECONDS), "whatif-age", "none"));
        edits.addRow(r++, field("Min replicas", null), input(vm.input(PolicyEdit.Field.MIN_REPLICAS), MIN_REPLICAS_ID));
        edits.addRow(r++, field("Max replicas", null), input(vm.input(PolicyEdit.Field.MAX_REPLICAS), MAX_REPLICAS_ID));
        edits.addRow(r++, field("Scheduled floors", "warm capacity bought for a time window, in the policy's time"
                + " zone: days from–to → replicas, several separated by ;  e.g. Mon–Fri 08:00–20:00 → 2"),
                input(vm.input(PolicyEdit.Field.SCHEDULED_FLOORS), FLOORS_ID, "none"));
        ChoiceBox<Integer> window = new ChoiceBox<>();
        window.setId(WINDOW_ID);
        window.getItems().addAll(WhatIfViewModel.WINDOW_CHOICES);
        window.setConverter(new javafx.util.StringConverter<>() {
            @Override
            public String toString(Integer m) {
                return m == null ? "" : WhatIfViewModel.minutes(m);
            }

            @Override
            public Integer fromString(String s) {
                return null;
            }
        });
        window.valueProperty().bindBidirectional(vm.windowMinutesProperty());
        Label pinned = new Label();
        pinned.setId(PINNED_ID);
        pinned.getStyleClass().add(Styles.MUTED);
        pinned.textProperty().bind(vm.pinnedProperty());
        Button now = new Button("Move to now");
        now.setId(MOVE_TO_NOW_ID);
        now.setTooltip(new Tooltip("Pin the compared window's end at the newest data and replay"));
        now.setOnAction(e -> vm.moveToNow());
        edits.addRow(r++, field("Replay", "how much of the class's history to replay (up to the day it keeps, or the"
                + " week: a point a minute);"
                + " the window stays pinned while you compare"), new VBox(4, window, new HBox(8, pinned, now)));
        edits.addRow(r++, field("KEDA listLength", "the third run: KEDA's queue-length rule, ceil(waiting jobs /"
                + " listLength) with the HPA's default behaviour and the live min/max, on the same load; 0 or blank"
                + " leaves it out"), input(vm.kedaListLength(), KEDA_ID));
        for (WhatIfViewModel.CeilingEdit c : vm.ceilings()) {
            edits.addRow(r++, field("Ceiling " + c.name(), "live: " + c.expression() + ". "
                    + switch (c.kind()) {
                        case BUDGET -> "The budget is edited; its per-replica amount is kept";
                        case REPLICAS -> "A number of replicas";
                        case SIGNAL -> "A number caps it at that many replicas in the replay; blank keeps it";
                    }), input(c.input(), "whatif-ceiling-" + c.name(), c.kind() == PolicyEdit.CeilingKind.SIGNAL
                    ? "as live" : null));
        }
        Button reset = new Button("Back to the live policy");
        reset.setOnAction(e -> vm.reset());
        Button copy = new Button("Copy as YAML");
        copy.setId(COPY_ID);
        copy.setTooltip(new Tooltip("The edited policy as a policy: block for the workloads file, on the clipboard"));
        copy.disableProperty().bind(vm.validProperty().not());
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
        apply.disableProperty().bind(vm.canCommitProperty().not().or(vm.validProperty().not()));
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
        save.disableProperty().bind(vm.canSaveProperty().not().or(vm.validProperty().not()));
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
        TableColumn<WhatIfViewModel.Row, String> editedColumn = column("Edited", WhatIfViewModel.Row::edited, 150);
        TableColumn<WhatIfViewModel.Row, String> changeColumn = column("Change", WhatIfViewModel.Row::change, 160);
        // The live policy with the floors auto mode would have held ahead of forecast rises (issue 29).
        TableColumn<WhatIfViewModel.Row, String> predictiveColumn = column("With predictive",
                WhatIfViewModel.Row::predictive, 150);
        predictiveColumn.setId(PREDICTIVE_COLUMN_ID);
        editedColumn.getStyleClass().add("whatif-judged");
        changeColumn.getStyleClass().add("whatif-judged");
        table.getColumns().addAll(List.of(column("", WhatIfViewModel.Row::what, 150),
                column("Live policy", WhatIfViewModel.Row::current, 150), editedColumn, changeColumn,
                column("KEDA's rule", WhatIfViewModel.Row::keda, 130), predictiveColumn));
        // Better / worse in colour and in words: the Change column says "▼ better", the colour repeats it.
        table.setRowFactory(t -> new javafx.scene.control.TableRow<>() {
            @Override
            protected void updateItem(WhatIfViewModel.Row row, boolean empty) {
                super.updateItem(row, empty);
                Styles.toggle(this, VERDICT_CLASSES, empty || row == null ? null : verdictClass(row.verdict()));
            }
        });
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
        javafx.scene.control.ProgressBar progress = new javafx.scene.control.ProgressBar();
        progress.setId(PROGRESS_ID);
        progress.setPrefWidth(220);
        progress.progressProperty().bind(vm.progressProperty());
        Button cancel = new Button("Cancel replay");
        cancel.setId(CANCEL_ID);
        cancel.setOnAction(e -> vm.cancel());
        HBox running = new HBox(8, progress, cancel);
        running.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        running.visibleProperty().bind(vm.runningProperty());
        running.managedProperty().bind(running.visibleProperty());
        Label trade = new Label();
        trade.setId(TRADE_ID);
        trade.setWrapText(true);
        trade.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        trade.textProperty().bind(vm.tradeProperty());
        trade.visibleProperty().bind(vm.tradeProperty().isNotEmpty());
        trade.managedProperty().bind(trade.visibleProperty());
        Label predictive = new Label();
        predictive.setId(PREDICTIVE_ID);
        predictive.setWrapText(true);
        predictive.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        predictive.textProperty().bind(vm.predictiveProperty());
        predictive.visibleProperty().bind(vm.predictiveProperty().isNotEmpty());
        predictive.managedProperty().bind(predictive.visibleProperty());
        VBox results = new VBox(8, table, trade, predictive, running, status);
        edits.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE); // the table gives way, not the fields
        HBox body = new HBox(16, edits, results);
        HBox.setHgrow(results, Priority.ALWAYS);
        if (vm.hasAdmissionPlacement()) {
            results.getChildren().add(admissionPlacement()); // issue 30: under the policy comparison
        }
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
        ChartSeries predictiveReplicas = replicas.addSeries("with predictive", SeriesKind.STEP,
                new SeriesBuffer(CHART_POINTS));
        ChartSeries predictiveAge = ages.addSeries("with predictive", SeriesKind.LINE, new SeriesBuffer(CHART_POINTS));
        charts = List.of(replicas, ages);
        VBox chartBox = new VBox(8, replicas, ages);
        chartBox.setPadding(new Insets(12, 0, 0, 0));
        VBox.setVgrow(replicas, Priority.ALWAYS);
        VBox.setVgrow(ages, Priority.ALWAYS);
        setCenter(chartBox);
        // The objectives on the age chart; the chart keeps every reference line inside its axis range.
        vm.objectives().addListener((javafx.collections.ListChangeListener<WhatIfViewModel.ObjectiveLine>) ch ->
                ages.getReferenceLines().setAll(vm.objectives().stream().map(l -> new io.headroom.ui.chart.ReferenceLine(
                        l.seconds(), l.label())).toList()));
        vm.comparisonProperty().addListener((o, a, c) -> {
            for (ChartSeries cs : List.of(liveReplicas, editedReplicas, liveAge, editedAge, kedaReplicas, kedaAge,
                    predictiveReplicas, predictiveAge)) {
                cs.getBuffer().clear();
            }
            if (c != null) {
                chart(c.current().ticks(), c.start(), liveReplicas, liveAge);
                chart(c.edited().ticks(), c.start(), editedReplicas, editedAge);
                if (c.baseline() != null) {
                    chart(c.baseline().ticks(), c.start(), kedaReplicas, kedaAge);
                }
                if (c.predictive() != null) {
                    chart(c.predictive().ticks(), c.start(), predictiveReplicas, predictiveAge);
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

    /**
     * Admission off vs on and placement vs one pool under the live policy (issue 30), for a class that publishes
     * admission or lists pools: one table, a header row naming each comparison, then what it replayed.
     */
    private javafx.scene.Node admissionPlacement() {
        Label title = new Label("Admission and placement, under the live policy");
        title.getStyleClass().add(Styles.SECTION_TITLE);
        TableView<WhatIfViewModel.Row> t = new TableView<>(vm.admissionPlacementRows());
        t.setId(LOOPS_TABLE_ID);
        TableColumn<WhatIfViewModel.Row, String> with = column("With", WhatIfViewModel.Row::edited, 190);
        TableColumn<WhatIfViewModel.Row, String> change = column("Change", WhatIfViewModel.Row::change, 130);
        with.getStyleClass().add("whatif-judged");
        change.getStyleClass().add("whatif-judged");
        t.getColumns().addAll(List.of(column("", WhatIfViewModel.Row::what, 210),
                column("Without", WhatIfViewModel.Row::current, 130), with, change));
        t.setRowFactory(x -> new javafx.scene.control.TableRow<>() {
            @Override
            protected void updateItem(WhatIfViewModel.Row row, boolean empty) {
                super.updateItem(row, empty);
                Styles.toggle(this, VERDICT_CLASSES, empty || row == null ? null : verdictClass(row.verdict()));
                Styles.toggle(this, List.of(Styles.SECTION_TITLE), !empty && row != null && row.change().isEmpty()
                        && (row.what().equals("Admission") || row.what().equals("Placement")) ? Styles.SECTION_TITLE
                        : null);
            }
        });
        t.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        t.setPlaceholder(new Label("Not replayed yet"));
        t.setPrefHeight(190);
        t.setMinHeight(120);
        Label said = new Label();
        said.setId(LOOPS_STATUS_ID);
        said.setWrapText(true);
        said.setMinHeight(javafx.scene.layout.Region.USE_PREF_SIZE);
        said.getStyleClass().add(Styles.MUTED);
        said.textProperty().bind(vm.admissionPlacementStatusProperty());
        return new VBox(4, title, t, said);
    }

    /** Opens the window beside the console, themed like it, and replays once. */
    public static Stage open(Window owner, WhatIfViewModel vm, java.time.Clock clock) {
        WhatIfView view = new WhatIfView(vm, clock);
        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.setTitle("What if — " + vm.className() + " (nothing is applied)");
        Scene scene = new Scene(view, 1160, 760);
        Styles.install(scene);
        var sheet = WhatIfView.class.getResource("/styles/whatif.css");
        if (sheet != null) {
            scene.getStylesheets().add(sheet.toExternalForm());
        }
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

    /** A text field with its unit beside it and its problem, when there is one, under it. */
    private static VBox input(WhatIfViewModel.Input in, String id) {
        return input(in, id, null);
    }

    private static VBox input(WhatIfViewModel.Input in, String id, String prompt) {
        TextField f = new TextField();
        f.setId(id);
        f.setPrefColumnCount(7);
        if (prompt != null) {
            f.setPromptText(prompt);
        }
        f.textProperty().bindBidirectional(in.textProperty());
        f.setAccessibleText(in.label() + " in " + in.unit());
        Label unit = new Label(in.unit());
        unit.getStyleClass().add(Styles.MUTED);
        unit.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        Label error = new Label();
        error.setId(id + ERROR_SUFFIX);
        error.getStyleClass().add("whatif-error");
        error.setWrapText(true);
        error.setMaxWidth(280);
        error.textProperty().bind(in.errorProperty());
        error.visibleProperty().bind(in.errorProperty().isNotEmpty());
        error.managedProperty().bind(error.visibleProperty());
        in.errorProperty().addListener((o, a, b) -> {
            Styles.toggle(f, List.of("whatif-invalid"), b.isEmpty() ? null : "whatif-invalid");
            f.setTooltip(b.isEmpty() ? null : new Tooltip(b));
        });
        HBox row = new HBox(6, f, unit);
        row.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        return new VBox(2, row, error);
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
