package io.headroom.ui.journal;

import io.headroom.journal.JournalRecord;
import io.headroom.ui.Styles;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.collections.FXCollections;
import javafx.collections.SetChangeListener;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.CustomMenuItem;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.Label;
import javafx.scene.control.MenuButton;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;

/**
 * The journal: every proposal, approval, freeze and change, newest first and live, beside the
 * Headroom events the cluster holds from other consoles (marked "cluster"); filterable by preset,
 * kinds, class, time and text, and exportable as shown.
 */
public final class JournalView extends VBox {
    public static final String TABLE_ID = "journal-table";
    public static final String SEARCH_ID = "journal-search";
    public static final String PRESET_ID = "journal-preset";
    public static final String KINDS_ID = "journal-kinds";
    public static final String COUNT_ID = "journal-count";
    public static final String CLUSTER_ID = "journal-cluster";
    public static final String CLUSTER_STATUS_ID = "journal-cluster-status";
    /** A row read from the cluster rather than this console's journal. */
    public static final String FROM_CLUSTER = "journal-from-cluster";

    private final TableView<JournalRow> table = new TableView<>();

    public JournalView(JournalViewModel vm) {
        getStyleClass().add("journal");
        var css = JournalView.class.getResource("/styles/journal.css");
        if (css != null) {
            getStylesheets().add(css.toExternalForm());
        }
        setPadding(new Insets(10));
        setSpacing(8);

        ChoiceBox<JournalFilter.Preset> preset = new ChoiceBox<>(
                FXCollections.observableArrayList(JournalFilter.Preset.values()));
        preset.setId(PRESET_ID);
        preset.valueProperty().bindBidirectional(vm.presetProperty());
        preset.setAccessibleText("Show");
        preset.setTooltip(new Tooltip("Operator actions: approve, reject, override, freeze, drain, policy edit, "
                + "undo… Automatic: proposals, scaling, expiries."));

        MenuButton kinds = kindsMenu(vm);

        ChoiceBox<String> cls = new ChoiceBox<>(vm.classes());
        cls.valueProperty().bindBidirectional(vm.classFilterProperty());
        cls.setAccessibleText("Class");
        ChoiceBox<Duration> since = new ChoiceBox<>(FXCollections.observableArrayList(
                Duration.ofMinutes(15), Duration.ofHours(1), Duration.ofHours(24), Duration.ofDays(7), null));
        since.setConverter(new StringConverter<>() {
            @Override
            public String toString(Duration d) {
                return d == null ? "all time" : d.toDays() >= 1 ? "last " + d.toDays() + " d"
                        : d.toHours() >= 1 ? "last " + d.toHours() + " h" : "last " + d.toMinutes() + " min";
            }

            @Override
            public Duration fromString(String s) {
                return null;
            }
        });
        since.valueProperty().bindBidirectional(vm.sinceProperty());
        since.setAccessibleText("Time span");

        TextField search = new TextField();
        search.setId(SEARCH_ID);
        search.setPromptText("Search text, actor, class, reason");
        search.setAccessibleText("Search the journal");
        search.textProperty().bindBidirectional(vm.searchProperty());
        search.setPrefColumnCount(22);
        HBox.setHgrow(search, Priority.SOMETIMES);

        CheckBox fromCluster = new CheckBox("Cluster events");
        fromCluster.setId(CLUSTER_ID);
        fromCluster.selectedProperty().bindBidirectional(vm.showClusterProperty());
        fromCluster.setTooltip(new Tooltip("Show the Headroom events on the cluster (those other consoles posted) "
                + "beside this console's journal"));

        Button reload = new Button("Reload");
        reload.setOnAction(e -> vm.reload());
        Button export = new Button("Export CSV…");
        export.setTooltip(new Tooltip("Exports the records the filters show"));
        export.setOnAction(e -> {
            FileChooser fc = new FileChooser();
            fc.setTitle("Export the journal");
            fc.setInitialFileName("headroom-journal.csv");
            var file = fc.showSaveDialog(getScene().getWindow());
            if (file != null) {
                vm.exportCsv(file.toPath());
            }
        });
        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);
        HBox filters = new HBox(8, preset, kinds, label("Class"), cls, label("Time"), since, search, spacer,
                fromCluster, reload, export);
        filters.setAlignment(Pos.CENTER_LEFT);

        Label count = new Label();
        count.setId(COUNT_ID);
        count.getStyleClass().add("journal-count");
        count.textProperty().bind(vm.countProperty());
        Label busy = new Label("filtering…");
        busy.getStyleClass().add(Styles.MUTED);
        busy.visibleProperty().bind(vm.filteringProperty());
        Label clusterStatus = new Label();
        clusterStatus.setId(CLUSTER_STATUS_ID);
        clusterStatus.getStyleClass().addAll(Styles.MUTED, "journal-cluster-status");
        clusterStatus.textProperty().bind(vm.clusterStatusProperty());
        clusterStatus.setTooltip(new Tooltip());
        clusterStatus.getTooltip().textProperty().bind(vm.clusterStatusProperty());
        clusterStatus.setMinWidth(0);
        HBox.setHgrow(clusterStatus, Priority.ALWAYS);
        HBox counts = new HBox(12, count, busy, clusterStatus);
        counts.setAlignment(Pos.CENTER_LEFT);

        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        table.setPlaceholder(new Label("Nothing journaled yet (or nothing matches the filters)."));
        Function<JournalRow, String> source = r -> r.fromCluster() ? "from the cluster · " + r.console() : "this console";
        Function<JournalRow, String> context = r -> r.context() == null ? "" : r.context();
        // Each column as wide as what it shows (up to a most); the detail takes the rest of the width.
        List<ColumnsToContent.Fit<JournalRow>> fits = List.of(
                fit("When", vm::when, 200), fit("Source", source, 260), fit("Kind", JournalRow::kindLabel, 200),
                fit("Class", JournalRow::className, 220), fit("Change", JournalRow::change, 120),
                fit("Who", JournalRow::actor, 180), fit("Context", context, 200), fit("Reason", JournalRow::reason, 300));
        List<TableColumn<JournalRow, ?>> columns = new java.util.ArrayList<>(fits.stream().map(f -> f.column()).toList());
        columns.add(col("Detail", 360, JournalRow::detail));
        table.getColumns().setAll(columns);
        ColumnsToContent.install(table, fits);
        table.getColumns().forEach(c -> c.setSortable(false)); // newest first, as the journal grows
        table.setRowFactory(t -> new TableRow<>() {
            @Override
            protected void updateItem(JournalRow r, boolean empty) {
                super.updateItem(r, empty);
                getStyleClass().remove(FROM_CLUSTER);
                if (!empty && r != null && r.fromCluster()) {
                    getStyleClass().add(FROM_CLUSTER);
                    setTooltip(new Tooltip("From the cluster: a Headroom event posted by console " + r.console()
                            + (r.context() == null ? "" : " on context " + r.context())));
                } else {
                    setTooltip(null);
                }
            }
        });
        VBox.setVgrow(table, Priority.ALWAYS);
        vm.setRowsListener(new KeepPlace());

        Label status = new Label();
        status.textProperty().bind(vm.statusProperty());
        status.getStyleClass().add(Styles.MUTED);
        status.setWrapText(true);
        status.managedProperty().bind(status.textProperty().isNotEmpty());
        getChildren().addAll(filters, counts, table, status);
    }

    /** Several kinds at once: a check box per kind, the menu stays open while they are ticked. */
    private static MenuButton kindsMenu(JournalViewModel vm) {
        MenuButton kinds = new MenuButton();
        kinds.setId(KINDS_ID);
        kinds.setAccessibleText("Kinds");
        Runnable title = () -> {
            int n = vm.kinds().size();
            kinds.setText(n == 0 ? "Kinds: any" : n == 1 ? "Kind: " + vm.kinds().iterator().next().name()
                    : "Kinds: " + n);
        };
        title.run();
        MenuItem any = new MenuItem("Any kind");
        any.setOnAction(e -> vm.kinds().clear());
        kinds.getItems().addAll(any, new SeparatorMenuItem());
        for (JournalRecord.Kind k : JournalRecord.Kind.values()) {
            CheckBox box = new CheckBox(k.name());
            box.setSelected(vm.kinds().contains(k));
            box.selectedProperty().addListener((o, was, on) -> {
                if (on) {
                    vm.kinds().add(k);
                } else {
                    vm.kinds().remove(k);
                }
            });
            vm.kinds().addListener((SetChangeListener<JournalRecord.Kind>) c -> box.setSelected(vm.kinds().contains(k)));
            CustomMenuItem item = new CustomMenuItem(box, false);
            item.setId("journal-kind-" + k.name());
            kinds.getItems().add(item);
        }
        vm.kinds().addListener((SetChangeListener<JournalRecord.Kind>) c -> title.run());
        return kinds;
    }

    /**
     * Keeps the operator's place while rows change: the selected record stays selected, and a table
     * scrolled down keeps the same record on top (at the top, new records come into view).
     */
    private final class KeepPlace implements JournalViewModel.RowsListener {
        private JournalRow selected;
        private JournalRow top;

        @Override
        public void beforeChange() {
            selected = table.getSelectionModel().getSelectedItem();
            top = null;
            if (table.lookup(".virtual-flow") instanceof VirtualFlow<?> flow) {
                IndexedCell<?> first = flow.getFirstVisibleCell();
                if (first != null && first.getIndex() > 0 && first.getItem() instanceof JournalRow r) {
                    top = r;
                }
            }
        }

        @Override
        public void afterChange() {
            if (selected != null) {
                int i = table.getItems().indexOf(selected);
                if (i >= 0) {
                    if (table.getSelectionModel().getSelectedIndex() != i) {
                        table.getSelectionModel().clearAndSelect(i);
                    }
                } else {
                    table.getSelectionModel().clearSelection();
                }
            }
            if (top != null) {
                int t = table.getItems().indexOf(top);
                if (t >= 0) {
                    table.scrollTo(t);
                }
            }
        }
    }

    public TableView<JournalRow> table() {
        return table;
    }

    private static Label label(String s) {
        Label l = new Label(s);
        l.getStyleClass().add(Styles.MUTED);
        return l;
    }

    private static ColumnsToContent.Fit<JournalRow> fit(String title, Function<JournalRow, String> value, double most) {
        return new ColumnsToContent.Fit<>(col(title, 80, value), value, most);
    }

    private static TableColumn<JournalRow, String> col(String title, double width, Function<JournalRow, String> value) {
        TableColumn<JournalRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(value.apply(f.getValue())));
        c.setPrefWidth(width);
        return c;
    }
}
