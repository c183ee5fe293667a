package io.headroom.ui.shell;

import io.headroom.ui.fx.Tips;
import io.headroom.ui.Styles;
import java.util.List;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableStringValue;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The full-width incident banner under the top bar: one line per standing freeze, pin, drain or
 * auto mode (collapsed, the worst and a count), each with its lift button, and Undo for the last
 * change. Buttons keep their whole width; only the text gives way, and its tooltip has all of it.
 */
public final class IncidentBanner extends VBox {
    public static final String ID = "incident-banner";
    public static final String LINE = "incident-line";
    public static final String LIFT = "incident-lift";
    public static final String MORE_ID = "incident-more";
    public static final String UNDO_ID = "incident-undo";

    private final IncidentBannerViewModel vm;
    private final Consumer<Incident> lift;
    private final Button more = new Button();
    private final Button undo = new Button("Undo");
    private final VBox rows = new VBox();
    private final javafx.scene.control.ScrollPane scroll = new javafx.scene.control.ScrollPane(rows);

    /** Expanded, at most this many lines show at once; more scroll, so the banner never crowds out the console. */
    static final int MAX_LINES = 3;
    static final double LINE_HEIGHT = 30;

    /**
     * @param lift      what a line's button does (unfreeze, clear the override, cancel the drain, leave auto)
     * @param undoLabel what Undo would undo, empty when nothing; {@code onUndo} runs it
     */
    public IncidentBanner(IncidentBannerViewModel vm, Consumer<Incident> lift, ObservableStringValue undoLabel,
                          Runnable onUndo) {
        this.vm = vm;
        this.lift = lift;
        setId(ID);
        getStyleClass().add("incident-banner");
        visibleProperty().bind(vm.showingProperty());
        managedProperty().bind(visibleProperty());
        more.setId(MORE_ID);
        more.textProperty().bind(vm.moreProperty());
        more.visibleProperty().bind(vm.moreProperty().isNotEmpty());
        more.managedProperty().bind(more.visibleProperty());
        more.setOnAction(e -> vm.toggleExpanded());
        Tips.set(more, "Show every standing freeze, override, drain and auto mode, one per line");
        more.accessibleTextProperty().bind(Bindings.concat(vm.moreProperty(), ": show every standing incident"));
        undo.setId(UNDO_ID);
        undo.visibleProperty().bind(Bindings.createBooleanBinding(() -> !undoLabel.get().isEmpty(), undoLabel));
        undo.managedProperty().bind(undo.visibleProperty());
        Tips.bind(undo, undoLabel);
        undo.accessibleTextProperty().bind(undoLabel); // "Undo" alone does not say what
        undo.setOnAction(e -> onUndo.run());
        for (Button b : List.of(more, undo)) {
            b.setMinWidth(Region.USE_PREF_SIZE);
        }
        rows.getStyleClass().add("incident-rows");
        scroll.setFitToWidth(true);
        scroll.setHbarPolicy(javafx.scene.control.ScrollPane.ScrollBarPolicy.NEVER);
        scroll.setVbarPolicy(javafx.scene.control.ScrollPane.ScrollBarPolicy.AS_NEEDED);
        scroll.setFocusTraversable(false);
        getChildren().add(scroll);
        vm.incidents().addListener((javafx.collections.ListChangeListener<Incident>) c -> rebuild());
        vm.expandedProperty().addListener((o, a, b) -> rebuild());
        rebuild();
    }

    private void rebuild() {
        rows.getChildren().clear();
        int n = vm.visibleLines();
        for (int k = 0; k < n; k++) {
            rows.getChildren().add(row(vm.incidents().get(k), k == 0));
        }
        double h = Math.min(n, MAX_LINES) * LINE_HEIGHT;
        scroll.setPrefViewportHeight(h);
        scroll.setMinViewportHeight(h);
        scroll.setMaxHeight(Region.USE_PREF_SIZE);
    }

    private HBox row(Incident i, boolean first) {
        Label tag = new Label(i.tag());
        tag.getStyleClass().addAll(Styles.CHIP, switch (i.kind()) {
            case FREEZE_ALL, FREEZE -> Styles.DANGER;
            case OVERRIDE -> Styles.WARN;
            case DRAIN, AUTO, FLOOR -> Styles.INFO;
        });
        tag.setMinWidth(Region.USE_PREF_SIZE);
        Label text = OneLine.of(Bindings.createStringBinding(() -> vm.line(i), vm.nowProperty()), LINE);
        Button liftButton = new Button(i.liftLabel());
        liftButton.getStyleClass().add(LIFT);
        liftButton.setMinWidth(Region.USE_PREF_SIZE);
        liftButton.setOnAction(e -> lift.accept(i));
        liftButton.accessibleTextProperty().bind(Bindings.concat(i.liftLabel(), ": ", text.textProperty()));
        HBox row = new HBox(8, tag, text, liftButton);
        if (first) {
            row.getChildren().addAll(undo, more);
        }
        row.setAlignment(Pos.CENTER_LEFT);
        row.setMinHeight(LINE_HEIGHT);
        row.setPrefHeight(LINE_HEIGHT);
        row.setMaxHeight(LINE_HEIGHT);
        row.getStyleClass().add("incident-row");
        Styles.toggle(row, List.of(Styles.DANGER, Styles.WARN, Styles.INFO), tag.getStyleClass().get(
                tag.getStyleClass().size() - 1));
        return row;
    }
}
