package io.headroom.ui.chart;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * What a {@link TimeChart} does not know, drawn: the {@link Gaps} of its gap series shaded, hatched and labelled
 * ("no data", a current outage's red mark at the right edge), and the part of the window older than the history
 * read so far, which is not missing data but still arriving ("history: 3 of 7 days…" over it, issue 29). FX thread
 * only; the chart gives it the plot's geometry each frame.
 */
final class GapPainter {

    /** Colour of a current outage's marker: the same red in both themes, readable on either. */
    static final Color OUTAGE = Color.web("#e5534b");

    private final Font font;
    private final TextWidths widths;
    private final double lineHeight;
    // The plot of the frame being drawn.
    private double left;
    private double top;
    private double right;
    private double bottom;
    private DoubleUnaryOperator xOf;

    GapPainter(Font font, TextWidths widths, double lineHeight) {
        this.font = font;
        this.widths = widths;
        this.lineHeight = lineHeight;
    }

    /** The plot {@code left..right × top..bottom} and where a time is in it, for the calls that follow. */
    void frame(double left, double top, double right, double bottom, DoubleUnaryOperator xOf) {
        this.left = left;
        this.top = top;
        this.right = right;
        this.bottom = bottom;
        this.xOf = xOf;
    }

    /** Shades every gap, under the series. */
    void shade(GraphicsContext g, ChartTheme th, List<Gaps.Gap> gaps) {
        for (Gaps.Gap gap : gaps) {
            double x0 = Math.max(left, Math.floor(xOf.applyAsDouble(gap.from())));
            double x1 = Math.min(right, Math.ceil(xOf.applyAsDouble(gap.to())));
            if (x1 - x0 < 1) {
                x1 = x0 + 1;
            }
            Color c = gap.current() ? OUTAGE : th.axisText();
            g.setFill(c.deriveColor(0, 1, 1, gap.current() ? 0.14 : 0.10));
            g.fillRect(x0, top, x1 - x0, bottom - top);
            // Diagonal hatching so a gap reads as "unknown" in print and for colour-blind eyes too.
            hatch(g, x0, x1, c.deriveColor(0, 1, 1, 0.22), 8);
        }
    }

    /** "no data" over each gap wide enough for it; a current outage gets a marker at the right edge. */
    void label(GraphicsContext g, ChartTheme th, List<Gaps.Gap> gaps, java.util.function.DoubleFunction<String> time) {
        g.setFont(font);
        g.setTextBaseline(VPos.TOP);
        for (Gaps.Gap gap : gaps) {
            double x0 = Math.max(left, xOf.applyAsDouble(gap.from()));
            double x1 = Math.min(right, xOf.applyAsDouble(gap.to()));
            String label = gap.current() ? "no data since " + time.apply(gap.from()) : "no data";
            double w = widths.width(label, font);
            if (gap.current()) {
                double edge = Math.floor(Math.min(right, xOf.applyAsDouble(gap.to()))) - 1.5; // now, left of a forecast
                g.setFill(OUTAGE);
                g.fillRect(edge - 1.5, top, 3, bottom - top); // a 3 px line, filled
                double tx = Math.max(left + 2, edge - 6.5 - w);
                double ty = bottom - lineHeight - 4;
                g.setFill(th.background().deriveColor(0, 1, 1, 0.85));
                g.fillRect(tx - 3, ty, w + 6, lineHeight);
                g.setFill(OUTAGE);
                g.setTextAlign(TextAlignment.LEFT);
                g.fillText(label, tx, ty);
            } else if (x1 - x0 >= w + 6) {
                g.setFill(th.axisText());
                g.setTextAlign(TextAlignment.CENTER);
                g.fillText(label, (x0 + x1) / 2, bottom - lineHeight - 4);
            }
        }
    }

    /**
     * The part of the plot left of {@code until} (the oldest point read so far) as still arriving: a faint wash with
     * wide, light hatching (not a gap's) and {@code words} in its middle on a plate, or at the plot's left when the
     * part is narrower than the words. Nothing when {@code until} is left of the plot or the words are empty.
     */
    void pending(GraphicsContext g, ChartTheme th, double until, String words) {
        double x1 = Math.min(right, Math.floor(xOf.applyAsDouble(until)));
        if (words == null || words.isEmpty() || !(x1 > left + 1)) {
            return;
        }
        g.setFill(th.axisText().deriveColor(0, 1, 1, 0.05));
        g.fillRect(left, top, x1 - left, bottom - top);
        hatch(g, left, x1, th.axisText().deriveColor(0, 1, 1, 0.10), 16);
        double w = widths.width(words, font);
        double tx = Math.max(left + 4, Math.min((left + x1) / 2 - w / 2, right - w - 4));
        double ty = Math.round(top + (bottom - top) / 2 - lineHeight / 2);
        g.setFill(th.background().deriveColor(0, 1, 1, 0.9));
        g.fillRect(tx - 4, ty - 1, w + 8, lineHeight + 2);
        g.setFont(font);
        g.setFill(th.titleText());
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.TOP);
        g.fillText(words, tx, ty);
    }

    private void hatch(GraphicsContext g, double x0, double x1, Color c, double spacing) {
        g.save();
        g.beginPath();
        g.rect(x0, top, x1 - x0, bottom - top);
        g.clip();
        g.setStroke(c);
        g.setLineWidth(1);
        g.setLineDashes((double[]) null);
        double h = bottom - top;
        for (double x = x0 - h; x < x1; x += spacing) {
            g.strokeLine(x, bottom, x + h, top);
        }
        g.restore();
    }
}
