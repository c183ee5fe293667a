package io.headroom.ui.overview;

import io.headroom.ui.Format;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.function.Function;
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

    private final TableView<ClassRow> table = new TableView<>();

    public OverviewView(OverviewViewModel vm) {
        getStyleClass().add(Styles.OVERVIEW);
        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("Waiting for the first control tick…"));
        table.getColumns().setAll(List.of(
                nameColumn(),
                textColumn("Mode", 70, r -> r.modeProperty()),
                numberColumn("Queue", 80, r -> r.queueLengthProperty(), Format::number),
                ageColumn(),
                numberColumn("Arrivals /s", 90, r -> r.arrivalRateProperty(), Format::number),
                numberColumn("Service", 80, r -> r.serviceSecondsProperty(), v -> Double.isNaN(v) ? Format.NO_DATA
                        : Format.number(v) + " s"),
                slotsColumn(),
                replicasColumn(),
                textColumn("Binding ceiling", 130, r -> r.bindingCeilingProperty()),
                alertsColumn()));
        VBox.setVgrow(table, Priority.ALWAYS);
        getChildren().add(table);

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

    public TableView<ClassRow> table() {
        return table;
    }

    private static TableColumn<ClassRow, String> nameColumn() {
        TableColumn<ClassRow, String> c = new TableColumn<>("Class");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyStringWrapper(f.getValue().name()));
        c.setCellFactory(col -> new TableCell<>() {
            {
                getStyleClass().add(Styles.CLASS_NAME);
            }

            @Override
            protected void updateItem(String item, boolean empty) {
                super.updateItem(item, empty);
                setText(empty ? null : item);
            }
        });
        c.setPrefWidth(170);
        c.setMinWidth(140);
        return c;
    }

    private static TableColumn<ClassRow, String> textColumn(String title, double width,
                                                            Function<ClassRow, ObservableValue<String>> value) {
        TableColumn<ClassRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setPrefWidth(width);
        c.setMinWidth(60);
        return c;
    }

    private static TableColumn<ClassRow, Number> numberColumn(String title, double width,
                                                              Function<ClassRow, ObservableValue<Number>> value,
                                                              Function<Double, String> format) {
        TableColumn<ClassRow, Number> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setCellFactory(col -> new TableCell<>() {
            {
                getStyleClass().add(Styles.NUM);
            }

            @Override
            protected void updateItem(Number item, boolean empty) {
                super.updateItem(item, empty);
                getStyleClass().remove(Styles.UNKNOWN);
                if (empty || item == null) {
                    setText(null);
                    return;
                }
                double v = item.doubleValue();
                setText(format.apply(v));
                if (Double.isNaN(v)) {
                    getStyleClass().add(Styles.UNKNOWN);
                }
            }
        });
        c.setPrefWidth(width);
        c.setMinWidth(60);
        return c;
    }

    private static TableColumn<ClassRow, ClassRow> ageColumn() {
        TableColumn<ClassRow, ClassRow> c = new TableColumn<>("Oldest age / objective");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new RowCell() {
            @Override
            void render(ClassRow r) {
                double age = r.oldestAgeProperty().get();
                double objective = r.ageObjectiveProperty().get();
                String text = Format.duration(age);
                if (!Double.isNaN(objective)) {
                    text += "  / " + Format.duration(objective);
                }
                setText(text);
                flag(Styles.BREACH, !Double.isNaN(objective) && age > objective);
                flag(Styles.UNKNOWN, Double.isNaN(age));
            }
        });
        c.setPrefWidth(160);
        c.setMinWidth(120);
        return c;
    }

    private static TableColumn<ClassRow, ClassRow> slotsColumn() {
        TableColumn<ClassRow, ClassRow> c = new TableColumn<>("Slots");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new RowCell() {
            @Override
            void render(ClassRow r) {
                int slots = r.estimatedSlotsProperty().get();
                setText(slots < 0 ? Format.NO_DATA : Integer.toString(slots));
                flag(Styles.UNKNOWN, slots < 0);
            }
        });
        c.setPrefWidth(64);
        c.setMinWidth(50);
        return c;
    }

    private static TableColumn<ClassRow, ClassRow> replicasColumn() {
        TableColumn<ClassRow, ClassRow> c = new TableColumn<>("Replicas → desired (ready)");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new RowCell() {
            @Override
            void render(ClassRow r) {
                int cur = r.currentReplicasProperty().get();
                int des = r.desiredReplicasProperty().get();
                int ready = r.readyReplicasProperty().get();
                setText((cur == des ? cur + "" : cur + " → " + des) + "  (" + ready + ")");
                flag(Styles.CHANGE_UP, des > cur);
                flag(Styles.CHANGE_DOWN, des < cur);
            }
        });
        c.setPrefWidth(190);
        c.setMinWidth(150);
        return c;
    }

    private static TableColumn<ClassRow, ClassRow> alertsColumn() {
        TableColumn<ClassRow, ClassRow> c = new TableColumn<>("Alerts");
        c.setCellValueFactory(f -> new javafx.beans.property.ReadOnlyObjectWrapper<>(f.getValue()));
        c.setCellFactory(col -> new TableCell<>() {
            private final HBox box = new HBox();
            private final Tooltip tip = new Tooltip();

            {
                box.getStyleClass().add(Styles.ALERTS);
                box.setAlignment(Pos.CENTER_LEFT);
            }

            @Override
            protected void updateItem(ClassRow r, boolean empty) {
                super.updateItem(r, empty);
                setText(null);
                if (empty || r == null) {
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                box.getChildren().clear();
                for (ClassRow.Alert a : r.alertsProperty().get()) {
                    box.getChildren().add(chip(a));
                }
                setGraphic(box);
                String detail = r.alertDetailProperty().get();
                tip.setText(detail);
                setTooltip(detail == null || detail.isEmpty() ? null : tip);
            }
        });
        c.setPrefWidth(260);
        c.setMinWidth(120);
        return c;
    }

    static Label chip(ClassRow.Alert a) {
        Label l = new Label(switch (a) {
            case STALLED -> "STALLED";
            case TELEMETRY_MISSING -> "NO DATA";
            case DEPENDENCY_SATURATED -> "DEPENDENCY";
            case AGE_BREACH -> "AGE";
            case CEILING -> "CEILING";
            case PROBLEM -> "ERROR";
        });
        l.getStyleClass().addAll(Styles.CHIP, switch (a) {
            case STALLED, TELEMETRY_MISSING, PROBLEM -> Styles.DANGER;
            case DEPENDENCY_SATURATED, AGE_BREACH -> Styles.WARN;
            case CEILING -> Styles.INFO;
        });
        return l;
    }

    /**
     * A cell showing several properties of a row; re-rendered whenever the table refreshes the
     * row (the view model replaces values each tick, and the table is refreshed per batch).
     */
    private abstract static class RowCell extends TableCell<ClassRow, ClassRow> {
        RowCell() {
            getStyleClass().add(Styles.NUM);
        }

        abstract void render(ClassRow r);

        @Override
        protected void updateItem(ClassRow r, boolean empty) {
            super.updateItem(r, empty);
            if (empty || r == null) {
                setText(null);
                getStyleClass().removeAll(Styles.BREACH, Styles.UNKNOWN, Styles.CHANGE_UP, Styles.CHANGE_DOWN);
                return;
            }
            render(r);
        }

        void flag(String styleClass, boolean on) {
            getStyleClass().remove(styleClass);
            if (on) {
                getStyleClass().add(styleClass);
            }
        }
    }
}
