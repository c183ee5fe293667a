package io.headroom.ui.journal;

import java.util.List;
import java.util.function.Function;
import javafx.collections.ListChangeListener;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/**
 * Sizes a table's columns to their content (the header and the newest rows' texts, each up to a
 * most), and lets the last column take the rest of the table's width; a text longer than its column
 * is whole in its cell's tooltip. Refits once per pulse however many rows arrive. FX thread.
 */
final class ColumnsToContent<T> {
    /** Rows measured: the newest (the journal shows newest first). */
    static final int MEASURED = 300;
    /** Room for a cell's padding and the header's sort arrow. */
    static final double PADDING = 22;
    /** The least width the last column keeps. */
    static final double LAST_LEAST = 160;

    private final TableView<T> table;
    private final List<Fit<T>> fits;
    private boolean pending;

    /** A column, the text its cells show, and the most it may take. */
    record Fit<T>(TableColumn<T, String> column, Function<T, String> text, double most) {
    }

    private ColumnsToContent(TableView<T> table, List<Fit<T>> fits) {
        this.table = table;
        this.fits = fits;
    }

    /** Fits {@code fits} (every column but the last, in order) now and whenever the rows or the width change. */
    static <T> void install(TableView<T> table, List<Fit<T>> fits) {
        ColumnsToContent<T> c = new ColumnsToContent<>(table, fits);
        table.setColumnResizePolicy(TableView.CONSTRAINED_RESIZE_POLICY_FLEX_LAST_COLUMN);
        for (TableColumn<T, ?> col : table.getColumns()) {
            @SuppressWarnings("unchecked")
            TableColumn<T, String> text = (TableColumn<T, String>) col;
            text.setCellFactory(x -> new WholeOnHover<>());
        }
        table.getItems().addListener((ListChangeListener<T>) ch -> c.later());
        table.itemsProperty().addListener((o, a, b) -> {
            b.addListener((ListChangeListener<T>) ch -> c.later());
            c.later();
        });
        table.widthProperty().addListener((o, a, b) -> c.later());
        c.later();
    }

    private void later() {
        if (!pending) {
            pending = true;
            io.headroom.ui.fx.FxExecutor.nextTurn(() -> {
                pending = false;
                fit();
            });
        }
    }

    private void fit() {
        Text probe = new Text();
        probe.setFont(cellFont());
        List<T> rows = table.getItems().subList(0, Math.min(MEASURED, table.getItems().size()));
        double used = 0;
        for (Fit<T> f : fits) {
            probe.setText(f.column().getText());
            double w = probe.getLayoutBounds().getWidth();
            for (T r : rows) {
                String s = f.text().apply(r);
                if (s != null && !s.isEmpty()) {
                    probe.setText(s);
                    w = Math.max(w, probe.getLayoutBounds().getWidth());
                }
            }
            double width = Math.ceil(Math.min(f.most(), w + PADDING));
            f.column().setMinWidth(Math.min(width, f.column().getText().length() * 8.0 + PADDING));
            f.column().setPrefWidth(width);
            used += width;
        }
        TableColumn<T, ?> last = table.getColumns().get(table.getColumns().size() - 1);
        last.setPrefWidth(Math.max(LAST_LEAST, table.getWidth() - used - 20));
    }

    /** The font the table's cells are drawn in (the default before any is styled). */
    private Font cellFont() {
        for (javafx.scene.Node n : table.lookupAll(".table-cell")) {
            if (n instanceof TableCell<?, ?> c && c.getFont() != null) {
                return c.getFont();
            }
        }
        return Font.getDefault();
    }

    /** A cell whose whole text is its tooltip, for when its column is narrower than the text. */
    static final class WholeOnHover<T> extends TableCell<T, String> {
        @Override
        protected void updateItem(String item, boolean empty) {
            super.updateItem(item, empty);
            setText(empty || item == null ? null : item);
            if (empty || item == null || item.isEmpty()) {
                setTooltip(null);
            } else if (getTooltip() == null) {
                Tooltip t = new Tooltip(item);
                t.setWrapText(true);
                t.setMaxWidth(560);
                setTooltip(t);
            } else {
                getTooltip().setText(item);
            }
        }
    }
}
