package io.headroom.ui.chart;

import java.util.Objects;
import javafx.scene.paint.Color;

/**
 * A dashed horizontal line at a fixed value with a label at the plot's right edge, such as
 * "objective 120 s".
 *
 * @param value where the line sits, in the chart's value units
 * @param label text drawn at the right edge; empty for none
 * @param color the line and label colour, or null for the theme's axis text colour
 */
public record ReferenceLine(double value, String label, Color color) {

    public ReferenceLine {
        Objects.requireNonNull(label, "label");
    }

    /** A reference line in the theme's axis text colour. */
    public ReferenceLine(double value, String label) {
        this(value, label, null);
    }
}
