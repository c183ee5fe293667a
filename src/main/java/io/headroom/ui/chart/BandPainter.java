package io.headroom.ui.chart;

import javafx.geometry.VPos;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;

/**
 * Draws a {@link ForecastBand} under a chart's series, and its legend entry. The band's colour is the palette's
 * seventh (pink: deeper in the light theme, lighter in the dark one), which no detail chart gives a series, so it
 * reads in both themes and never looks like a live line. FX thread only.
 */
final class BandPainter {

    /** The palette slot of the band's colour. */
    static final int COLOR_SLOT = 6;
    private static final double[] MEDIAN_DASHES = {2, 3};
    private static final double SWATCH = 14;

    private BandPainter() {
    }

    static Color color(ChartTheme th) {
        return th.seriesColor(COLOR_SLOT);
    }

    /**
     * The band in the plot {@code left..right × top..bottom}, times {@code t0..t1}, values {@code yMin..yMax}, and a
     * "now" mark at {@code now} when it is inside.
     */
    static void draw(GraphicsContext g, ChartTheme th, ForecastBand b, double left, double top, double right,
                     double bottom, double t0, double t1, double yMin, double yMax, double now, Font font) {
        double xs = (right - left) / (t1 - t0);
        double ys = (bottom - top) / (yMax - yMin);
        Color c = color(th);
        g.save();
        g.beginPath();
        g.rect(left, top, right - left, bottom - top);
        g.clip();
        for (int i = 0; i < b.size(); i++) {
            double x0 = left + (b.times()[i] - t0) * xs;
            double x1 = left + (b.times()[i] + b.slotSeconds() - t0) * xs;
            if (x1 < left || x0 > right || Double.isNaN(b.p50()[i])) {
                continue;
            }
            double y50 = bottom - (b.p50()[i] - yMin) * ys;
            double y80 = bottom - (nanTo(b.p80()[i], b.p50()[i]) - yMin) * ys;
            double y95 = bottom - (nanTo(b.p95()[i], b.p80()[i]) - yMin) * ys;
            g.setFill(c.deriveColor(0, 1, 1, 0.16));
            g.fillRect(x0, y95, x1 - x0, Math.max(0, y80 - y95));
            g.setFill(c.deriveColor(0, 1, 1, 0.30));
            g.fillRect(x0, y80, x1 - x0, Math.max(0, y50 - y80));
        }
        // The median, a dotted step line over the shades.
        g.setStroke(c);
        g.setLineWidth(1.5);
        g.setLineDashes(MEDIAN_DASHES);
        g.beginPath();
        boolean open = false;
        for (int i = 0; i < b.size(); i++) {
            if (Double.isNaN(b.p50()[i])) {
                open = false;
                continue;
            }
            double x0 = left + (b.times()[i] - t0) * xs;
            double x1 = left + (b.times()[i] + b.slotSeconds() - t0) * xs;
            double y = bottom - (b.p50()[i] - yMin) * ys;
            if (open) {
                g.lineTo(x0, y);
            } else {
                g.moveTo(x0, y);
                open = true;
            }
            g.lineTo(x1, y);
        }
        g.stroke();
        g.setLineDashes((double[]) null);
        if (now >= t0 && now <= t1) {
            double x = SeriesPainter.crisp(left + (now - t0) * xs);
            g.setFill(th.axisText().deriveColor(0, 1, 1, 0.6));
            g.fillRect(x - 0.5, top, 1, bottom - top);
            g.setFont(font);
            g.setTextAlign(TextAlignment.LEFT);
            g.setTextBaseline(VPos.TOP);
            g.fillText("now", x + 3, top + 2);
        }
        g.restore();
    }

    private static double nanTo(double v, double instead) {
        return Double.isNaN(v) ? instead : v;
    }

    /**
     * The legend entry at {@code x, y}, or at the start of the next line when it would pass {@code right}: a shaded
     * swatch with the dotted median through it, then the name. Returns the top of the line it was drawn on.
     */
    static double legend(GraphicsContext g, ChartTheme th, String name, double textWidth, double x, double y,
                         double lineHeight, double right, double pad) {
        if (x + SWATCH + 4 + textWidth > right && x > pad) {
            x = pad;
            y += lineHeight;
        }
        Color c = color(th);
        double top = Math.floor(y + lineHeight / 2 - 4);
        g.setFill(c.deriveColor(0, 1, 1, 0.30));
        g.fillRect(x, top, SWATCH, 8);
        g.setStroke(c);
        g.setLineWidth(1.5);
        g.setLineDashes(MEDIAN_DASHES);
        g.strokeLine(x, top + 4.5, x + SWATCH, top + 4.5);
        g.setLineDashes((double[]) null);
        g.setFill(th.axisText());
        g.fillText(name, x + SWATCH + 4, y);
        return y;
    }
}
