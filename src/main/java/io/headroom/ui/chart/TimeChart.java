package io.headroom.ui.chart;

import io.headroom.history.SeriesBuffer;
import io.headroom.history.Downsampler;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.beans.value.ChangeListener;
import javafx.beans.value.WeakChangeListener;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.geometry.BoundingBox;
import javafx.geometry.Bounds;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.input.MouseEvent;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;

/**
 * A live time-series chart panel drawn on a Canvas: title, legend, value axis with a unit, grid,
 * line and step series, reference lines, and a hover crosshair shared through its
 * {@link TimeAxis}.
 *
 * <p>Drawing is lazy and coalesced: every change only marks the chart dirty and asks for a pulse;
 * the chart draws at most once per frame from a scene post-layout pulse listener, after layout
 * has settled the size. Series are downsampled per pixel column ({@link Downsampler}), so a frame
 * costs O(width × series) whatever the history length. The hover crosshair lives on a second
 * canvas, so moving the mouse never redraws the series. Use on the FX thread, except
 * {@link ChartSeries#post}.
 */
public class TimeChart extends Region {

    /** Style class of the chart region. */
    public static final String STYLE_CLASS = "time-chart";

    /** Default samples per series: 12 h at a 2 s scrape interval. */
    public static final int DEFAULT_CAPACITY = 21_600;

    private static final double PAD = 8;
    private static final double LABEL_GAP = 6;
    private static final double LEGEND_SWATCH = 14;
    private static final double MIN_Y_TICK_SPACING = 32;
    private static final double HOVER_SNAP_PX = 4;
    private static final double[] LEGEND_DASHES = {4, 3};

    private final TimeAxis axis;
    private final Canvas plotCanvas = new Canvas();
    private final Canvas overlayCanvas = new Canvas();
    private final StringProperty title = new SimpleStringProperty(this, "title", "");
    private final StringProperty unit = new SimpleStringProperty(this, "unit", "");
    private final StringProperty rightUnit = new SimpleStringProperty(this, "rightUnit", "");
    private final ObjectProperty<ChartTheme> theme =
            new SimpleObjectProperty<>(this, "theme", ChartTheme.dark());
    private final List<ChartSeries> series = new ArrayList<>();
    private final List<ChartSeries> seriesView = Collections.unmodifiableList(series);
    private final ObservableList<ReferenceLine> referenceLines = FXCollections.observableArrayList();

    private final Font axisFont = Font.font(11);
    private final Font titleFont = Font.font(Font.getDefault().getFamily(), FontWeight.BOLD, 12);
    private final TextWidths widths = new TextWidths(axisFont);
    private final SeriesPainter painter = new SeriesPainter();
    private final GapPainter gapPainter;
    // The window older than the history read so far, and what to say over it (issue 29); none by default.
    private double pendingUntil = Double.NEGATIVE_INFINITY;
    private String pendingWords = "";
    private final double lineHeight;
    private final double timeLabelWidthSeconds;
    private final double timeLabelWidthMinutes;

    private boolean autoRange = true;
    // Missing data of one series, shaded and labelled (issue 11); null for none.
    private ChartSeries gapSeries;
    private double gapMaxSpacing;
    private List<Gaps.Gap> gaps = List.of();
    private double fixedMin;
    private ForecastBand band; // under the series (issue 29); null for none
    private double fixedMax;
    private int paletteSlots;

    // Redraw state: plain fields on the FX thread; `posted` is the one cross-thread flag.
    private boolean dirty = true;
    private boolean overlayDirty = true;
    private final AtomicBoolean posted = new AtomicBoolean();
    private long redrawCount;
    private final Runnable pulseListener = this::onPulse;

    // Geometry of the last plot redraw, reused by the overlay and the mouse mapping.
    private double plotLeft;
    private double plotTop;
    private double plotRight;
    private double plotBottom;
    private double viewStart;
    private double viewEnd;
    private double yMin;
    private double yMax;
    // The right-hand axis, when any series uses it.
    private boolean hasRight;
    private double y2Min;
    private double y2Max;
    private double gutter = 40;
    private double rightGutter;

    // The axis outlives views (one per class detail screen); weak listeners let charts go.
    private final ChangeListener<Number> windowListener = (obs, old, now) -> requestRedraw();
    private final ChangeListener<Number> hoverListener = (obs, old, now) -> requestOverlayRedraw();
    private final ChangeListener<Object> zoneListener = (obs, old, now) -> requestRedraw();

    /** An untitled chart on {@code axis}. */
    public TimeChart(TimeAxis axis) {
        this("", axis);
    }

    /** A chart titled {@code title} on {@code axis}; charts sharing an axis show the same window. */
    public TimeChart(String title, TimeAxis axis) {
        this.axis = Objects.requireNonNull(axis, "axis");
        this.title.set(title);
        getStyleClass().add(STYLE_CLASS);

        lineHeight = widths.lineHeight(axisFont);
        gapPainter = new GapPainter(axisFont, widths, lineHeight);
        timeLabelWidthSeconds = measure("00:00:00", axisFont);
        timeLabelWidthMinutes = measure("00:00", axisFont);

        // The canvases follow the region's size; a resize needs a redraw, not a re-layout.
        for (Canvas c : List.of(plotCanvas, overlayCanvas)) {
            c.setManaged(false);
            c.widthProperty().bind(widthProperty());
            c.heightProperty().bind(heightProperty());
        }
        overlayCanvas.setMouseTransparent(true);
        getChildren().addAll(plotCanvas, overlayCanvas);
        widthProperty().addListener(o -> requestRedraw());
        heightProperty().addListener(o -> requestRedraw());

        this.title.addListener(o -> requestRedraw());
        unit.addListener(o -> requestRedraw());
        theme.addListener(o -> requestRedraw());
        referenceLines.addListener((ListChangeListener<ReferenceLine>) c -> requestRedraw());
        axis.windowEndProperty().addListener(new WeakChangeListener<>(windowListener));
        axis.windowLengthProperty().addListener(new WeakChangeListener<>(windowListener));
        axis.hoverTimeProperty().addListener(new WeakChangeListener<>(hoverListener));
        axis.zoneProperty().addListener(new WeakChangeListener<>(zoneListener));
        axis.plotInsetProperty().addListener(new WeakChangeListener<>(windowListener));
        axis.rightInsetProperty().addListener(new WeakChangeListener<>(windowListener));
        rightUnit.addListener(o -> requestRedraw());

        sceneProperty().addListener((obs, old, scene) -> {
            if (old != null) {
                old.removePostLayoutPulseListener(pulseListener);
                axis.releasePlotInset(this);
            }
            if (scene != null) {
                scene.addPostLayoutPulseListener(pulseListener);
                dirty = false; // force the request below to go through
                requestRedraw();
            }
        });

        addEventHandler(MouseEvent.MOUSE_MOVED, this::onMouseMoved);
        addEventHandler(MouseEvent.MOUSE_DRAGGED, this::onMouseMoved);
        addEventHandler(MouseEvent.MOUSE_EXITED, e -> axis.setHoverTime(Double.NaN));
    }

    // --- API --------------------------------------------------------------------------------

    public TimeAxis getTimeAxis() {
        return axis;
    }

    /** Title drawn at the top left. */
    public StringProperty titleProperty() {
        return title;
    }

    public String getTitle() {
        return title.get();
    }

    public void setTitle(String value) {
        title.set(value);
    }

    /** Unit of the value axis, e.g. "s" or "msg/s"; shown above the axis and in the hover box. */
    public StringProperty unitProperty() {
        return unit;
    }

    public String getUnit() {
        return unit.get();
    }

    public void setUnit(String value) {
        unit.set(value);
    }

    /** Colours; switch with the app theme. */
    /** Unit of the right-hand value axis (series with {@link ChartSeries#setRightAxis}). */
    public StringProperty rightUnitProperty() {
        return rightUnit;
    }

    public void setRightUnit(String value) {
        rightUnit.set(value);
    }

    public ObjectProperty<ChartTheme> themeProperty() {
        return theme;
    }

    public ChartTheme getTheme() {
        return theme.get();
    }

    public void setTheme(ChartTheme value) {
        theme.set(Objects.requireNonNull(value, "theme"));
    }

    /** Adds a series holding up to {@link #DEFAULT_CAPACITY} samples, coloured from the palette. */
    public ChartSeries addSeries(String name, SeriesKind kind) {
        return addSeries(name, kind, DEFAULT_CAPACITY);
    }

    /** Adds a series holding up to {@code capacity} samples, coloured from the palette. */
    public ChartSeries addSeries(String name, SeriesKind kind, int capacity) {
        ChartSeries s = new ChartSeries(this, name, kind, capacity, paletteSlots++);
        series.add(s);
        requestRedraw();
        return s;
    }

    /**
     * Adds a series drawn from a buffer the caller owns (e.g. a view model's history), so
     * switching what a chart shows is a matter of pointing it at other buffers, not copying.
     * Fill the buffer on the FX thread and call {@link #requestRedraw()}.
     */
    public ChartSeries addSeries(String name, SeriesKind kind, SeriesBuffer buffer) {
        ChartSeries s = new ChartSeries(this, name, kind, buffer, paletteSlots++);
        series.add(s);
        requestRedraw();
        return s;
    }

    public boolean removeSeries(ChartSeries s) {
        boolean removed = series.remove(s);
        if (series.isEmpty()) {
            // A chart rebuilt with the same series in the same order gets the same colours.
            paletteSlots = 0;
        }
        requestRedraw();
        return removed;
    }

    /** The series in drawing order (later ones on top). */
    public List<ChartSeries> getSeries() {
        return seriesView;
    }

    /** Horizontal reference lines; edits redraw. */
    public ObservableList<ReferenceLine> getReferenceLines() {
        return referenceLines;
    }

    /** A forecast drawn under the series, with a legend entry and a "now" mark; null for none. */
    public void setForecastBand(ForecastBand b) {
        band = b;
        requestRedraw();
    }

    public ForecastBand getForecastBand() {
        return band;
    }

    /** Value range from the visible data: starts at 0 for non-negative data, with headroom. */
    public void setAutoYRange() {
        autoRange = true;
        requestRedraw();
    }

    /** A fixed value range, e.g. 0–100 for a percentage. */
    public void setFixedYRange(double min, double max) {
        if (!(max > min)) {
            throw new IllegalArgumentException("need min < max: " + min + ", " + max);
        }
        autoRange = false;
        fixedMin = min;
        fixedMax = max;
        requestRedraw();
    }

    public boolean isAutoYRange() {
        return autoRange;
    }

    /** Marks the chart for a redraw at the next frame; cheap, call it as often as you like. */
    public final void requestRedraw() {
        if (!dirty) {
            dirty = true;
            Platform.requestNextPulse();
        }
    }

    /**
     * Shades and labels where {@code s} has no data in the window ("no data"), and marks an outage
     * still going on at the right edge ("no data since 13:42"); null turns it off.
     *
     * @param maxSpacing the longest time between two samples that is still continuous data (about
     *                   two ticks): a longer stretch without a sample is shaded too
     */
    public void setGapSeries(ChartSeries s, double maxSpacing) {
        this.gapSeries = s;
        this.gapMaxSpacing = maxSpacing;
        requestRedraw();
    }

    /**
     * Says {@code words} ("history: 3 of 7 days…") over the part of the window before {@code until}, the oldest
     * point read so far, while the rest is still arriving: not shaded as missing data. Empty words or
     * {@code until} = -∞ for none.
     */
    public void setPending(double until, String words) {
        pendingUntil = words == null || words.isEmpty() ? Double.NEGATIVE_INFINITY : until;
        pendingWords = words == null ? "" : words;
        requestRedraw();
    }

    /** The words said over the part of the window not read yet; empty for none. */
    public String getPendingWords() {
        return pendingWords;
    }

    /** The gaps shaded at the last redraw; for tests and diagnostics. */
    public List<Gaps.Gap> getGaps() {
        return gaps;
    }

    /** Number of times the series layer has been drawn; for tests and diagnostics. */
    public long getRedrawCount() {
        return redrawCount;
    }

    /** The current value range of the plot, {min, max}; valid after the first redraw. */
    public double[] getYRange() {
        return new double[] {yMin, yMax};
    }

    /** The plot area in this region's coordinates as of the last redraw, e.g. to place an overlay. */
    public Bounds getPlotBounds() {
        return new BoundingBox(plotLeft, plotTop, Math.max(0, plotRight - plotLeft), Math.max(0, plotBottom - plotTop));
    }

    // --- Frame ------------------------------------------------------------------------------

    void samplesPosted() {
        // Any thread. One crossing per burst of posts, not one per sample, through the one FX executor.
        if (posted.compareAndSet(false, true)) {
            io.headroom.ui.fx.FxExecutor.get().execute(this::movePosted);
        }
    }

    /** FX thread: posted samples into the series, and a redraw at the next frame if any arrived. */
    private void movePosted() {
        if (posted.getAndSet(false)) {
            boolean any = false;
            for (ChartSeries s : series) {
                any |= s.drainPosted();
            }
            if (any) {
                requestRedraw();
            }
        }
    }

    private void requestOverlayRedraw() {
        if (!overlayDirty) {
            overlayDirty = true;
            Platform.requestNextPulse();
        }
    }

    private void onPulse() {
        double width = getWidth();
        double height = getHeight();
        if (axis.isFollowLive()) {
            double plotWidth = Math.max(1, plotRight - plotLeft);
            axis.advanceLive(axis.getWindowLength() / plotWidth); // redraws via the window listener
            // Keep pulses coming so the window keeps sliding when no data arrives: a stalled
            // feed must show as a line ending short of "now".
            Platform.requestNextPulse();
        }
        if (width < 1 || height < 1 || !isVisible()) {
            return;
        }
        if (dirty) {
            dirty = false;
            drawPlot(width, height);
            redrawCount++;
            overlayDirty = true;
        }
        if (overlayDirty) {
            overlayDirty = false;
            drawOverlay(width, height);
        }
    }

    // --- Plot layer -------------------------------------------------------------------------

    private void drawPlot(double width, double height) {
        GraphicsContext g = plotCanvas.getGraphicsContext2D();
        ChartTheme th = theme.get();
        g.setFill(th.background());
        g.fillRect(0, 0, width, height);

        double headerBottom = drawHeader(g, th, width);
        String unitText = unit.get();
        boolean hasUnit = unitText != null && !unitText.isEmpty();
        // Half a line above the plot keeps the top tick label inside; a unit label takes a line more.
        plotTop = Math.round(headerBottom + lineHeight / 2 + (hasUnit ? lineHeight + 2 : 0));
        plotBottom = Math.round(height - lineHeight - LABEL_GAP - 2);
        viewEnd = axis.getWindowEnd();
        viewStart = viewEnd - axis.getWindowLength();
        if (plotBottom - plotTop < 10) {
            return; // too small to plot anything legible
        }

        // Downsample with the last frame's gutter: the column count only sets M4's resolution,
        // points keep their own times, so a gutter change of a few pixels is harmless.
        int columns = (int) Math.max(1, width - gutter - PAD - rightGutter);
        double dataMin = Double.POSITIVE_INFINITY;
        double dataMax = Double.NEGATIVE_INFINITY;
        double data2Min = Double.POSITIVE_INFINITY;
        double data2Max = Double.NEGATIVE_INFINITY;
        hasRight = false;
        for (ChartSeries s : series) {
            if (!s.isVisible()) {
                continue;
            }
            Downsampler d = s.downsampler;
            d.run(s.getBuffer(), viewStart, viewEnd, columns);
            hasRight |= s.isRightAxis();
            if (d.min() == d.min()) {
                if (s.isRightAxis()) {
                    data2Min = Math.min(data2Min, d.min());
                    data2Max = Math.max(data2Max, d.max());
                } else {
                    dataMin = Math.min(dataMin, d.min());
                    dataMax = Math.max(dataMax, d.max());
                }
            }
        }

        if (band != null && band.maxIn(viewStart, viewEnd) == band.maxIn(viewStart, viewEnd)) {
            dataMin = Math.min(dataMin, band.minIn(viewStart, viewEnd));
            dataMax = Math.max(dataMax, band.maxIn(viewStart, viewEnd));
        }
        int maxYTicks = Math.max(2, (int) ((plotBottom - plotTop) / MIN_Y_TICK_SPACING));
        double[] range = computeYRange(dataMin, dataMax, maxYTicks, true);
        yMin = range[0];
        yMax = range[1];
        double[] yTicks = TimeAxis.valueTicks(yMin, yMax, maxYTicks);
        double yStep = yTicks.length > 1 ? yTicks[1] - yTicks[0] : TimeAxis.niceStep(yMax - yMin, maxYTicks);
        String[] yLabels = new String[yTicks.length];
        double labelWidth = hasUnit ? measure(unitText, axisFont) : 0;
        for (int i = 0; i < yTicks.length; i++) {
            yLabels[i] = TimeAxis.formatValue(yTicks[i], yStep);
            labelWidth = Math.max(labelWidth, measure(yLabels[i], axisFont));
        }
        // The right axis shares the left one's tick positions (same count), so one grid serves both.
        String[] y2Labels = null;
        double rightWidth = 0;
        if (hasRight) {
            double[] r2 = computeYRange(data2Min, data2Max, maxYTicks, false);
            int intervals = Math.max(1, yTicks.length - 1);
            double step2 = TimeAxis.niceStep((r2[1] - r2[0]) / intervals * 1.0001, 1);
            y2Min = Math.floor(r2[0] / step2) * step2;
            y2Max = y2Min + step2 * intervals;
            // Position right labels at the left ticks' fractions.
            y2Labels = new String[yTicks.length];
            String u2 = rightUnit.get();
            rightWidth = u2 == null || u2.isEmpty() ? 0 : measure(u2, axisFont);
            for (int i = 0; i < yTicks.length; i++) {
                double frac = (yTicks[i] - yMin) / (yMax - yMin);
                y2Labels[i] = TimeAxis.formatValue(y2Min + frac * (y2Max - y2Min), step2);
                rightWidth = Math.max(rightWidth, measure(y2Labels[i], axisFont));
            }
        }
        // The gutters are shared through the axis so stacked charts keep one time axis to the pixel.
        gutter = axis.claimPlotInset(this, Math.ceil(PAD + labelWidth + LABEL_GAP));
        rightGutter = axis.claimRightInset(this, hasRight ? Math.ceil(rightWidth + LABEL_GAP) : 0);
        plotLeft = gutter;
        plotRight = Math.floor(width - PAD - rightGutter);
        if (plotRight - plotLeft < 10) {
            return;
        }

        drawGrid(g, th, yTicks, yLabels, hasUnit ? unitText : null);
        if (hasRight) {
            drawRightLabels(g, th, yTicks, y2Labels);
        }
        gapPainter.frame(plotLeft, plotTop, plotRight, plotBottom, this::xOf);
        ChartSeries gs = gapSeries;
        // Older than the history read so far is still arriving, not missing: no gap there.
        gaps = gs == null || !series.contains(gs) ? List.of() : Gaps.find(gs.getBuffer(), Math.max(viewStart,
                pendingUntil), Math.min(viewEnd, axis.now()), gapMaxSpacing); // and none after now
        gapPainter.shade(g, th, gaps);
        gapPainter.pending(g, th, pendingUntil, pendingWords);
        if (band != null) {
            BandPainter.draw(g, th, band, plotLeft, plotTop, plotRight, plotBottom, viewStart, viewEnd, yMin, yMax,
                    axis.now(), axisFont);
        }
        painter.draw(g, th, series, plotLeft, plotTop, plotRight, plotBottom, viewStart, viewEnd,
                yMin, yMax, y2Min, y2Max);
        drawReferenceLines(g, th);
        gapPainter.label(g, th, gaps, t -> axis.formatTime(t, 1));
    }

    /** Title, then legend entries flowing after it and wrapping; returns the header's bottom. */
    private double drawHeader(GraphicsContext g, ChartTheme th, double width) {
        double x = PAD;
        double y = PAD / 2;
        double right = width - PAD;
        g.setTextBaseline(VPos.TOP);
        g.setTextAlign(TextAlignment.LEFT);
        String t = title.get();
        if (t != null && !t.isEmpty()) {
            g.setFont(titleFont);
            g.setFill(th.titleText());
            g.fillText(t, x, y);
            x += measure(t, titleFont) + 2 * LABEL_GAP;
        }
        g.setFont(axisFont);
        boolean any = false;
        for (ChartSeries s : series) {
            if (!s.isVisible()) {
                continue;
            }
            double entry = LEGEND_SWATCH + 4 + measure(s.getName(), axisFont);
            // Wrap below the title rather than ever running into it or past the edge.
            if (x + entry > right && x > PAD) {
                x = PAD;
                y += lineHeight;
            }
            double mid = Math.floor(y + lineHeight / 2) + 0.5;
            g.setStroke(s.resolveColor(th));
            g.setLineWidth(s.getKind() == SeriesKind.STEP ? 2 : 1.5);
            g.setLineDashes(s.isDashed() ? LEGEND_DASHES : null);
            g.strokeLine(x, mid, x + LEGEND_SWATCH, mid);
            g.setFill(th.axisText());
            g.fillText(s.getName(), x + LEGEND_SWATCH + 4, y);
            x += entry + 2 * LABEL_GAP;
            any = true;
        }
        g.setLineDashes((double[]) null);
        if (band != null) { // last, wrapping like the series' entries; returns the line it ended on
            y = BandPainter.legend(g, th, band.name(), measure(band.name(), axisFont), x, y, lineHeight, right, PAD);
            any = true;
        }
        boolean hasTitle = t != null && !t.isEmpty();
        return hasTitle || any ? y + lineHeight : PAD / 2;
    }

    private double[] computeYRange(double dataMin, double dataMax, int maxTicks, boolean withReferences) {
        if (!autoRange && withReferences) {
            return new double[] {fixedMin, fixedMax};
        }
        List<Double> refs = new ArrayList<>();
        if (withReferences) {
            for (ReferenceLine r : referenceLines) {
                refs.add(r.value());
            }
        }
        return ValueRange.of(dataMin, dataMax, refs, maxTicks);
    }

    private void drawRightLabels(GraphicsContext g, ChartTheme th, double[] yTicks, String[] labels) {
        g.setFont(axisFont);
        g.setFill(th.axisText());
        g.setTextAlign(TextAlignment.LEFT);
        g.setTextBaseline(VPos.CENTER);
        for (int i = 0; i < yTicks.length; i++) {
            g.fillText(labels[i], plotRight + LABEL_GAP, crisp(yOf(yTicks[i])));
        }
        String u2 = rightUnit.get();
        if (u2 != null && !u2.isEmpty()) {
            g.setTextBaseline(VPos.BOTTOM);
            g.fillText(u2, plotRight + LABEL_GAP, plotTop - lineHeight / 2 - 1);
        }
    }

    private void drawGrid(GraphicsContext g, ChartTheme th, double[] yTicks, String[] yLabels, String unitText) {
        g.setFont(axisFont);
        // Grid lines are 1 px rows and columns of whole pixels, filled: the same pixels as a 1 px
        // stroke on the pixel centres, without a trip through the software stroker (a full-height
        // stroked line costs the rasteriser every one of its scanlines).
        g.setFill(th.grid());
        double[] yPixel = new double[yTicks.length];
        for (int i = 0; i < yTicks.length; i++) {
            yPixel[i] = crisp(yOf(yTicks[i]));
            g.fillRect(plotLeft, yPixel[i] - 0.5, plotRight - plotLeft, 1);
        }
        g.setFill(th.axisText());
        g.setTextAlign(TextAlignment.RIGHT);
        g.setTextBaseline(VPos.CENTER);
        for (int i = 0; i < yTicks.length; i++) {
            g.fillText(yLabels[i], plotLeft - LABEL_GAP, yPixel[i]);
        }
        if (unitText != null) {
            g.setTextBaseline(VPos.BOTTOM);
            g.fillText(unitText, plotLeft - LABEL_GAP, plotTop - lineHeight / 2 - 1);
        }

        // Time axis: the tick count comes from the measured label width, so labels never collide.
        double plotWidth = plotRight - plotLeft;
        double span = viewEnd - viewStart;
        // Over days, midnights are labelled with their weekday ("Tue 1"), the widest label.
        boolean days = span >= 2 * 86_400;
        int maxTicks = Math.max(1, (int) (plotWidth / ((days ? measure("Wed 30", axisFont) : timeLabelWidthMinutes)
                + 3 * LABEL_GAP)));
        if (TimeAxis.timeTickStep(span, maxTicks) < 60) {
            maxTicks = Math.max(1, (int) (plotWidth / (timeLabelWidthSeconds + 3 * LABEL_GAP)));
        }
        double step = TimeAxis.timeTickStep(span, maxTicks);
        double[] ticks = axis.timeTicks(viewStart, viewEnd, maxTicks);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.TOP);
        double labelY = plotBottom + LABEL_GAP / 2;
        double lastLabelRight = Double.NEGATIVE_INFINITY;
        for (double t : ticks) {
            // A day's boundary reads stronger than the grid when the window spans days (issue 29).
            g.setFill(days && axis.isDayStart(t) ? th.axisText().deriveColor(0, 1, 1, 0.45) : th.grid());
            g.fillRect(crisp(xOf(t)) - 0.5, plotTop, 1, plotBottom - plotTop);
        }
        g.setFill(th.axisText());
        for (double t : ticks) {
            double x = crisp(xOf(t));
            String label = days && axis.isDayStart(t) ? axis.dayLabel(t) : axis.formatTime(t, step);
            double half = measure(label, axisFont) / 2;
            // Skip a label rather than clip it at an edge or let it touch its neighbour.
            if (x - half >= plotLeft - LABEL_GAP && x + half <= getWidth() - 2 && x - half > lastLabelRight + LABEL_GAP) {
                g.fillText(label, x, labelY);
                lastLabelRight = x + half;
            }
        }
        // Baseline of the plot, a touch stronger than the grid.
        g.setFill(th.axisText().deriveColor(0, 1, 1, 0.5));
        g.fillRect(plotLeft, Math.floor(plotBottom), plotRight - plotLeft, 1);
    }

    private void drawReferenceLines(GraphicsContext g, ChartTheme th) {
        g.setLineWidth(1);
        g.setLineDashes(5, 4);
        g.setFont(axisFont);
        g.setTextAlign(TextAlignment.RIGHT);
        for (ReferenceLine r : referenceLines) {
            if (!(r.value() >= yMin && r.value() <= yMax)) {
                continue;
            }
            Color color = r.color() != null ? r.color() : th.axisText();
            double y = crisp(yOf(r.value()));
            g.setStroke(color);
            g.strokeLine(plotLeft, y, plotRight, y);
            if (r.label().isEmpty()) {
                continue;
            }
            // Label above the line at the right edge, or below it when the line hugs the top.
            boolean above = y - lineHeight - 2 >= plotTop;
            double textW = measure(r.label(), axisFont);
            double textX = plotRight - 4;
            double boxTop = above ? y - lineHeight - 1 : y + 1;
            // A background-coloured plate keeps the label readable over series lines.
            g.setFill(th.background().deriveColor(0, 1, 1, 0.85));
            g.fillRect(textX - textW - 3, boxTop, textW + 6, lineHeight);
            g.setFill(color);
            g.setTextBaseline(VPos.TOP);
            g.fillText(r.label(), textX, boxTop);
        }
        g.setLineDashes((double[]) null);
    }

    // --- Overlay layer ----------------------------------------------------------------------

    private void drawOverlay(double width, double height) {
        GraphicsContext g = overlayCanvas.getGraphicsContext2D();
        double t = axis.getHoverTime();
        if (t != t || t < viewStart || t > viewEnd || plotRight <= plotLeft) {
            // Nothing to show: hide the layer rather than clear and composite an empty canvas
            // the size of the chart at every frame.
            overlayCanvas.setVisible(false);
            return;
        }
        overlayCanvas.setVisible(true);
        g.clearRect(0, 0, width, height);
        ChartTheme th = theme.get();
        double x = crisp(xOf(t));
        g.setLineWidth(1);
        g.setLineDashes((double[]) null);
        g.setFill(th.crosshair());
        g.fillRect(x - 0.5, plotTop, 1, plotBottom - plotTop); // a 1 px line, filled

        // Reading at time t: the newest sample at or before it (exactly right for steps; for
        // lines it is the sample the eye attributes to that pixel). Past a series' newest sample
        // there is no reading: showing the stale value there would hide a stalled feed.
        double pixelTime = (viewEnd - viewStart) / (plotRight - plotLeft);
        double snap = HOVER_SNAP_PX * pixelTime;
        String unitText = unit.get() == null || unit.get().isEmpty() ? "" : " " + unit.get();
        int n = 0;
        for (ChartSeries s : series) {
            if (s.isVisible()) {
                n++;
            }
        }
        String[] names = new String[n];
        String[] readings = new String[n];
        Color[] colors = new Color[n];
        double nameW = 0;
        double readingW = 0;
        int k = 0;
        for (ChartSeries s : series) {
            if (!s.isVisible()) {
                continue;
            }
            SeriesBuffer b = s.getBuffer();
            int i = b.indexAtOrBefore(t + pixelTime / 2);
            double v = Double.NaN;
            if (i >= 0 && !(i == b.size() - 1 && t - b.time(i) > snap)) {
                v = b.value(i);
            }
            names[k] = s.getName();
            String u = s.isRightAxis() ? (rightUnit.get() == null || rightUnit.get().isEmpty() ? ""
                    : " " + rightUnit.get()) : unitText;
            readings[k] = v == v ? formatReading(v) + u : "no data";
            colors[k] = s.resolveColor(th);
            if (v == v) {
                double vy = s.isRightAxis() ? y2Of(v) : yOf(v);
                if (vy >= plotTop && vy <= plotBottom) {
                    g.setFill(colors[k]);
                    g.fillOval(x - 3, vy - 3, 6, 6);
                }
            }
            nameW = Math.max(nameW, measure(names[k], axisFont));
            readingW = Math.max(readingW, measure(readings[k], axisFont));
            k++;
        }
        String time = (viewEnd - viewStart >= 2 * 86_400 ? axis.dayLabel(t) + " " : "") + axis.formatTimeFull(t);
        double inner = Math.max(measure(time, axisFont), LEGEND_SWATCH / 2 + 4 + nameW + 12 + readingW);
        double boxW = Math.ceil(inner + 2 * LABEL_GAP);
        double boxH = Math.ceil((n + 1) * lineHeight + LABEL_GAP);
        double boxX = x + 8;
        if (boxX + boxW > plotRight) {
            boxX = x - 8 - boxW; // flip to the left of the crosshair near the right edge
        }
        boxX = Math.round(Math.max(plotLeft, boxX));
        double boxY = Math.round(plotTop + 4);

        g.setFill(th.background().deriveColor(0, 1, 1, 0.92));
        g.fillRect(boxX, boxY, boxW, boxH);
        g.setStroke(th.grid());
        g.strokeRect(boxX + 0.5, boxY + 0.5, boxW - 1, boxH - 1);
        g.setFont(axisFont);
        g.setTextBaseline(VPos.TOP);
        g.setTextAlign(TextAlignment.LEFT);
        g.setFill(th.titleText());
        double tx = boxX + LABEL_GAP;
        double ty = boxY + LABEL_GAP / 2;
        g.fillText(time, tx, ty);
        for (int i = 0; i < n; i++) {
            ty += lineHeight;
            g.setFill(colors[i]);
            g.fillRect(tx, Math.round(ty + lineHeight / 2 - 3), LEGEND_SWATCH / 2, 6);
            g.setFill(th.axisText());
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText(names[i], tx + LEGEND_SWATCH / 2 + 4, ty);
            g.setFill(th.titleText());
            g.setTextAlign(TextAlignment.RIGHT);
            g.fillText(readings[i], boxX + boxW - LABEL_GAP, ty);
        }
    }

    private void onMouseMoved(MouseEvent e) {
        double x = e.getX();
        double y = e.getY();
        boolean inside = x >= plotLeft && x <= plotRight && y >= plotTop && y <= plotBottom && plotRight > plotLeft;
        axis.setHoverTime(inside ? viewStart + (x - plotLeft) / (plotRight - plotLeft) * (viewEnd - viewStart)
                : Double.NaN);
    }

    // --- Helpers ----------------------------------------------------------------------------

    double xOf(double t) {
        return plotLeft + (t - viewStart) / (viewEnd - viewStart) * (plotRight - plotLeft);
    }

    double yOf(double v) {
        return plotBottom - (v - yMin) / (yMax - yMin) * (plotBottom - plotTop);
    }

    double y2Of(double v) {
        return plotBottom - (v - y2Min) / (y2Max - y2Min) * (plotBottom - plotTop);
    }

    private static double crisp(double c) {
        return SeriesPainter.crisp(c);
    }

    private double measure(String text, Font font) {
        return widths.width(text, font);
    }

    /** Three significant figures are plenty to read off a chart. */
    static String formatReading(double v) {
        double a = Math.abs(v);
        if (a >= 1e7) {
            return TimeAxis.formatValue(v, 1e5);
        }
        if (a >= 1e4) {
            return TimeAxis.formatValue(v, 100);
        }
        if (a >= 100 || v == Math.rint(v)) {
            return Long.toString(Math.round(v));
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    @Override
    protected double computePrefWidth(double height) {
        return 640;
    }

    @Override
    protected double computePrefHeight(double width) {
        return 200;
    }

    @Override
    protected double computeMinWidth(double height) {
        return 160;
    }

    @Override
    protected double computeMinHeight(double width) {
        return 90;
    }

    @Override
    public String toString() {
        return "TimeChart[" + title.get() + ", " + series.size() + " series]";
    }
}
