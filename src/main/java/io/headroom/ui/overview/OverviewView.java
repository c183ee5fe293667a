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

    private final TableView<ClassRow> table = new TableView<>();

    public OverviewView(OverviewViewModel vm) {
        getStyleClass().add(Styles.OVERVIEW);
        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("Waiting for the first control tick…"));
        table.getColumns().setAll(List.of(
                nameColumn(),
                textColumn("Mode", 120, r -> r.modeProperty()),
                numberColumn("Queue", 64, r -> r.queueLengthProperty(), Format::number),
                ageColumn(),
                numberColumn("Arrivals/s", 84, r -> r.arrivalRateProperty(), Format::number),
                numberColumn("Service", 74, r -> r.serviceSecondsProperty(), v -> Double.isNaN(v) ? Format.NO_DATA
                        : Format.number(v) + " s"),
                slotsColumn(),
                replicasColumn(),
                textColumn("Ceiling", 120, r -> r.bindingCeilingProperty()),
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
        c.setPrefWidth(160);
        c.setMinWidth(150);
        return c;
    }

    private static TableColumn<ClassRow, String> textColumn(String title, double width,
                                                            Function<ClassRow, ObservableValue<String>> value) {
        TableColumn<ClassRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setPrefWidth(width);
        c.setMinWidth(Math.min(width, 110));
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
        c.setMinWidth(width);
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
            return (current == target() ? current + "" : current + " → " + target()) + "  (" + ready + ")";
        }
    }

    private static TableColumn<ClassRow, AgeValue> ageColumn() {
        TableColumn<ClassRow, AgeValue> c = new TableColumn<>("Oldest age / obj.");
        c.setCellValueFactory(f -> {
            ClassRow r = f.getValue();
            return Bindings.createObjectBinding(() -> new AgeValue(r.oldestAgeProperty().get(),
                    r.ageObjectiveProperty().get()), r.oldestAgeProperty(), r.ageObjectiveProperty());
        });
        c.setCellFactory(col -> new ValueCell<AgeValue>() {
            @Override
            void render(AgeValue v) {
                String text = Format.duration(v.age());
                if (!Double.isNaN(v.objective())) {
                    text += "  / " + Format.duration(v.objective());
                }
                setText(text);
                flag(Styles.BREACH, !Double.isNaN(v.objective()) && v.age() > v.objective());
                flag(Styles.UNKNOWN, Double.isNaN(v.age()));
            }
        });
        c.setPrefWidth(150);
        c.setMinWidth(140);
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
        c.setPrefWidth(54);
        c.setMinWidth(54);
        return c;
    }

    private static TableColumn<ClassRow, ReplicaValue> replicasColumn() {
        TableColumn<ClassRow, ReplicaValue> c = new TableColumn<>("Replicas (ready)");
        c.setCellValueFactory(f -> {
            ClassRow r = f.getValue();
            return Bindings.createObjectBinding(() -> new ReplicaValue(r.currentReplicasProperty().get(),
                    r.desiredReplicasProperty().get(), r.readyReplicasProperty().get(), r.drainToProperty().get()),
                    r.currentReplicasProperty(), r.desiredReplicasProperty(), r.readyReplicasProperty(),
                    r.drainToProperty());
        });
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
        c.setPrefWidth(130);
        c.setMinWidth(124);
        return c;
    }

    private static TableColumn<ClassRow, ClassRow.Badges> alertsColumn() {
        TableColumn<ClassRow, ClassRow.Badges> c = new TableColumn<>("Alerts");
        c.setCellValueFactory(f -> f.getValue().badgesProperty());
        c.setCellFactory(col -> new TableCell<>() {
            private final HBox box = new HBox();
            private final Tooltip tip = new Tooltip();

            {
                box.getStyleClass().add(Styles.ALERTS);
                box.setAlignment(Pos.CENTER_LEFT);
            }

            @Override
            protected void updateItem(ClassRow.Badges v, boolean empty) {
                super.updateItem(v, empty);
                setText(null);
                if (empty || v == null) {
                    setGraphic(null);
                    setTooltip(null);
                    return;
                }
                box.getChildren().clear();
                if (!v.drain().isEmpty()) {
                    Label dr = new Label("DRAINING " + v.drain());
                    dr.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
                    box.getChildren().add(dr);
                }
                if (!v.proposal().isEmpty()) {
                    Label p = new Label("PROPOSAL " + v.proposal());
                    p.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
                    box.getChildren().add(p);
                }
                for (ClassRow.Alert a : v.alerts()) {
                    box.getChildren().add(chip(a));
                }
                setGraphic(box);
                tip.setText(v.detail());
                setTooltip(v.detail() == null || v.detail().isEmpty() ? null : tip);
            }
        });
        c.setPrefWidth(260);
        c.setMinWidth(150);
        return c;
    }

    static Label chip(ClassRow.Alert a) {
        Label l = new Label(switch (a) {
            case STALLED -> "STALLED";
            case TELEMETRY_MISSING -> "NO DATA";
            case TELEMETRY_STALE -> "STALE DATA";
            case DEPENDENCY_SATURATED -> "DEPENDENCY";
            case AGE_BREACH -> "AGE";
            case CEILING -> "CEILING";
            case PROBLEM -> "ERROR";
        });
        l.getStyleClass().addAll(Styles.CHIP, switch (a) {
            case STALLED, TELEMETRY_MISSING, TELEMETRY_STALE, PROBLEM -> Styles.DANGER;
            case DEPENDENCY_SATURATED, AGE_BREACH -> Styles.WARN;
            case CEILING -> Styles.INFO;
        });
        return l;
    }

    /** A numeric cell that renders one value and toggles state style classes. */
    private abstract static class ValueCell<T> extends TableCell<ClassRow, T> {
        ValueCell() {
            getStyleClass().add(Styles.NUM);
        }

        abstract void render(T value);

        @Override
        protected void updateItem(T value, boolean empty) {
            super.updateItem(value, empty);
            if (empty || value == null) {
                setText(null);
                getStyleClass().removeAll(Styles.BREACH, Styles.UNKNOWN, Styles.CHANGE_UP, Styles.CHANGE_DOWN);
                return;
            }
            render(value);
        }

        void flag(String styleClass, boolean on) {
            getStyleClass().remove(styleClass);
            if (on) {
                getStyleClass().add(styleClass);
            }
        }
    }
}
