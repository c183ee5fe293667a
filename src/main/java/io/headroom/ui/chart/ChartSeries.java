package io.headroom.ui.chart;

import io.headroom.history.Downsampler;
import io.headroom.history.SeriesBuffer;
import java.util.Objects;
import javafx.scene.paint.Color;

/**
 * One named series of a {@link TimeChart}: its samples, kind and look. Create with
 * {@link TimeChart#addSeries}.
 *
 * <p>Two ways to feed samples: {@link #append} on the FX thread, or {@link #post} from any
 * thread. Posted samples wait in a side buffer and cross to the FX thread through the one
 * {@code FxExecutor}, once per burst, so a fast producer costs one lock per sample and at most one
 * redraw per frame, never one crossing per sample.
 */
public final class ChartSeries {

    private final TimeChart chart;
    private final String name;
    private final SeriesKind kind;
    private final SeriesBuffer buffer;
    private final int paletteSlot;
    final Downsampler downsampler = new Downsampler();

    private Color color;
    private boolean dashed;
    private boolean visible = true;

    // Posting side: producers write `incoming` under the lock; the FX thread swaps it with the
    // empty `draining` buffer and copies outside the lock, so producers never wait for a copy.
    private final Object lock = new Object();
    private SeriesBuffer incoming; // guarded by lock; created on first post
    private SeriesBuffer draining; // FX thread only

    private boolean rightAxis;
    private double pixelOffset;

    ChartSeries(TimeChart chart, String name, SeriesKind kind, int capacity, int paletteSlot) {
        this(chart, name, kind, new SeriesBuffer(capacity), paletteSlot);
    }

    ChartSeries(TimeChart chart, String name, SeriesKind kind, SeriesBuffer buffer, int paletteSlot) {
        this.chart = chart;
        this.name = Objects.requireNonNull(name, "name");
        this.kind = Objects.requireNonNull(kind, "kind");
        this.buffer = Objects.requireNonNull(buffer, "buffer");
        this.paletteSlot = paletteSlot;
    }

    /** True when the series is read against the chart's right-hand value axis. */
    public boolean isRightAxis() {
        return rightAxis;
    }

    /** Puts the series on the right-hand value axis (its own range and unit), e.g. a count beside seconds. */
    public void setRightAxis(boolean right) {
        this.rightAxis = right;
        chart.requestRedraw();
    }

    /** Pixels the line is drawn down (positive) or up (negative) from its value; 0 by default. */
    public double getPixelOffset() {
        return pixelOffset;
    }

    /**
     * Draws the line a few pixels off its value, so step lines that often sit at the same value
     * (replicas, ready, desired) stay side by side instead of hiding one another (issue 11). The
     * hover reading and the value range use the true value.
     */
    public void setPixelOffset(double px) {
        this.pixelOffset = px;
        chart.requestRedraw();
    }

    public String getName() {
        return name;
    }

    public SeriesKind getKind() {
        return kind;
    }

    /** The samples; read on the FX thread. Write through {@link #append} so the chart redraws. */
    public SeriesBuffer getBuffer() {
        return buffer;
    }

    /** The explicit colour, or null when the series takes its colour from the theme palette. */
    public Color getColor() {
        return color;
    }

    /** Sets an explicit colour; null goes back to the theme palette (which follows theme changes). */
    public void setColor(Color color) {
        this.color = color;
        chart.requestRedraw();
    }

    public boolean isDashed() {
        return dashed;
    }

    /** Dashed stroke, e.g. for a limit or a forecast next to measured series. */
    public void setDashed(boolean dashed) {
        this.dashed = dashed;
        chart.requestRedraw();
    }

    public boolean isVisible() {
        return visible;
    }

    /** Hidden series are neither drawn, nor in the legend, nor in the auto y range. */
    public void setVisible(boolean visible) {
        this.visible = visible;
        chart.requestRedraw();
    }

    /** The colour this series is drawn with under {@code theme}. */
    public Color resolveColor(ChartTheme theme) {
        return color != null ? color : theme.seriesColor(paletteSlot);
    }

    /**
     * Appends a sample on the FX thread; NaN {@code value} records a gap. Samples older than the
     * newest one are dropped (see {@link SeriesBuffer#append}).
     */
    public void append(double time, double value) {
        if (buffer.append(time, value)) {
            chart.requestRedraw();
        }
    }

    /** Drops every sample, posted ones included. FX thread. */
    public void clear() {
        synchronized (lock) {
            if (incoming != null) {
                incoming.clear();
            }
        }
        buffer.clear();
        chart.requestRedraw();
    }

    /**
     * Queues a sample from any thread; it reaches the chart at the next frame. Beyond the
     * series capacity the oldest queued samples are dropped, as the ring would drop them anyway.
     */
    public void post(double time, double value) {
        synchronized (lock) {
            if (incoming == null) {
                incoming = new SeriesBuffer(buffer.capacity());
            }
            incoming.append(time, value);
        }
        chart.samplesPosted();
    }

    /** Queues {@code count} samples from parallel arrays in one lock, e.g. a backfilled range. */
    public void postAll(double[] times, double[] values, int count) {
        if (count > times.length || count > values.length) {
            throw new IllegalArgumentException("count " + count + " exceeds the arrays");
        }
        synchronized (lock) {
            if (incoming == null) {
                incoming = new SeriesBuffer(buffer.capacity());
            }
            for (int i = 0; i < count; i++) {
                incoming.append(times[i], values[i]);
            }
        }
        chart.samplesPosted();
    }

    /** Moves posted samples into the series; FX thread. Returns whether any arrived. */
    boolean drainPosted() {
        SeriesBuffer batch;
        synchronized (lock) {
            if (incoming == null || incoming.isEmpty()) {
                return false;
            }
            batch = incoming;
            incoming = draining != null ? draining : new SeriesBuffer(buffer.capacity());
            draining = null;
        }
        boolean any = batch.appendTo(buffer);
        batch.clear();
        draining = batch;
        return any;
    }

    @Override
    public String toString() {
        return "ChartSeries[" + name + ", " + kind + ", " + buffer.size() + " samples]";
    }
}
