package io.headroom.ui.fx;

import java.util.List;
import java.util.function.Function;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;

/**
 * A list cell that shows an item as the text a view-model gives it, with a tooltip and, optionally, one of a
 * few style classes; an empty cell shows and keeps nothing of the item it showed before.
 *
 * @param <T> the item
 */
public final class TextCell<T> extends ListCell<T> {
    private final Function<T, String> text;
    private final Function<T, String> tooltip;
    private final List<String> styles;
    private final Function<T, String> style;

    /** @param tooltip the tooltip's text for an item; null or blank for none */
    public TextCell(Function<T, String> text, Function<T, String> tooltip) {
        this(text, tooltip, List.of(), t -> null);
    }

    /**
     * @param styles the style classes the cell may carry, one at a time
     * @param style  the one of {@code styles} an item wants, or null for none
     */
    public TextCell(Function<T, String> text, Function<T, String> tooltip, List<String> styles,
                    Function<T, String> style) {
        this.text = text;
        this.tooltip = tooltip;
        this.styles = List.copyOf(styles);
        this.style = style;
    }

    @Override
    protected void updateItem(T item, boolean empty) {
        super.updateItem(item, empty);
        getStyleClass().removeAll(styles);
        if (empty || item == null) {
            setText(null);
            setTooltip(null);
            return;
        }
        setText(text.apply(item));
        String tip = tooltip.apply(item);
        setTooltip(tip == null || tip.isBlank() ? null : new Tooltip(tip));
        String chosen = style.apply(item);
        if (chosen != null) {
            getStyleClass().add(chosen);
        }
    }
}
