package io.headroom.ui.overview;

import io.headroom.ui.Format;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableValue;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** The overview: one row per class with its state and decision at a glance. Binds to the view model. */
public final class OverviewView extends VBox {
    public static final String TABLE_ID = "overview-table";

    private final TableView<ClassRow> table = new TableView<>() {
        @Override
        protected javafx.scene.control.Skin<?> createDefaultSkin() {
            return new javafx.scene.control.skin.TableViewSkin<>(this) {
                @Override
                protected javafx.scene.control.skin.VirtualFlow<javafx.scene.control.TableRow<ClassRow>> createVirtualFlow() {
                    return new RowFlow<>();
                }
            };
        }
    };
    private final javafx.scene.control.TextField filter = new javafx.scene.control.TextField();
    public static final String FILTER_ID = "overview-filter";
    private final javafx.beans.property.BooleanProperty filterActive = new javafx.beans.property.SimpleBooleanProperty();

    /** Short headers (the whole title is each header's tooltip), so the triage columns fit at 1280×800. */
    public static final String AGE = "Age";
    public static final String TREND_15 = "15 min";

    /** What each column shows, for its header's tooltip. */
    static final java.util.Map<String, String> HEADER_HELP = java.util.Map.ofEntries(
            java.util.Map.entry("Class", "Class: the workload class"),
            java.util.Map.entry("Mode", "Mode: observe, supervised or auto"),
            java.util.Map.entry("Queue", "Queue: jobs waiting"),
            java.util.Map.entry(AGE, "Oldest age: how long the oldest waiting job has waited, red over the"
                    + " class's age objective"),
            java.util.Map.entry(TREND_15, "Last 15 min: oldest age against its objective (dashed); the worst"
                    + " of it as × objective; ⚑ when it went over and cleared"),
            java.util.Map.entry("Work", "Work: queued · starting · executing · waiting approval · held back"),
            java.util.Map.entry("Arrivals/s", "Arrivals/s: jobs arriving per second"),
            java.util.Map.entry("Service", "Service: mean service time per job"),
            java.util.Map.entry("Slots", "Slots: the slot estimate (concurrent jobs needed)"),
            java.util.Map.entry("Replicas", "Replicas: current → desired, ready in brackets"),
            java.util.Map.entry("Ceiling", "Ceiling: the ceiling that binds the decision, and the replicas it allows"),
            java.util.Map.entry("Alerts", "Alerts: age breach, stalls, STUCK pods, ceilings, missing data, proposals, freezes,"
                    + " pins, drains, auto mode, admission"));

    /** Where {@link Tooltip#install} keeps a node's tooltip. */
    private static final String TOOLTIP_KEY = "javafx.scene.control.Tooltip";

    /** Installs each header's tooltip (once): its whole title and what the column shows. */
    private void explainHeaders() {
        for (javafx.scene.Node n : table.lookupAll(".column-header")) {
            if (n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null
                    && !h.getProperties().containsKey(TOOLTIP_KEY)) {
                String title = h.getTableColumn().getText();
                Tooltip.install(h, new Tooltip(HEADER_HELP.getOrDefault(title, title)));
            }
        }
    }

    /** Shows the filter and puts the cursor in it (the `/` key). */
    public void focusFilter() {
        filterActive.set(true);
        filter.requestFocus();
        filter.selectAll();
    }

    /** The bar over the rows while the operator's own sort is on: what it is, and the way back. */
    public static final String SORT_BAR_ID = "overview-sort";
    public static final String BY_SEVERITY_ID = "overview-by-severity";
    /** Style classes of this view's own cells. */
    static final String TREND = "trend";
    static final String WORK_BAR = "work-bar";
    static final String CLEARED = "cleared";

    private final OverviewViewModel vm;
    /** Columns that give way (hidden) when the table is too narrow for them, the first given up first. */
    private final List<TableColumn<ClassRow, ?>> optional = new java.util.ArrayList<>();
    private boolean syncingSort;
    private TableColumn<ClassRow, ClassRow.Badges> alerts;
    /** Room kept for the vertical scroll bar, so the alerts never end under it. */
    static final double SCROLL_BAR = 14;

    public OverviewView(OverviewViewModel vm) {
        this.vm = vm;
        getStyleClass().add(Styles.OVERVIEW);
        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        // Widths are set here (fitColumns): fixed for the figures, the rest of the row to the alerts.
        table.setColumnResizePolicy(TableView.UNCONSTRAINED_RESIZE_POLICY);
        table.setPlaceholder(new Label("Waiting for the first control tick…"));
        TableColumn<ClassRow, String> mode = textColumn("Mode", 196, 90, r -> r.modeProperty());
        TableColumn<ClassRow, Number> arrivals = numberColumn("Arrivals/s", 92, 80, r -> r.arrivalRateProperty(),
                Format::number);
        TableColumn<ClassRow, Number> service = numberColumn("Service", 76, 70, r -> r.serviceSecondsProperty(),
                v -> Double.isNaN(v) ? Format.NO_DATA : Format.number(v) + " s");
        TableColumn<ClassRow, Number> slots = slotsColumn();
        // "warehouse-quota 12", the longest of the sandbox's, whole; longer names show whole in the tooltip.
        TableColumn<ClassRow, String> ceiling = textColumn("Ceiling", 168, 84, r -> r.bindingCeilingProperty());
        // A binding ceiling the Ceiling column shows needs no CEILING chip: the alerts keep their room.
        TableColumn<ClassRow, ClassRow.Badges> alerts = alertsColumn(ceiling.visibleProperty());
        table.getColumns().setAll(List.of(
                sortsBy(nameColumn(), OverviewViewModel.Column.CLASS),
                sortsBy(numberColumn("Queue", 64, 60, r -> r.queueLengthProperty(), Format::number),
                        OverviewViewModel.Column.QUEUE),
                sortsBy(ageColumn(), OverviewViewModel.Column.AGE),
                sortsBy(trendColumn(), OverviewViewModel.Column.TREND),
                sortsBy(replicasColumn(), OverviewViewModel.Column.REPLICAS),
                sortsBy(workColumn(), OverviewViewModel.Column.WORK),
                sortsBy(mode, OverviewViewModel.Column.MODE),
                sortsBy(arrivals, OverviewViewModel.Column.ARRIVALS),
                sortsBy(service, OverviewViewModel.Column.SERVICE),
                sortsBy(slots, OverviewViewModel.Column.SLOTS),
                sortsBy(ceiling, OverviewViewModel.Column.CEILING),
                sortsBy(alerts, OverviewViewModel.Column.ALERTS)));
        // A narrow window gives these up, in this order, so the class, its trouble, its trend and its
        // binding ceiling are whole (at 1280×800 only the ceiling stays; below it, the alerts' CEILING
        // chip says it); each is in the detail, and a wider window shows them again.
        optional.addAll(List.of(service, slots, arrivals, mode, ceiling));
        this.alerts = alerts;
        table.widthProperty().addListener((o, a, w) -> fitColumns(w.doubleValue()));
        for (TableColumn<ClassRow, ?> c : table.getColumns()) {
            if (c != alerts) { // a column the operator widened takes its room from the alerts
                c.widthProperty().addListener((o, a, w) -> fitColumns(table.getWidth()));
            }
        }
        VBox.setVgrow(table, Priority.ALWAYS);
        // A narrow window cuts headers ("Qu…"): each header says its whole title and meaning on hover.
        // (The skin builds its headers in its first layout: look again whenever the table is laid out anew.)
        table.layoutBoundsProperty().addListener((o, a, b) -> explainHeaders());
        // The `/` filter: shown while in use, so it takes no room from the rows otherwise.
        filter.setId(FILTER_ID);
        filter.setPromptText("filter classes (Escape clears)");
        filter.textProperty().bindBidirectional(vm.filterProperty());
        filter.visibleProperty().bind(filterActive.or(filter.focusedProperty()).or(vm.filterProperty().isNotEmpty()));
        filter.managedProperty().bind(filter.visibleProperty());
        HBox.setHgrow(filter, Priority.ALWAYS);
        filter.setOnKeyPressed(e -> {
            if (e.getCode() == javafx.scene.input.KeyCode.ESCAPE) {
                filter.clear();
                filterActive.set(false);
                table.requestFocus();
                e.consume();
            } else if (e.getCode() == javafx.scene.input.KeyCode.ENTER || e.getCode() == javafx.scene.input.KeyCode.DOWN) {
                filterActive.set(false);
                table.requestFocus(); // keep the filter, go to the rows
                e.consume();
            }
        });
        getChildren().addAll(new HBox(8, filter, sortBar()), table);
        sortWithTheViewModel();
        // Rows do not move from under the pointer: a new order waits until it leaves the rows.
        vm.holdOrderProperty().bind(table.hoverProperty());

        table.getSelectionModel().selectedItemProperty().addListener((obs, old, row) -> {
            if (row != null && row != vm.selectedProperty().get()) {
                vm.selectedProperty().set(row);
            }
        });
        vm.selectedProperty().addListener((obs, old, row) -> {
            if (row != null && table.getSelectionModel().getSelectedItem() != row) {
                table.getSelectionModel().select(row);
            }
        });
    }

    private static <T> TableColumn<ClassRow, T> sortsBy(TableColumn<ClassRow, T> c, OverviewViewModel.Column key) {
        c.setUserData(key);
        c.setSortable(true);
        return c;
    }

    /**
     * A header click sorts through the view model (its order is the table's items): the first column
     * of the table's sort order becomes the view model's sort; none means by severity. The third
     * click on a header, or "By severity", returns to the default order.
     */
    private void sortWithTheViewModel() {
        table.setSortPolicy(t -> {
            if (!syncingSort) {
                TableColumn<ClassRow, ?> first = t.getSortOrder().isEmpty() ? null : t.getSortOrder().get(0);
                vm.sortProperty().set(first == null ? null : new OverviewViewModel.Sort(
                        (OverviewViewModel.Column) first.getUserData(), first.getSortType() == TableColumn.SortType.DESCENDING));
            }
            return true;
        });
        vm.sortProperty().addListener((o, a, s) -> {
            syncingSort = true;
            try {
                if (s == null) {
                    table.getSortOrder().clear();
                } else {
                    for (TableColumn<ClassRow, ?> c : table.getColumns()) {
                        if (c.getUserData() == s.column()) {
                            c.setSortType(s.descending() ? TableColumn.SortType.DESCENDING : TableColumn.SortType.ASCENDING);
                            if (table.getSortOrder().size() != 1 || table.getSortOrder().get(0) != c) {
                                table.getSortOrder().setAll(List.of(c));
                            }
                        }
                    }
                }
            } finally {
                syncingSort = false;
            }
        });
    }

    /** "Sorted by Queue ↓ · By severity": shown while the operator's sort is on, or a new order waits. */
    private HBox sortBar() {
        Label what = new Label();
        what.textProperty().bind(Bindings.createStringBinding(() -> {
            OverviewViewModel.Sort s = vm.sortProperty().get();
            if (s == null) {
                return "";
            }
            String title = table.getColumns().stream().filter(c -> c.getUserData() == s.column())
                    .map(TableColumn::getText).findFirst().orElse(s.column().name());
            return "Sorted by " + title + (s.descending() ? " ↓" : " ↑");
        }, vm.sortProperty()));
        what.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        javafx.scene.control.Button back = new javafx.scene.control.Button("By severity");
        back.setId(BY_SEVERITY_ID);
        back.setOnAction(e -> vm.sortBySeverity());
        back.setTooltip(new Tooltip("Back to the default order: worst first (age objective, stalled, STUCK, no data,"
                + " held, proposal, standing, ok)"));
        back.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox sorted = new HBox(6, what, back);
        sorted.setAlignment(Pos.CENTER_LEFT);
        sorted.visibleProperty().bind(vm.sortProperty().isNotNull());
        Label waiting = new Label("new order when the pointer leaves the rows");
        waiting.getStyleClass().add(Styles.UNKNOWN);
        waiting.visibleProperty().bind(vm.orderWaitingProperty());
        HBox bar = new HBox(10, sorted, waiting);
        bar.setId(SORT_BAR_ID);
        bar.setAlignment(Pos.CENTER_RIGHT);
        HBox.setHgrow(bar, Priority.ALWAYS);
        bar.visibleProperty().bind(sorted.visibleProperty().or(waiting.visibleProperty()));
        // The bar keeps its room while hidden: appearing must not push the rows down, least of all when
        // the pointer resting on them is what makes "new order…" appear (a click would land a row off).
        return bar;
    }

    /**
     * Shows the optional columns that fit at their least widths, most wanted first; the rest wait
     * for a wider window. The alerts column keeps its least width plus room for two chips.
     */
    private void fitColumns(double width) {
        double bar = verticalBarShown() ? SCROLL_BAR : 0;
        double room = width - 2 - bar; // borders
        for (TableColumn<ClassRow, ?> c : table.getColumns()) {
            if (!optional.contains(c)) {
                room -= c == alerts ? c.getMinWidth() : c.getPrefWidth();
            }
        }
        room -= ALERTS_SLACK;
        boolean fitting = true;
        for (int i = optional.size() - 1; i >= 0; i--) { // the last given up is the first kept
            TableColumn<ClassRow, ?> c = optional.get(i);
            boolean fits = fitting && room >= c.getPrefWidth();
            fitting = fits;
            if (fits) {
                room -= c.getPrefWidth();
            }
            if (c.isVisible() != fits) {
                c.setVisible(fits);
            }
        }
        double rest = width - 2 - bar;
        for (TableColumn<ClassRow, ?> c : table.getColumns()) {
            if (c != alerts && c.isVisible()) {
                rest -= c.getWidth();
            }
        }
        alerts.setPrefWidth(Math.max(alerts.getMinWidth(), Math.floor(rest)));
    }

    /** Room the alerts column keeps beyond its least width before an optional column is shown. */
    static final double ALERTS_SLACK = 30;

    private javafx.scene.control.ScrollBar verticalBar;

    /**
     * Whether the rows' vertical scroll bar shows (more classes than fit): only then is its room
     * kept, so five classes give their alerts the bar's width too. Its showing or going refits.
     */
    private boolean verticalBarShown() {
        if (verticalBar == null) {
            for (javafx.scene.Node n : table.lookupAll(".scroll-bar")) {
                if (n instanceof javafx.scene.control.ScrollBar b
                        && b.getOrientation() == javafx.geometry.Orientation.VERTICAL) {
                    verticalBar = b;
                    b.visibleProperty().addListener((o, was, is) -> fitColumns(table.getWidth()));
                    break;
                }
            }
        }
        return verticalBar == null || verticalBar.isVisible();
    }

    public TableView<ClassRow> table() {
        return table;
    }

    private static TableColumn<ClassRow, String> nameColumn() {
        TableColumn<ClassRow, String> c = new TableColumn<>("Class");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyStringWrapper(f.getValue().name()));
        c.setCellFactory(col -> new TextCell<>() {
            {
                getStyleClass().add(Styles.CLASS_NAME);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                tip(this);
            }
        });
        c.setPrefWidth(156); // "search-interactive" whole
        c.setMinWidth(110);
        c.setMaxWidth(260);
        return c;
    }

    private static TableColumn<ClassRow, String> textColumn(String title, double width, double min,
                                                            Function<ClassRow, ObservableValue<String>> value) {
        TableColumn<ClassRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setCellFactory(col -> new TextCell<>() {
            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
                tip(this);
            }
        });
        c.setPrefWidth(width);
        c.setMinWidth(min);
        c.setMaxWidth(width * 2.2);
        return c;
    }

    /**
     * A narrow column cuts its text with "…": every cell carries its whole text as a tooltip (one
     * tooltip per cell, reused as the cell shows other rows).
     */
    static void tip(TableCell<?, ?> cell) {
        String text = cell.getText();
        if (text == null || text.isEmpty()) {
            cell.setTooltip(null);
            return;
        }
        Tooltip t = (Tooltip) cell.getProperties().computeIfAbsent(Tooltip.class, k -> new Tooltip());
        t.setText(text);
        cell.setTooltip(t);
    }

    private static TableColumn<ClassRow, Number> numberColumn(String title, double width, double min,
                                                              Function<ClassRow, ObservableValue<Number>> value,
                                                              Function<Double, String> format) {
        TableColumn<ClassRow, Number> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setCellFactory(col -> new TextCell<>() {
            {
                getStyleClass().add(Styles.NUM);
            }

            @Override
            protected void updateItem(Number item, boolean empty) {
                super.updateItem(item, empty);
                if (empty || item == null) {
                    flag(this, Styles.UNKNOWN, false);
                    setText(null);
                    tip(this);
                    return;
                }
                double v = item.doubleValue();
                setText(format.apply(v));
                tip(this);
                flag(this, Styles.UNKNOWN, Double.isNaN(v));
            }
        });
        c.setPrefWidth(width);
        c.setMinWidth(min);
        c.setMaxWidth(width * 1.6);
        return c;
    }

    /** What an age cell shows; a value (not the row) so the cell updates exactly when it changes. */
    record AgeValue(double age, double objective) {
    }

    /**
     * What a replicas cell shows.
     *
     * @param drainTo a running drain's target (-1: none): while it runs, it is where replicas go
     */
    record ReplicaValue(int current, int desired, int ready, int drainTo) {
        /** Where replicas are going: the running drain's target (as its DRAINING chip says), else the decision's. */
        int target() {
            return drainTo >= 0 ? drainTo : desired;
        }

        String text() {
            return (current == target() ? current + "" : current + "→" + target()) + " (" + ready + ")";
        }
    }

    /** The row's value for a cell of this column, made once per row ({@link ClassRow#derived}). */
    @SuppressWarnings("unchecked")
    private static <T> ObservableValue<T> derived(ClassRow r, String column,
                                                  Function<ClassRow, ObservableValue<T>> make) {
        return (ObservableValue<T>) r.derived.computeIfAbsent(column, k -> make.apply(r));
    }

    private static TableColumn<ClassRow, AgeValue> ageColumn() {
        TableColumn<ClassRow, AgeValue> c = new TableColumn<>(AGE);
        c.setCellValueFactory(f -> derived(f.getValue(), AGE, r -> Bindings.createObjectBinding(
                () -> new AgeValue(r.oldestAgeProperty().get(), r.ageObjectiveProperty().get()),
                r.oldestAgeProperty(), r.ageObjectiveProperty())));
        // The age alone, red over its objective: the objective is the dashed line of "Last 15 min" and
        // is named in the tooltip, so the alerts keep room for their chips at 1280×800.
        c.setCellFactory(col -> new ValueCell<AgeValue>() {
            @Override
            void render(AgeValue v) {
                setText(Format.duration(v.age()));
                flag(Styles.BREACH, !Double.isNaN(v.objective()) && v.age() > v.objective());
                flag(Styles.UNKNOWN, Double.isNaN(v.age()));
            }

            @Override
            protected void updateItem(AgeValue v, boolean empty) {
                super.updateItem(v, empty);
                if (!empty && v != null && getTooltip() != null && !Double.isNaN(v.objective())) {
                    getTooltip().setText(Format.duration(v.age()) + " against a " + Format.duration(v.objective())
                            + " objective");
                }
            }
        });
        c.setPrefWidth(66); // "12m 00s" whole
        c.setMinWidth(60);
        c.setMaxWidth(140);
        return c;
    }

    private static TableColumn<ClassRow, Number> slotsColumn() {
        TableColumn<ClassRow, Number> c = new TableColumn<>("Slots");
        c.setCellValueFactory(f -> f.getValue().estimatedSlotsProperty());
        c.setCellFactory(col -> new ValueCell<Number>() {
            @Override
            void render(Number v) {
                int slots = v.intValue();
                setText(slots < 0 ? Format.NO_DATA : Integer.toString(slots));
                flag(Styles.UNKNOWN, slots < 0);
            }
        });
        c.setPrefWidth(58);
        c.setMinWidth(52);
        c.setMaxWidth(80);
        return c;
    }

    private static TableColumn<ClassRow, ReplicaValue> replicasColumn() {
        TableColumn<ClassRow, ReplicaValue> c = new TableColumn<>("Replicas");
        c.setCellValueFactory(f -> derived(f.getValue(), "Replicas", r -> Bindings.createObjectBinding(
                () -> new ReplicaValue(r.currentReplicasProperty().get(), r.desiredReplicasProperty().get(),
                        r.readyReplicasProperty().get(), r.drainToProperty().get()),
                r.currentReplicasProperty(), r.desiredReplicasProperty(), r.readyReplicasProperty(),
                r.drainToProperty())));
        c.setCellFactory(col -> new ValueCell<ReplicaValue>() {
            @Override
            void render(ReplicaValue v) {
                int cur = v.current();
                int des = v.target();
                setText(v.text());
                flag(Styles.CHANGE_UP, des > cur);
                flag(Styles.CHANGE_DOWN, des < cur);
            }
        });
        c.setPrefWidth(92); // "12→0 (12)" in bold
        c.setMinWidth(76);
        c.setMaxWidth(160); // a wide window's room goes to the alerts
        return c;
    }

    /** Oldest age over the last 15 minutes: a sparkline against the objective and the worst of it. */
    private static TableColumn<ClassRow, AgeTrend> trendColumn() {
        TableColumn<ClassRow, AgeTrend> c = new TableColumn<>(TREND_15);
        c.setCellValueFactory(f -> f.getValue().trendProperty());
        c.setCellFactory(col -> new TrendCell());
        c.setPrefWidth(96); // the line and "⚑ 4.0×" whole
        c.setMinWidth(96);
        c.setMaxWidth(170);
        return c;
    }

    /**
     * One small canvas per visible cell (the table keeps a screenful of cells and reuses them as
     * rows scroll): the worst age of each slice as a line, red above the objective, the objective
     * dashed; beside it the worst against the objective, flagged when an alert fired and cleared.
     */
    static final class TrendCell extends TableCell<ClassRow, AgeTrend> {
        static final double W = 40;
        static final double H = 18;
        private final javafx.scene.canvas.Canvas canvas = new javafx.scene.canvas.Canvas(W, H);
        private final Label peak = new Label();
        private final HBox box = new HBox(4, canvas, peak);
        private final Tooltip tip = new Tooltip();
        /** What the cell shows now, and in which theme: an equal trend is not drawn again. */
        private AgeTrend shown;
        private boolean shownLight;

        TrendCell() {
            getStyleClass().add(TREND);
            box.setAlignment(Pos.CENTER_LEFT);
            peak.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
            peak.getStyleClass().add(Styles.NUM);
        }

        @Override
        protected void updateItem(AgeTrend t, boolean empty) {
            super.updateItem(t, empty);
            setText(null);
            if (empty || t == null || t == AgeTrend.NONE) {
                shown = null;
                setGraphic(null);
                setTooltip(null);
                return;
            }
            boolean light = isLight(this);
            if (shown != null && getGraphic() == box && light == shownLight && same(t, shown)) {
                return; // another row with the same 15 minutes (or the same row again): nothing to redraw
            }
            shown = t;
            shownLight = light;
            peak.setText(t.peak()); // words made with the trend, off the FX thread
            flag(peak, Styles.BREACH, t.breachingNow());
            flag(peak, CLEARED, !t.breachingNow() && t.firedAndCleared());
            draw(t);
            setGraphic(box);
            tip.setText(t.summary());
            setTooltip(tip);
        }

        /** The same picture and tooltip: {@link AgeTrend#equals} leaves out when the peak was. */
        private static boolean same(AgeTrend a, AgeTrend b) {
            return a == b || a.equals(b) && Double.compare(a.peakAge(), b.peakAge()) == 0
                    && Double.compare(a.peakAt(), b.peakAt()) == 0 && Double.compare(a.clearedAt(), b.clearedAt()) == 0;
        }

        private void draw(AgeTrend t) {
            boolean light = shownLight;
            javafx.scene.paint.Color line = javafx.scene.paint.Color.web(light ? "#1f6ed4" : "#5ea8ff");
            javafx.scene.paint.Color over = javafx.scene.paint.Color.web(light ? "#cf222e" : "#f2605a");
            javafx.scene.paint.Color guide = javafx.scene.paint.Color.web(light ? "#8c959f" : "#6b7580");
            javafx.scene.canvas.GraphicsContext g = canvas.getGraphicsContext2D();
            g.clearRect(0, 0, W, H);
            double[] a = t.ages();
            if (a.length == 0) {
                return;
            }
            double obj = t.objective() > 0 ? t.objective() : Double.NaN;
            double top = Double.isNaN(t.peakAge()) ? 1 : t.peakAge();
            if (!Double.isNaN(obj)) {
                top = Math.max(top, obj * 1.25);
            }
            top = Math.max(top, 1e-9);
            double dx = W / a.length;
            if (!Double.isNaN(obj)) {
                double y = y(obj, top);
                g.setStroke(guide);
                g.setLineWidth(1);
                g.setLineDashes(2, 2);
                g.strokeLine(0, y, W, y);
                g.setLineDashes(null);
            }
            g.setLineWidth(1.5);
            for (int i = 1; i < a.length; i++) {
                if (Double.isNaN(a[i - 1]) || Double.isNaN(a[i])) {
                    continue; // not known then: a gap, never a drop to 0
                }
                g.setStroke(!Double.isNaN(obj) && Math.max(a[i - 1], a[i]) > obj ? over : line);
                g.strokeLine((i - 0.5) * dx, y(a[i - 1], top), (i + 0.5) * dx, y(a[i], top));
            }
        }

        private static double y(double v, double top) {
            return H - 1 - (H - 2) * Math.min(1, Math.max(0, v / top));
        }
    }

    /** The theme the node is drawn in: light when an ancestor says so. */
    static boolean isLight(javafx.scene.Node n) {
        for (javafx.scene.Node p = n; p != null; p = p.getParent()) {
            if (p.getStyleClass().contains(Styles.THEME_LIGHT)) {
                return true;
            }
            if (p.getStyleClass().contains(Styles.THEME_DARK)) {
                return false;
            }
        }
        return false;
    }

    /** The work bar: queued / starting / executing / waiting approval / held back (issue 15 item 5). */
    private static TableColumn<ClassRow, io.headroom.supervise.JobStates> workColumn() {
        TableColumn<ClassRow, io.headroom.supervise.JobStates> c = new TableColumn<>("Work");
        c.setCellValueFactory(f -> f.getValue().workProperty());
        c.setCellFactory(col -> new WorkCell());
        c.setPrefWidth(58);
        c.setMinWidth(52);
        c.setMaxWidth(140);
        return c;
    }

    static final class WorkCell extends TableCell<ClassRow, io.headroom.supervise.JobStates> {
        private final WorkBar bar = new WorkBar();
        private final Tooltip tip = new Tooltip();
        private io.headroom.supervise.JobStates shown;

        @Override
        protected void updateItem(io.headroom.supervise.JobStates w, boolean empty) {
            super.updateItem(w, empty);
            setText(null);
            if (empty || w == null) {
                shown = null;
                setGraphic(null);
                setTooltip(null);
                return;
            }
            if (w.equals(shown) && getGraphic() == bar) {
                return; // the same counts: no layout of the bar
            }
            shown = w;
            bar.set(w);
            setGraphic(bar);
            tip.setText(WorkBar.words(w));
            setTooltip(tip);
        }
    }

    /** Five segments as wide as their counts, on a track; a region per segment, coloured by the theme. */
    static final class WorkBar extends javafx.scene.layout.Region {
        static final List<String> PARTS = List.of("bar-queued", "bar-starting", "bar-executing", "bar-approval",
                "bar-held");
        private final javafx.scene.layout.Region[] parts = new javafx.scene.layout.Region[PARTS.size()];
        private long[] counts = new long[PARTS.size()];

        WorkBar() {
            getStyleClass().add(WORK_BAR);
            for (int i = 0; i < parts.length; i++) {
                parts[i] = new javafx.scene.layout.Region();
                parts[i].getStyleClass().add(PARTS.get(i));
                getChildren().add(parts[i]);
            }
            setPrefHeight(10);
            setMaxHeight(10);
        }

        void set(io.headroom.supervise.JobStates w) {
            long[] c = {w.queued(), w.starting(), w.executing(), w.awaitingApproval(), w.heldBack()};
            if (!java.util.Arrays.equals(c, counts)) {
                counts = c;
                requestLayout();
            }
        }

        @Override
        protected void layoutChildren() {
            double total = 0;
            for (long c : counts) {
                total += c;
            }
            double w = getWidth();
            double x = 0;
            for (int i = 0; i < parts.length; i++) {
                double pw = total == 0 ? 0 : Math.max(counts[i] > 0 ? 2 : 0, w * counts[i] / total);
                pw = Math.min(pw, w - x);
                parts[i].resizeRelocate(snapPositionX(x), 0, snapSizeX(pw), getHeight());
                x += pw;
            }
        }

        @Override
        protected double computePrefWidth(double height) {
            return 60;
        }

        static String words(io.headroom.supervise.JobStates w) {
            return w.queued() + " queued · " + w.starting() + " starting · " + w.executing() + " executing · "
                    + w.awaitingApproval() + " waiting approval · " + w.heldBack() + " held back"
                    + (w.heldBy() == null ? "" : " by " + w.heldBy());
        }
    }

    private static TableColumn<ClassRow, ClassRow.Badges> alertsColumn(
            javafx.beans.value.ObservableBooleanValue ceilingShown) {
        TableColumn<ClassRow, ClassRow.Badges> c = new TableColumn<>("Alerts");
        c.setCellValueFactory(f -> f.getValue().badgesProperty());
        c.setCellFactory(col -> new AlertsCell(ceilingShown));
        // Its pref is small so the columns fit at 1280×800; a wider window gives it the rest.
        c.setPrefWidth(120);
        c.setMinWidth(120);
        return c;
    }

    /**
     * The alerts cell follows its row's badges itself (a cell refreshed only through the table's
     * item machinery was seen keeping yesterday's chips). It keeps one box and a label per chip it
     * has shown, so a reorder that hands it another row's badges swaps at most a few ready-styled
     * labels, and equal badges (most rows share a handful of chip sets) change nothing. A chip made
     * now is styled at once: one added during a layout pass without a skin would stay 0×0.
     */
    private static final class AlertsCell extends TableCell<ClassRow, ClassRow.Badges> {
        private final Tooltip tip = new Tooltip();
        private final javafx.beans.InvalidationListener changed = o -> render();
        private final ChipRow box = new ChipRow();
        /** Labels this cell has made, by their words and kind; reused whenever a row shows that chip again. */
        private final java.util.Map<String, Label> made = new java.util.HashMap<>();
        private final javafx.beans.value.ObservableBooleanValue ceilingShown;
        private ClassRow following;
        private boolean drawnWithCeiling;

        AlertsCell(javafx.beans.value.ObservableBooleanValue ceilingShown) {
            this.ceilingShown = ceilingShown;
            ceilingShown.addListener(new javafx.beans.WeakInvalidationListener(changed));
            box.getStyleClass().add(Styles.ALERTS);
            box.setAlignment(Pos.CENTER_LEFT);
        }

        @Override
        protected void updateItem(ClassRow.Badges v, boolean empty) {
            super.updateItem(v, empty);
            setText(null);
            ClassRow row = empty || getTableRow() == null ? null : getTableRow().getItem();
            if (row != following) {
                if (following != null) {
                    following.badgesProperty().removeListener(changed);
                }
                following = row;
                if (row != null) {
                    row.badgesProperty().addListener(changed);
                }
            }
            render();
        }

        private ClassRow.Badges drawn;

        private void render() {
            ClassRow.Badges v = following == null ? null : following.badgesProperty().get();
            if (isEmpty() || v == null) {
                drawn = null;
                setGraphic(null);
                setTooltip(null);
                return;
            }
            boolean ceiling = ceilingShown.get();
            List<ClassRow.Alert> alerts = ceiling
                    ? v.alerts().stream().filter(a -> a != ClassRow.Alert.CEILING).toList() : v.alerts();
            if (v.states().isEmpty() && v.proposal().isEmpty() && alerts.isEmpty()) {
                // No chip: an empty cell (not an empty row of chips), its detail, if any, on hover.
                drawn = null;
                setGraphic(null);
                tip.setText(v.fullText());
                setTooltip(v.fullText().isEmpty() ? null : tip);
                return;
            }
            if (v.equals(drawn) && ceiling == drawnWithCeiling && getGraphic() == box) {
                return; // the same chips and words
            }
            drawn = v;
            drawnWithCeiling = ceiling;
            List<javafx.scene.Node> chips = new java.util.ArrayList<>();
            List<Label> fresh = new java.util.ArrayList<>();
            for (ClassRow.StateChip s : v.states()) {
                chips.add(made.computeIfAbsent("state " + s.state() + " " + s.text(),
                        k -> keep(fresh, chip(s), s.state().ordinal())));
            }
            if (!v.proposal().isEmpty()) {
                chips.add(made.computeIfAbsent("proposal " + v.proposal(), k -> {
                    Label p = new Label("PROPOSAL " + v.proposal());
                    p.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
                    p.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
                    return keep(fresh, p, PROPOSAL_RANK);
                }));
            }
            for (ClassRow.Alert a : alerts) {
                chips.add(made.computeIfAbsent("alert " + a, k -> keep(fresh, chip(a), ALERT_RANK + a.ordinal())));
            }
            if (made.size() > 64) { // proposals and pins carry numbers: forget what no row shows now
                List<Label> gone = made.values().stream().filter(l -> !chips.contains(l)).toList();
                made.values().removeAll(gone);
                rank.keySet().removeAll(gone);
                box.forget(gone);
            }
            box.setChips(chips, n -> rank.getOrDefault(n, Integer.MAX_VALUE));
            setGraphic(box);
            if (!fresh.isEmpty() && getScene() != null) {
                box.applyCss(); // new labels have no skin, so no size, until styled
            }
            tip.setText(v.fullText());
            setTooltip(v.fullText().isEmpty() ? null : tip);
        }

        /** Where a chip stands among the others: states (in their order), the proposal, the alerts (in theirs). */
        private static final int PROPOSAL_RANK = 100;
        private static final int ALERT_RANK = 200;
        private final java.util.Map<javafx.scene.Node, Integer> rank = new java.util.IdentityHashMap<>();

        private Label keep(List<Label> fresh, Label l, int at) {
            fresh.add(l);
            rank.put(l, at);
            return l;
        }
    }

    /**
     * Chips left to right, each whole: those that do not fit give way to a "+N" chip (the cell's
     * tooltip names them all), so a narrow column never shows half a word.
     */
    static final class ChipRow extends HBox {
        private final Label more = new Label();

        ChipRow() {
            setMinWidth(0); // as wide as the cell: what does not fit gives way to "+N", never past the edge
            more.getStyleClass().addAll(Styles.CHIP, "more");
            more.setManaged(false);
            more.setVisible(false);
            getChildren().add(more);
        }

        /**
         * Shows these chips, in this order; nothing changes when they are the ones shown. A chip
         * once added stays a child: one not shown now is only unmanaged and hidden, so showing it
         * again restyles nothing (a node removed and added again is styled anew). {@code rank} puts
         * each new chip in its place among them: the chips shown are always in rank order.
         */
        void setChips(List<javafx.scene.Node> chips, java.util.function.ToIntFunction<javafx.scene.Node> rank) {
            List<javafx.scene.Node> children = getChildren();
            for (javafx.scene.Node n : chips) {
                if (n.getParent() != this) {
                    int r = rank.applyAsInt(n);
                    int at = 1;
                    while (at < children.size() && rank.applyAsInt(children.get(at)) <= r) {
                        at++;
                    }
                    children.add(at, n);
                }
            }
            java.util.Set<javafx.scene.Node> shown = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            shown.addAll(chips);
            for (int i = 1; i < children.size(); i++) {
                javafx.scene.Node n = children.get(i);
                boolean on = shown.contains(n);
                if (n.isManaged() != on) {
                    n.setManaged(on);
                }
                if (!on && n.isVisible()) {
                    n.setVisible(false); // an unmanaged node would still be drawn where it was
                }
            }
        }

        /** Chips no longer kept: they leave the row. */
        void forget(java.util.Collection<? extends javafx.scene.Node> gone) {
            getChildren().removeAll(gone);
        }

        @Override
        protected void layoutChildren() {
            super.layoutChildren();
            List<javafx.scene.Node> chips = getChildren().stream().filter(n -> n != more && n.isManaged()).toList();
            double gap = getSpacing();
            double right = getWidth() - snappedRightInset();
            int shown = chips.size();
            double x = snappedLeftInset();
            if (!chips.isEmpty() && chips.get(chips.size() - 1).getBoundsInParent().getMaxX() > right + 0.5) {
                shown = 0;
                for (javafx.scene.Node n : chips) {
                    int rest = chips.size() - shown - 1;
                    double need = n.prefWidth(-1) + (rest > 0 ? moreWidth(rest) + gap : 0);
                    if (x + need > right + 0.5) {
                        break;
                    }
                    x += n.prefWidth(-1) + gap;
                    shown++;
                }
            }
            // Visibility only where it changes: a change asks for another layout pass.
            for (int i = 0; i < chips.size(); i++) {
                if (chips.get(i).isVisible() != i < shown) {
                    chips.get(i).setVisible(i < shown);
                }
            }
            boolean overflow = shown < chips.size();
            if (overflow) {
                String text = "+" + (chips.size() - shown);
                if (!text.equals(more.getText())) {
                    more.setText(text);
                }
                double h = more.prefHeight(-1);
                more.resizeRelocate(x, (getHeight() - h) / 2, more.prefWidth(-1), h);
            }
            if (more.isVisible() != overflow) {
                more.setVisible(overflow);
            }
        }

        /** The "+N" chip's width for {@code n} hidden chips, measured without touching the live chip. */
        private double moreWidth(int n) {
            String text = "+" + n;
            if (text.equals(more.getText())) {
                return more.prefWidth(-1);
            }
            String old = more.getText();
            more.setText(text);
            double w = more.prefWidth(-1);
            more.setText(old);
            return w;
        }
    }

    static Label chip(ClassRow.StateChip s) {
        Label l = new Label(s.text());
        l.getStyleClass().addAll(Styles.CHIP, "state-" + s.state().name().toLowerCase(java.util.Locale.ROOT)
                .replace('_', '-'), switch (s.state()) {
                    case FROZEN -> Styles.DANGER;
                    case PINNED, ADMISSION_CLOSED -> Styles.WARN;
                    case DRAINING, AUTO -> Styles.INFO;
                });
        l.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return l;
    }

    static Label chip(ClassRow.Alert a) {
        Label l = new Label(switch (a) {
            case STALLED -> "STALLED";
            case STUCK -> "STUCK";
            case TELEMETRY_MISSING -> "NO DATA";
            case TELEMETRY_STALE -> "STALE DATA";
            case DEPENDENCY_SATURATED -> "DEPENDENCY";
            case AGE_BREACH -> "AGE";
            case CEILING -> "CEILING";
            case PROBLEM -> "ERROR";
        });
        l.getStyleClass().addAll(Styles.CHIP, switch (a) {
            case STALLED, STUCK, TELEMETRY_MISSING, TELEMETRY_STALE, PROBLEM -> Styles.DANGER;
            case DEPENDENCY_SATURATED, AGE_BREACH -> Styles.WARN;
            case CEILING -> Styles.INFO;
        });
        l.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        return l;
    }

    /**
     * Sets or clears a state as a pseudo-class ({@code .table-cell:breach} in overview.css), only when
     * it changes. A pseudo-class moves the node to another state of the styles already matched; a
     * style class would make the cell and its text match every selector again, for every cell a
     * reorder refills.
     */
    static void flag(javafx.scene.Node n, String state, boolean on) {
        javafx.css.PseudoClass p = javafx.css.PseudoClass.getPseudoClass(state);
        if (n.getPseudoClassStates().contains(p) != on) {
            n.pseudoClassStateChanged(p, on);
            if (n.getScene() != null) {
                n.applyCss(); // now, not next frame: the row it is in is not restyled as a whole (RowFlow)
            }
        }
    }

    /**
     * The table's flow, which refills a row without restyling all of it. The stock flow calls
     * {@code applyCss} on every row it hands an index or item, which transitions every node in the
     * row (some forty), and a reorder hands every visible row another class. Here a row is styled
     * in full only when new or when its own states changed (selected, focused, empty, odd); a cell
     * whose state changes styles itself ({@link #flag}), new chips style themselves, and the
     * heights are fixed ({@code -fx-fixed-cell-size}), so no size depends on a style not yet applied.
     */
    static final class RowFlow<T extends javafx.scene.control.IndexedCell<?>> extends javafx.scene.control.skin.VirtualFlow<T> {
        /** The stock flow's mark on a cell it has just made (VirtualFlow.NEW_CELL). */
        private static final String NEW_CELL = "newcell";

        @Override
        protected void setCellIndex(T cell, int index) {
            if (cell.getSkin() == null || cell.getScene() == null || cell.getProperties().containsKey(NEW_CELL)) {
                super.setCellIndex(cell, index);
                return;
            }
            java.util.Set<javafx.css.PseudoClass> before = java.util.Set.copyOf(cell.getPseudoClassStates());
            cell.updateIndex(index);
            if (!before.equals(cell.getPseudoClassStates())) {
                cell.applyCss();
            }
        }
    }

    /** A numeric cell that renders one value and toggles state style classes. */
    private abstract static class ValueCell<T> extends TextCell<T> {
        ValueCell() {
            getStyleClass().add(Styles.NUM);
        }

        abstract void render(T value);

        @Override
        protected void updateItem(T value, boolean empty) {
            super.updateItem(value, empty);
            if (empty || value == null) {
                setText(null);
                tip(this);
                for (String c : List.of(Styles.BREACH, Styles.UNKNOWN, Styles.CHANGE_UP, Styles.CHANGE_DOWN)) {
                    flag(c, false);
                }
                return;
            }
            render(value);
            tip(this);
        }

        void flag(String styleClass, boolean on) {
            OverviewView.flag(this, styleClass, on);
        }
    }

    /**
     * A cell that shows text only, drawn by {@link TextCellSkin} (no label layout per new text). The
     * stock skin brings the cell's mouse behaviour, which this one has not: a press selects and
     * focuses the cell's row, as on any other cell (the row itself leaves presses on its cells to them).
     */
    static class TextCell<T> extends TableCell<ClassRow, T> {
        TextCell() {
            addEventHandler(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
                TableView<ClassRow> t = getTableView();
                if (t == null || isEmpty() || getIndex() < 0 || getIndex() >= t.getItems().size()
                        || (e.getButton() != javafx.scene.input.MouseButton.PRIMARY
                        && e.getButton() != javafx.scene.input.MouseButton.SECONDARY)) {
                    return;
                }
                if (t.isFocusTraversable() && !t.isFocused()) {
                    t.requestFocus();
                }
                if (e.getButton() == javafx.scene.input.MouseButton.SECONDARY && isSelected()) {
                    return; // a context click keeps the selection
                }
                if (e.isShortcutDown() && t.getSelectionModel().isSelected(getIndex())) {
                    t.getSelectionModel().clearSelection(getIndex());
                } else {
                    t.getSelectionModel().clearAndSelect(getIndex(), getTableColumn());
                }
                t.getFocusModel().focus(getIndex(), getTableColumn());
            });
        }

        @Override
        protected javafx.scene.control.Skin<?> createDefaultSkin() {
            return new TextCellSkin<>(this);
        }
    }
}
