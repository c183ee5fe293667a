package io.headroom.ui.shell;

import javafx.collections.ListChangeListener;
import javafx.scene.Node;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableView;
import javafx.scene.layout.Region;

/**
 * The window's upper part (the overview beside the inbox) grows to show every class's row, up to {@link #MAX_SHARE}
 * of the split's height: at 1280×800 the built-in sandbox's six classes showed five and a half rows at the split's
 * default, and the last class was under the scroll bar. At each size and class count it is as tall as its rows need,
 * never less than the split's default share nor more than {@link #MAX_SHARE}; once the operator has moved the
 * divider, their choice stands.
 */
final class TopFits {
    /** At most this share of the split's height goes to the rows: the charts below keep the rest. */
    static final double MAX_SHARE = 0.45;

    private final SplitPane split;
    private final Region top;
    private final TableView<?> table;
    private final double least;
    private boolean operatorMoved;

    private TopFits(SplitPane split, Region top, TableView<?> table, double least) {
        this.split = split;
        this.top = top;
        this.table = table;
        this.least = least;
    }

    /**
     * Fits {@code top} (the split's first item, holding {@code table}) to the table's rows, never under {@code least}
     * of the split (its default divider position); FX thread.
     */
    static void install(SplitPane split, Region top, TableView<?> table, double least) {
        TopFits f = new TopFits(split, top, table, least);
        table.getItems().addListener((ListChangeListener<Object>) c -> {
            while (c.next()) {
                if (c.wasAdded() || c.wasRemoved()) { // a class more or fewer; not the rows' order, which moves each tick
                    f.later();
                    return;
                }
            }
        });
        split.heightProperty().addListener((o, a, b) -> f.later()); // the first layout gives it its height
        split.addEventFilter(javafx.scene.input.MouseEvent.MOUSE_PRESSED, e -> {
            for (Node n = e.getTarget() instanceof Node t ? t : null; n != null && n != split; n = n.getParent()) {
                if (n.getStyleClass().contains("split-pane-divider")) {
                    f.operatorMoved = true; // the operator takes the divider: their height stands from now on
                    return;
                }
            }
        });
    }

    /** After the next layout pass: the table's flow has its height then. */
    private void later() {
        if (!operatorMoved && split.getScene() != null) {
            io.headroom.ui.fx.FirstFrame.after(split, Runnable::run, this::fit);
            javafx.application.Platform.requestNextPulse(); // no layout asked: the next pulse measures what is there
        }
    }

    /** Sets the upper part to the height its rows need, within the default share and {@link #MAX_SHARE}. */
    void fit() {
        Node flow = table.lookup(".virtual-flow");
        double cell = table.getFixedCellSize();
        double height = split.getHeight();
        if (operatorMoved || flow == null || cell <= 0 || height <= 0) {
            return;
        }
        Node divider = split.lookup(".split-pane-divider");
        double gap = divider == null ? 0 : divider.getLayoutBounds().getHeight();
        double need = top.getHeight() + Math.ceil(table.getItems().size() * cell - flow.getLayoutBounds().getHeight());
        double want = Math.max(least * height - gap / 2, Math.min(need, MAX_SHARE * height));
        if (Math.abs(want - top.getHeight()) > 0.5) {
            split.setDividerPosition(0, Math.min(1, (want + gap / 2) / height));
        }
    }
}
