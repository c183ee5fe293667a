package io.headroom.ui.chart;

import io.headroom.history.Downsampler;
import java.util.Arrays;
import java.util.List;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;
import javafx.scene.shape.StrokeLineCap;
import javafx.scene.shape.StrokeLineJoin;

/**
 * The series layer of a {@link TimeChart}: each visible series traced from its downsampled points,
 * lines as filled column spans where dense, steps and dashed lines as one stroked path. Keeps its
 * scratch buffers between frames, so a frame allocates nothing per point; FX thread only.
 */
final class SeriesPainter {

    private static final double[] SERIES_DASHES = {6, 4};

    // The plot of the frame being drawn.
    private double plotLeft;
    private double plotTop;
    private double plotRight;
    private double plotBottom;
    private double viewStart;

    /**
     * Draws the visible {@code series} in order into the plot {@code left..right × top..bottom}, which
     * shows times {@code viewStart..viewEnd} and values {@code yMin..yMax} (right axis: {@code y2Min..y2Max}).
     */
    void draw(GraphicsContext g, ChartTheme th, List<ChartSeries> series, double left, double top, double right,
              double bottom, double viewStart, double viewEnd, double yMin, double yMax, double y2Min, double y2Max) {
        this.plotLeft = left;
        this.plotTop = top;
        this.plotRight = right;
        this.plotBottom = bottom;
        this.viewStart = viewStart;
        double xScale = (plotRight - plotLeft) / (viewEnd - viewStart);
        for (ChartSeries s : series) {
            if (!s.isVisible()) {
                continue;
            }
            double lo = s.isRightAxis() ? y2Min : yMin;
            double yScale = (plotBottom - plotTop) / ((s.isRightAxis() ? y2Max : yMax) - lo);
            Color color = s.resolveColor(th);
            boolean step = s.getKind() == SeriesKind.STEP;
            g.setStroke(color);
            g.setFill(color);
            // Steps 2 px: a replica count must read as a solid level. Lines 1.5 px: sloped lines
            // anti-alias anyway, and 1 px looks frail next to the 1 px grid.
            g.setLineWidth(step ? 2 : 1.5);
            g.setLineJoin(step ? StrokeLineJoin.MITER : StrokeLineJoin.BEVEL);
            g.setLineCap(StrokeLineCap.BUTT);
            g.setLineDashes(s.isDashed() ? SERIES_DASHES : null);
            if (step || s.isDashed()) {
                g.save();
                clipToPlot(g);
                traceSeries(g, s.downsampler, step, xScale, yScale, lo, s.getPixelOffset());
                g.restore();
            } else {
                traceLine(g, s.downsampler, xScale, yScale, lo, s.getPixelOffset());
            }
        }
    }

    private void clipToPlot(GraphicsContext g) {
        g.beginPath();
        g.rect(plotLeft, plotTop, plotRight - plotLeft, plotBottom - plotTop + 1);
        g.clip();
    }

    // Stroked segments of the line being traced (x0, y0, x1, y1 each), reused between frames.
    private double[] segments = new double[64];
    private int segmentCount;

    /**
     * A solid line as the software renderer can draw it cheaply: where there are several samples per
     * pixel column, each column is one filled span from its lowest to its highest point (the joins
     * to the neighbouring dense columns included), which covers the same pixels as the stroked
     * polyline (the 1.5 px width and its anti-aliased edges included) without the stroker's cost
     * per vertex and scanline. Segments to or from a column with a single sample are stroked, as
     * one path, so sparse data looks exactly as before. Every
     * column's min and max stay drawn, gaps (NaN) still lift the pen, and a lone sample is still a
     * dot. The spans are clipped to the plot here, so the renderer needs no clip for them.
     */
    private void traceLine(GraphicsContext g, Downsampler d, double xScale, double yScale, double yLow,
                           double yOffset) {
        int n = d.size();
        segmentCount = 0;
        boolean penDown = false;
        boolean lineIn = false;    // the current column was reached by a stroked segment
        int run = 0;
        int columnPoints = 0;      // points in the current column
        double px = 0;
        double py = 0;
        double lo = 0;
        double hi = 0;
        for (int i = 0; i < n; i++) {
            double v = d.value(i);
            if (v != v) {
                if (penDown) {
                    endRun(g, run, px, py, lo, hi, lineIn);
                }
                penDown = false;
                run = 0;
                continue;
            }
            double x = crisp(plotLeft + (d.time(i) - viewStart) * xScale);
            double y = crisp(plotBottom - (v - yLow) * yScale + yOffset);
            if (!penDown) {
                penDown = true;
                run = 1;
                columnPoints = 1;
                lo = y;
                hi = y;
                lineIn = false;
            } else if (x == px) {
                if (y == py) {
                    continue; // the same pixel again
                }
                lo = Math.min(lo, y);
                hi = Math.max(hi, y);
                run++;
                columnPoints++;
            } else if (x - px <= 1
                    && (Math.abs(y - py) <= 1 || columnPoints > 1 && nextInColumn(d, i + 1, x, xScale))) {
                // The join to the next column, when it is level or between two dense columns: each
                // column draws its half of it. (A sloped join between sparse columns stays stroked,
                // so it keeps its anti-aliased slope.)
                double mid = (py + y) / 2;
                span(g, px, Math.min(lo, mid), Math.max(hi, mid), lineIn, false);
                lo = Math.min(mid, y);
                hi = Math.max(mid, y);
                lineIn = false;
                run++;
                columnPoints = 1;
            } else {
                span(g, px, lo, hi, lineIn, true);
                addSegment(px, py, x, y);
                lo = y;
                hi = y;
                lineIn = true;
                run++;
                columnPoints = 1;
            }
            px = x;
            py = y;
        }
        if (penDown) {
            endRun(g, run, px, py, lo, hi, lineIn);
        }
        flushSpans(g);
        if (segmentCount > 0) {
            // The canvas clip costs the renderer on every operation while it is set: only set it
            // when a stroke (1.5 px wide) may reach out of the plot.
            boolean inside = true;
            for (int k = 0; k < segmentCount && inside; k += 2) {
                inside = segments[k] - 1 >= plotLeft && segments[k] + 1 <= plotRight
                        && segments[k + 1] - 1 >= plotTop && segments[k + 1] + 1 <= plotBottom + 1;
            }
            g.save();
            if (!inside) {
                clipToPlot(g);
            }
            g.beginPath();
            double[] sg = segments;
            for (int k = 0; k < segmentCount; k += 4) {
                // Consecutive segments continue one polyline, so the joins are stroked as before.
                if (k == 0 || sg[k] != sg[k - 2] || sg[k + 1] != sg[k - 1]) {
                    g.moveTo(sg[k], sg[k + 1]);
                }
                g.lineTo(sg[k + 2], sg[k + 3]);
            }
            g.stroke();
            g.restore();
        }
    }

    /** Whether output point {@code i} has data and lies in the pixel column centred on {@code x}. */
    private boolean nextInColumn(Downsampler d, int i, double x, double xScale) {
        if (i >= d.size()) {
            return false;
        }
        double v = d.value(i);
        return v == v && crisp(plotLeft + (d.time(i) - viewStart) * xScale) == x;
    }

    private void addSegment(double x0, double y0, double x1, double y1) {
        if (segmentCount + 4 > segments.length) {
            segments = Arrays.copyOf(segments, segments.length * 2);
        }
        segments[segmentCount++] = x0;
        segments[segmentCount++] = y0;
        segments[segmentCount++] = x1;
        segments[segmentCount++] = y1;
    }

    private void endRun(GraphicsContext g, int run, double px, double py, double lo, double hi, boolean lineIn) {
        if (run == 1) {
            fillInPlot(g, px - 1.5, py - 1.5, px + 1.5, py + 1.5); // a lone sample: a dot
        } else {
            span(g, px, lo, hi, lineIn, false);
        }
    }

    /**
     * One column of a dense line: the pixels a 1.5 px stroke through {@code lo..hi} (pixel centres)
     * covers. A column that only passes a stroked segment on to the next one is left to the stroke.
     */
    private void span(GraphicsContext g, double x, double lo, double hi, boolean lineIn, boolean lineOut) {
        if (lineIn && lineOut && hi - lo < 1) {
            return;
        }
        if (spanPending && x == spanRight + 1 && lo == spanLo && hi == spanHi) {
            spanRight = x; // a level stretch: one rectangle for all its columns, the same pixels
            return;
        }
        flushSpans(g);
        spanPending = true;
        spanLeft = x;
        spanRight = x;
        spanLo = lo;
        spanHi = hi;
    }

    // The span being extended over level columns; drawn when a different one comes or the line ends.
    private boolean spanPending;
    private double spanLeft;
    private double spanRight;
    private double spanLo;
    private double spanHi;

    private void flushSpans(GraphicsContext g) {
        if (spanPending) {
            spanPending = false;
            fillInPlot(g, spanLeft - 0.75, spanLo - 0.75, spanRight + 0.75, spanHi + 0.75);
        }
    }

    /** Fills the part of a rectangle inside the plot area, the clip the series are drawn with. */
    private void fillInPlot(GraphicsContext g, double x0, double y0, double x1, double y1) {
        double left = Math.max(x0, plotLeft);
        double right = Math.min(x1, plotRight);
        double top = Math.max(y0, plotTop);
        double bottom = Math.min(y1, plotBottom + 1);
        if (right > left && bottom > top) {
            g.fillRect(left, top, right - left, bottom - top);
        }
    }

    /** One path per series, NaN points lifting the pen; allocation-free per point. */
    private void traceSeries(GraphicsContext g, Downsampler d, boolean step, double xScale, double yScale,
                             double yLow, double yOffset) {
        int n = d.size();
        g.beginPath();
        boolean penDown = false;
        int run = 0;
        double px = 0;
        double py = 0;
        for (int i = 0; i < n; i++) {
            double x = plotLeft + (d.time(i) - viewStart) * xScale;
            double v = d.value(i);
            if (v != v) {
                if (penDown && step) {
                    g.lineTo(Math.round(x), py); // the last value held until the gap began
                }
                if (run == 1) {
                    dot(g, px, py);
                }
                penDown = false;
                run = 0;
                continue;
            }
            double y = plotBottom - (v - yLow) * yScale + yOffset;
            // M4 already works at pixel resolution, so snapping costs no accuracy and keeps flat
            // runs crisp: 2 px steps on pixel edges, 1.5 px lines on pixel centres.
            if (step) {
                x = Math.round(x);
                y = Math.round(y);
            } else {
                x = crisp(x);
                y = crisp(y);
            }
            if (!penDown) {
                g.moveTo(x, y);
                penDown = true;
                run = 1;
            } else if (x == px && y == py) {
                continue; // the same pixel again: no segment to draw
            } else {
                if (step) {
                    g.lineTo(x, py);
                }
                g.lineTo(x, y);
                run++;
            }
            px = x;
            py = y;
        }
        if (run == 1) {
            dot(g, px, py);
        }
        g.stroke();
    }

    /** A lone sample between gaps has no line to draw; show it as a small square. */
    private static void dot(GraphicsContext g, double x, double y) {
        g.fillRect(x - 1.5, y - 1.5, 3, 3);
    }

    /** The centre of the pixel containing {@code c}: a 1 px line there covers one pixel, not two halves. */
    static double crisp(double c) {
        return Math.floor(c) + 0.5;
    }
}
