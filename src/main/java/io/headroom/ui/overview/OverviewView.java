package io.headroom.ui.overview;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Format;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.function.Function;
import javafx.beans.binding.Bindings;
import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
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
    /** "2 of 5 shown" beside the filter while it hides classes. */
    public static final String SHOWN_ID = "overview-shown";
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

    /** Installs each header's tooltip (once): its whole title and what the column shows. */
    private void explainHeaders() {
        for (javafx.scene.Node n : table.lookupAll(".column-header")) {
            if (n instanceof javafx.scene.control.skin.TableColumnHeader h && h.getTableColumn() != null
                    && Tips.text(h) == null) {
                String title = h.getTableColumn().getText();
                Tips.set(h, HEADER_HELP.getOrDefault(title, title));
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
    /** Style classes of what the rows draw (overview.css; {@link RowLook} reads them). */
    static final String WORK_BAR = "work-bar";
    static final String CLEARED = "cleared";

    private final OverviewViewModel vm;
    /** Columns that give way (hidden) when the table is too narrow for them, the first given up first. */
    private final List<TableColumn<ClassRow, ?>> optional = new java.util.ArrayList<>();
    private boolean syncingSort;
    private TableColumn<ClassRow, String> alerts;
    /** Fonts and colours of what the rows draw, from the stylesheet. */
    private final RowLook look = new RowLook();
    /** Counts changes of the columns' order, widths and visibility: each draws the rows again. */
    private final javafx.beans.property.LongProperty columnsChanged = new javafx.beans.property.SimpleLongProperty();
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
        TableColumn<ClassRow, String> mode = textColumn("Mode", 196, 90, 196 * 2.2, r -> r.modeProperty().get());
        TableColumn<ClassRow, String> arrivals = numberColumn("Arrivals/s", 92, 80,
                r -> r.arrivalRateProperty().get(), Format::number);
        TableColumn<ClassRow, String> service = numberColumn("Service", 76, 70, r -> r.serviceSecondsProperty().get(),
                v -> Double.isNaN(v) ? Format.NO_DATA : Format.number(v) + " s");
        TableColumn<ClassRow, String> slots = slotsColumn();
        // "warehouse-quota 12", the longest of the sandbox's, whole; longer names show whole in the tooltip.
        // While it shows, a binding ceiling needs no CEILING chip: the alerts keep their room (CanvasRow).
        TableColumn<ClassRow, String> ceiling = textColumn("Ceiling", 168, 84, 168 * 2.2,
                r -> r.bindingCeilingProperty().get());
        TableColumn<ClassRow, String> alerts = alertsColumn();
        table.getColumns().setAll(List.of(
                sortsBy(nameColumn(), OverviewViewModel.Column.CLASS),
                sortsBy(numberColumn("Queue", 64, 60, r -> r.queueLengthProperty().get(), Format::number),
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
        // Rows drawn on one canvas each (CanvasRow): a reorder hands each row another class to draw,
        // not a dozen cells to restyle and lay out.
        table.setRowFactory(t -> new CanvasRow(look, columnsChanged));
        Runnable columnsMoved = () -> columnsChanged.set(columnsChanged.get() + 1);
        table.getVisibleLeafColumns().addListener((javafx.collections.ListChangeListener<TableColumn<ClassRow, ?>>) c -> columnsMoved.run());
        getChildren().add(look.probes());
        table.widthProperty().addListener((o, a, w) -> fitColumns(w.doubleValue()));
        for (TableColumn<ClassRow, ?> c : table.getColumns()) {
            c.widthProperty().addListener((o, a, w) -> columnsMoved.run()); // the rows draw their cells anew
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
        // A filter on says how many classes it shows of how many: none is hidden without saying so.
        Label shown = new Label();
        shown.setId(SHOWN_ID);
        shown.textProperty().bind(vm.shownProperty());
        shown.visibleProperty().bind(filter.visibleProperty().and(vm.shownProperty().isNotEmpty()));
        shown.managedProperty().bind(shown.visibleProperty());
        shown.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        shown.getStyleClass().add(Styles.MUTED);
        HBox filterBar = new HBox(8, filter, shown, sortBar());
        filterBar.setAlignment(Pos.CENTER_LEFT);
        getChildren().addAll(filterBar, table);
        sortWithTheViewModel();
        // Rows do not move under the operator's attention, whichever device it came from: a new order
        // waits while the pointer is on the rows, and for a few seconds after a key pressed in them, the
        // focus arriving or a selection of theirs; then it comes once.
        io.headroom.ui.fx.AttentionArea.follow(table, vm.attention());

        table.getSelectionModel().selectedItemProperty().addListener((obs, old, row) -> {
            if (row != null && row != vm.selectedProperty().get()) {
                vm.choose(row); // holds the order too
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
        Tips.set(back, "Back to the default order: worst first (age objective, stalled, STUCK, no data,"
                + " held, proposal, standing, ok)");
        back.setMinWidth(javafx.scene.layout.Region.USE_PREF_SIZE);
        HBox sorted = new HBox(6, what, back);
        sorted.setAlignment(Pos.CENTER_LEFT);
        sorted.visibleProperty().bind(vm.sortProperty().isNotNull());
        Label waiting = new Label("new order waits while you use the rows");
        Tips.set(waiting, "The rows keep their order while the pointer is on them and for "
                + OverviewViewModel.QUIET.toSeconds() + " s after a key, a selection or the focus in them;"
                + " then they take the new order once");
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

    /**
     * What each visible row of the table drew, cell by cell, by class: the texts (whole and as
     * drawn), the chips shown and how many gave way to "+N", each cell's tooltip. FX thread.
     */
    public List<DrawnCell> drawn(String className) {
        for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof CanvasRow r && n.isVisible() && r.getItem() != null && r.getItem().name().equals(className)) {
                return r.cells().stream().map(c -> new DrawnCell(c.column(), r.localToScene(c.x(), 0),
                        r.localToScreen(c.x() + c.width() / 2, r.getHeight() / 2), c.width(), r.getHeight(), c.text(),
                        c.whole(), c.chips(), c.hidden(), c.tip())).toList();
            }
        }
        return List.of();
    }

    /** The classes of the rows shown now, top to bottom. FX thread. */
    public List<String> shownClasses() {
        List<CanvasRow> rows = new java.util.ArrayList<>();
        for (javafx.scene.Node n : table.lookupAll(".table-row-cell")) {
            if (n instanceof CanvasRow r && r.isVisible() && r.getItem() != null && !r.isEmpty()) {
                rows.add(r);
            }
        }
        rows.sort(java.util.Comparator.comparingDouble(r -> r.localToScene(0, 0).getY()));
        return rows.stream().map(r -> r.getItem().name()).toList();
    }

    /**
     * One drawn cell of a row: its column's title, where it is (its top-left corner in the scene,
     * its middle on the screen) and its size, the text drawn (cut with "…" when it did not fit) and
     * the whole text, the alert chips shown and the number given way to "+N", and its tooltip.
     */
    public record DrawnCell(String column, javafx.geometry.Point2D sceneCorner, javafx.geometry.Point2D screenCentre,
                            double width, double height, String text, String whole, List<String> chips, int hidden,
                            String tip) {
    }

    private static <T> TableColumn<ClassRow, T> column(String title, double width, double min, double max) {
        TableColumn<ClassRow, T> c = new TableColumn<>(title);
        c.setPrefWidth(width);
        c.setMinWidth(min);
        c.setMaxWidth(max);
        return c;
    }

    /**
     * A column's cells are drawn by the rows ({@link CanvasRow}); its value is the text a row draws,
     * for what reads a column's values (the header's fit-to-content on a double click).
     */
    private static TableColumn<ClassRow, String> textColumn(String title, double width, double min, double max,
                                                            Function<ClassRow, String> text) {
        TableColumn<ClassRow, String> c = column(title, width, min, max);
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyStringWrapper(text.apply(f.getValue())));
        return c;
    }

    private static TableColumn<ClassRow, String> nameColumn() {
        return textColumn("Class", 156, 110, 260, ClassRow::name); // "search-interactive" whole
    }

    private static TableColumn<ClassRow, String> numberColumn(String title, double width, double min,
                                                              Function<ClassRow, Double> value,
                                                              Function<Double, String> format) {
        return textColumn(title, width, min, width * 1.6, r -> format.apply(value.apply(r)));
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

        /** Whether the replicas were read at the last tick (-1: not). */
        boolean known() {
            return current >= 0;
        }

        /** "4→8 (3)"; "—" when not read: unknown, never 0. */
        String text() {
            if (!known()) {
                return Format.NO_DATA;
            }
            return (current == target() || target() < 0 ? current + "" : current + "→" + target()) + " (" + ready + ")";
        }
    }

    // The age alone, red over its objective: the objective is the dashed line of "Last 15 min" and
    // is named in the tooltip, so the alerts keep room for their chips at 1280×800.
    private static TableColumn<ClassRow, String> ageColumn() {
        return textColumn(AGE, 66, 60, 140, r -> Format.duration(r.oldestAgeProperty().get())); // "12m 00s" whole
    }

    private static TableColumn<ClassRow, String> slotsColumn() {
        return textColumn("Slots", 58, 52, 80, r -> r.estimatedSlotsProperty().get() < 0 ? Format.NO_DATA
                : Integer.toString(r.estimatedSlotsProperty().get()));
    }

    private static TableColumn<ClassRow, String> replicasColumn() {
        // "12→0 (12)" in bold; a wide window's room goes to the alerts
        return textColumn("Replicas", 92, 76, 160, r -> new ReplicaValue(r.currentReplicasProperty().get(),
                r.desiredReplicasProperty().get(), r.readyReplicasProperty().get(), r.drainToProperty().get()).text());
    }

    /** Oldest age over the last 15 minutes: a sparkline against the objective and the worst of it. */
    private static TableColumn<ClassRow, String> trendColumn() {
        return textColumn(TREND_15, 96, 96, 170, r -> r.trendProperty().get().peak()); // the line and "⚑ 4.0×" whole
    }

    /** The work bar: queued / starting / executing / waiting approval / held back (issue 15 item 5). */
    private static TableColumn<ClassRow, String> workColumn() {
        return textColumn("Work", 58, 52, 140, r -> "");
    }

    // Its pref is small so the columns fit at 1280×800; a wider window gives it the rest.
    private static TableColumn<ClassRow, String> alertsColumn() {
        TableColumn<ClassRow, String> c = textColumn("Alerts", 120, 120, 5000, r -> "");
        c.setMaxWidth(Double.MAX_VALUE);
        return c;
    }

    /**
     * The table's flow, which refills a row without restyling all of it. The stock flow calls
     * {@code applyCss} on every row it hands an index or item, and a reorder hands every visible row
     * another class. Here a row is styled only when new or when its own states changed (selected,
     * focused, empty, odd); what it draws takes its fonts and colours from {@link RowLook}, and the
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
}
