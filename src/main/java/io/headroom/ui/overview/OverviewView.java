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
    private final javafx.scene.control.TextField filter = new javafx.scene.control.TextField();
    public static final String FILTER_ID = "overview-filter";
    private final javafx.beans.property.BooleanProperty filterActive = new javafx.beans.property.SimpleBooleanProperty();

    /** What each column shows, for its header's tooltip. */
    static final java.util.Map<String, String> HEADER_HELP = java.util.Map.ofEntries(
            java.util.Map.entry("Class", "Class: the workload class"),
            java.util.Map.entry("Mode", "Mode: observe, supervised or auto"),
            java.util.Map.entry("Queue", "Queue: jobs waiting"),
            java.util.Map.entry("Oldest age / obj.", "Oldest age / objective: how long the oldest waiting job has"
                    + " waited, against the class's age objective"),
            java.util.Map.entry("Arrivals/s", "Arrivals/s: jobs arriving per second"),
            java.util.Map.entry("Service", "Service: mean service time per job"),
            java.util.Map.entry("Slots", "Slots: the slot estimate (concurrent jobs needed)"),
            java.util.Map.entry("Replicas (ready)", "Replicas (ready): current → desired, ready in brackets"),
            java.util.Map.entry("Ceiling", "Ceiling: the ceiling that binds the decision"),
            java.util.Map.entry("Alerts", "Alerts: age breach, stalls, ceilings, missing data, proposals, freezes,"
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

    public OverviewView(OverviewViewModel vm) {
        getStyleClass().add(Styles.OVERVIEW);
        table.setId(TABLE_ID);
        table.setItems(vm.rows());
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        table.setPlaceholder(new Label("Waiting for the first control tick…"));
        table.getColumns().setAll(List.of(
                nameColumn(),
                textColumn("Mode", 96, 90, r -> r.modeProperty()),
                numberColumn("Queue", 58, 54, r -> r.queueLengthProperty(), Format::number),
                ageColumn(),
                numberColumn("Arrivals/s", 74, 70, r -> r.arrivalRateProperty(), Format::number),
                numberColumn("Service", 66, 62, r -> r.serviceSecondsProperty(), v -> Double.isNaN(v) ? Format.NO_DATA
                        : Format.number(v) + " s"),
                slotsColumn(),
                replicasColumn(),
                textColumn("Ceiling", 90, 80, r -> r.bindingCeilingProperty()),
                alertsColumn()));
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
        getChildren().addAll(filter, table);

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
                tip(this);
            }
        });
        c.setPrefWidth(136);
        c.setMinWidth(136);
        c.setMaxWidth(240);
        return c;
    }

    private static TableColumn<ClassRow, String> textColumn(String title, double width, double min,
                                                            Function<ClassRow, ObservableValue<String>> value) {
        TableColumn<ClassRow, String> c = new TableColumn<>(title);
        c.setCellValueFactory(f -> value.apply(f.getValue()));
        c.setCellFactory(col -> new TableCell<>() {
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
                    tip(this);
                    return;
                }
                double v = item.doubleValue();
                setText(format.apply(v));
                tip(this);
                if (Double.isNaN(v)) {
                    getStyleClass().add(Styles.UNKNOWN);
                }
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
                    text += " / " + Format.duration(v.objective());
                }
                setText(text);
                flag(Styles.BREACH, !Double.isNaN(v.objective()) && v.age() > v.objective());
                flag(Styles.UNKNOWN, Double.isNaN(v.age()));
            }
        });
        c.setPrefWidth(122);
        c.setMinWidth(120);
        c.setMaxWidth(180);
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
        c.setPrefWidth(50);
        c.setMinWidth(48);
        c.setMaxWidth(80);
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
        c.setPrefWidth(96);
        c.setMinWidth(96);
        c.setMaxWidth(150); // a wide window's room goes to the alerts
        return c;
    }

    private static TableColumn<ClassRow, ClassRow.Badges> alertsColumn() {
        TableColumn<ClassRow, ClassRow.Badges> c = new TableColumn<>("Alerts");
        c.setCellValueFactory(f -> f.getValue().badgesProperty());
        c.setCellFactory(col -> new AlertsCell());
        // Its pref is small so the columns fit at 1280×800; a wider window gives it the rest.
        c.setPrefWidth(120);
        c.setMinWidth(120);
        return c;
    }

    /**
     * The alerts cell follows its row's badges itself and draws them in a fresh box: a cell
     * refreshed only through the table's item machinery was seen keeping yesterday's chips, and
     * chips added to a reused box during a layout pass were left unsized (0×0, invisible).
     */
    private static final class AlertsCell extends TableCell<ClassRow, ClassRow.Badges> {
        private final Tooltip tip = new Tooltip();
        private final javafx.beans.InvalidationListener changed = o -> render();
        private ClassRow following;

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

        private void render() {
            ClassRow.Badges v = following == null ? null : following.badgesProperty().get();
            if (isEmpty() || v == null) {
                setGraphic(null);
                setTooltip(null);
                return;
            }
            HBox box = new HBox();
            box.getStyleClass().add(Styles.ALERTS);
            box.setAlignment(Pos.CENTER_LEFT);
            for (ClassRow.StateChip s : v.states()) {
                box.getChildren().add(chip(s));
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
            if (getScene() != null) {
                // Chips made during a layout pass have no skin yet, so no size: style them now.
                box.applyCss();
            }
            tip.setText(v.fullText());
            setTooltip(v.fullText().isEmpty() ? null : tip);
            requestLayout();
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
                tip(this);
                getStyleClass().removeAll(Styles.BREACH, Styles.UNKNOWN, Styles.CHANGE_UP, Styles.CHANGE_DOWN);
                return;
            }
            render(value);
            tip(this);
        }

        void flag(String styleClass, boolean on) {
            getStyleClass().remove(styleClass);
            if (on) {
                getStyleClass().add(styleClass);
            }
        }
    }
}
