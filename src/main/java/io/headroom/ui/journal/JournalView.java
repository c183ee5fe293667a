package io.headroom.ui.journal;

import io.headroom.journal.JournalRecord;
import io.headroom.ui.Styles;
import java.time.Duration;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.ChoiceBox;
import javafx.scene.control.Label;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.stage.FileChooser;
import javafx.util.StringConverter;

/** The journal: every proposal, approval, freeze and change, filterable and exportable. */
public final class JournalView extends VBox {
    public static final String TABLE_ID = "journal-table";
    static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    private final TableView<JournalRecord> table = new TableView<>();

    public JournalView(JournalViewModel vm) {
        getStyleClass().add("journal");
        setPadding(new Insets(10));
        setSpacing(8);

        ChoiceBox<String> cls = new ChoiceBox<>(vm.classes());
        cls.valueProperty().bindBidirectional(vm.classFilterProperty());
        List<String> kinds = new ArrayList<>();
        kinds.add(JournalViewModel.ALL);
        for (JournalRecord.Kind k : JournalRecord.Kind.values()) {
            kinds.add(k.name());
        }
        ChoiceBox<String> kind = new ChoiceBox<>(javafx.collections.FXCollections.observableArrayList(kinds));
        kind.valueProperty().bindBidirectional(vm.kindFilterProperty());
        ChoiceBox<Duration> since = new ChoiceBox<>(javafx.collections.FXCollections.observableArrayList(
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
        Button reload = new Button("Reload");
        reload.setOnAction(e -> vm.reload());
        Button export = new Button("Export CSV…");
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
        HBox filters = new HBox(8, label("Class"), cls, label("Kind"), kind, label("Time"), since, spacer, reload,
                export);
        filters.setAlignment(Pos.CENTER_LEFT);

        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("Nothing journaled yet (or nothing matches the filters)."));
        table.getColumns().setAll(List.of(
                col("When", 150, r -> TIME.format(r.at())),
                col("Kind", 120, r -> r.kind().name()),
                col("Class", 140, r -> r.className() == null ? "(all classes)" : r.className()),
                col("Change", 80, r -> r.before() == null && r.after() == null ? ""
                        : (r.before() == null ? "" : r.before() + " → ") + (r.after() == null ? "" : r.after())),
                col("Who", 80, JournalRecord::user),
                col("Context", 90, JournalRecord::context),
                col("Reason", 220, r -> r.reason() == null ? "" : r.reason()),
                col("Detail", 380, r -> r.detail() == null ? "" : r.detail())));
        VBox.setVgrow(table, Priority.ALWAYS);
        Label status = new Label();
        status.textProperty().bind(vm.statusProperty());
        status.getStyleClass().add(Styles.MUTED);
        status.setWrapText(true);
        getChildren().addAll(filters, table, status);
    }

    private static Label label(String s) {
        Label l = new Label(s);
        l.getStyleClass().add(Styles.MUTED);
        return l;
    }

    private static TableColumn<JournalRecord, String> col(String title, double width,
                                                           Function<JournalRecord, String> value) {
        TableColumn<JournalRecord, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> new ReadOnlyStringWrapper(value.apply(f.getValue())));
        c.setPrefWidth(width);
        return c;
    }
}
