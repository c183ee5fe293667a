package io.headroom.ui.chart;

import java.util.HashMap;
import java.util.Map;
import javafx.scene.text.Font;
import javafx.scene.text.Text;

/** Widths and line height of chart text, measured with one off-scene {@link Text}; FX thread only. */
final class TextWidths {

    private final Font cachedFont;
    private final Text measurer = new Text();
    // Widths of axis-font strings: tick labels recur frame after frame as the window slides, and
    // laying a Text out for each costs more than the lookup. Bounded: cleared when it grows large.
    private final Map<String, Double> cached = new HashMap<>();

    /** Caches the widths of strings in {@code cachedFont} (the axis font); other fonts are measured each time. */
    TextWidths(Font cachedFont) {
        this.cachedFont = cachedFont;
    }

    /** The height of one line of {@code font}, rounded up to whole pixels. */
    double lineHeight(Font font) {
        measurer.setFont(font);
        measurer.setText("Ag");
        return Math.ceil(measurer.getLayoutBounds().getHeight());
    }

    double width(String text, Font font) {
        if (font == cachedFont) {
            Double known = cached.get(text);
            if (known != null) {
                return known;
            }
            if (cached.size() >= 1024) {
                cached.clear();
            }
            double w = layoutWidth(text, font);
            cached.put(text, w);
            return w;
        }
        return layoutWidth(text, font);
    }

    private double layoutWidth(String text, Font font) {
        measurer.setFont(font);
        measurer.setText(text);
        return measurer.getLayoutBounds().getWidth();
    }
}
