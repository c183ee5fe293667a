package io.headroom.ui.overview;

import javafx.geometry.HPos;
import javafx.geometry.Pos;
import javafx.geometry.VPos;
import javafx.scene.control.SkinBase;
import javafx.scene.control.TableCell;
import javafx.scene.text.Text;

/**
 * A table cell's text drawn by one {@link Text} node, for the overview's text and number cells
 * (no graphic). The stock skin ({@code LabeledSkinBase}) measures the text twice per layout, keeps
 * a clipped copy and re-measures its pref sizes whenever the text changes; a reorder of the
 * overview hands every visible cell another class's text each tick. Here a new text is measured
 * once (the node's own layout), placed by the cell's alignment within its padding, and shortened
 * with "…" only when it does not fit. The cell's text, font and text fill (its CSS) are the
 * cell's own, as with the stock skin; {@link TableCell#getText()} stays the whole text.
 */
final class TextCellSkin<S, T> extends SkinBase<TableCell<S, T>> {
    private static final String ELLIPSIS = "…";
    private final Text text = new Text();
    /** The cell's whole text. */
    private String whole = "";
    /** Its width in the cell's font; NaN until measured (after a new text or font). */
    private double wholeWidth = Double.NaN;
    /** Measures a whole text while a shortened one shows (FX thread only). */
    private static final Text MEASURE = new Text();

    TextCellSkin(TableCell<S, T> cell) {
        super(cell);
        text.getStyleClass().add("text"); // modena's .text: bounds centred on the cap height, as a label's text
        text.setTextOrigin(VPos.TOP);
        text.fontProperty().bind(cell.fontProperty());
        text.fillProperty().bind(cell.textFillProperty());
        text.setManaged(false); // placed here; a new text asks the cell, not the row, for a layout
        getChildren().add(text);
        registerChangeListener(cell.textProperty(), o -> textChanged());
        registerChangeListener(cell.fontProperty(), o -> {
            wholeWidth = Double.NaN;
            cell.requestLayout();
        });
        registerChangeListener(cell.alignmentProperty(), o -> cell.requestLayout());
        registerChangeListener(cell.tableColumnProperty(), o -> cell.requestLayout());
        textChanged();
    }

    private void textChanged() {
        String t = getSkinnable().getText();
        whole = t == null ? "" : t;
        wholeWidth = Double.NaN;
        if (!whole.equals(text.getText())) {
            text.setText(whole);
        }
        getSkinnable().requestLayout();
    }

    @Override
    protected void layoutChildren(double x, double y, double w, double h) {
        if (!whole.equals(text.getText())) {
            text.setText(whole); // shortened for a narrower cell before
        }
        double tw = text.getLayoutBounds().getWidth();
        wholeWidth = tw;
        if (tw > w + 0.5 && !whole.isEmpty()) {
            tw = shorten(w);
        }
        Pos pos = getSkinnable().getAlignment() == null ? Pos.CENTER_LEFT : getSkinnable().getAlignment();
        double left = pos.getHpos() == HPos.RIGHT ? x + w - tw : pos.getHpos() == HPos.CENTER ? x + (w - tw) / 2 : x;
        double th = text.getLayoutBounds().getHeight();
        double top = pos.getVpos() == VPos.TOP ? y : pos.getVpos() == VPos.BOTTOM ? y + h - th : y + (h - th) / 2;
        text.relocate(snapPositionX(Math.max(x, left)), snapPositionY(top));
    }

    /** The longest start of the text that fits with "…" (only a cell narrower than its text). */
    private double shorten(double w) {
        int lo = 0;
        int hi = whole.length() - 1;
        while (lo < hi) { // the longest prefix whose "prefix…" fits
            int mid = (lo + hi + 1) / 2;
            text.setText(whole.substring(0, mid) + ELLIPSIS);
            if (text.getLayoutBounds().getWidth() <= w + 0.5) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        text.setText(lo == 0 ? ELLIPSIS : whole.substring(0, lo).stripTrailing() + ELLIPSIS);
        return text.getLayoutBounds().getWidth();
    }

    /** The whole text's width, even while a shortened one shows. */
    private double wholeWidth() {
        if (Double.isNaN(wholeWidth)) {
            if (whole.equals(text.getText())) {
                wholeWidth = text.getLayoutBounds().getWidth();
            } else {
                MEASURE.setFont(text.getFont());
                MEASURE.setBoundsType(text.getBoundsType());
                MEASURE.setText(whole);
                wholeWidth = MEASURE.getLayoutBounds().getWidth();
            }
        }
        return wholeWidth;
    }

    /** The stock cell skin's mark (TableCellSkinBase) while a header fits its column to the cells' texts. */
    private static final String DEFER_TO_PARENT_PREF_WIDTH = "deferToParentPrefWidth";

    /** As the stock cell skin: the column's width (the row lays its cells out by it), or the text's while a header measures. */
    @Override
    protected double computePrefWidth(double height, double top, double right, double bottom, double left) {
        TableCell<S, T> cell = getSkinnable();
        if (cell.getProperties().containsKey(DEFER_TO_PARENT_PREF_WIDTH)) {
            return left + wholeWidth() + right;
        }
        return cell.getTableColumn() == null ? 0 : snapSizeX(cell.getTableColumn().getWidth());
    }

    @Override
    protected double computePrefHeight(double width, double top, double right, double bottom, double left) {
        return top + text.getLayoutBounds().getHeight() + bottom;
    }

    @Override
    protected double computeMinWidth(double height, double top, double right, double bottom, double left) {
        return left + right;
    }

    @Override
    protected double computeMinHeight(double width, double top, double right, double bottom, double left) {
        return computePrefHeight(width, top, right, bottom, left);
    }
}
