package io.headroom.ui.chart;

import io.headroom.history.SeriesBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.Objects;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyDoubleProperty;
import javafx.beans.property.ReadOnlyDoubleWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The visible time window shared by charts stacked on one time axis, plus nice tick generation
 * for time and value axes.
 *
 * <p>Charts that share an instance show exactly the same window and the same hover time. Times
 * are epoch seconds as doubles, like {@link SeriesBuffer}. Properties are FX-thread only.
 */
public final class TimeAxis {

    /** Time tick steps in seconds, smallest first: 1/2/5/10/15/30 s, 1/2/5/10/15/30 min, 1/2/3/6/12 h. */
    private static final double[] TIME_STEPS = {
        1, 2, 5, 10, 15, 30,
        60, 120, 300, 600, 900, 1800,
        3600, 7200, 10800, 21600, 43200,
    };
    private static final double DAY = 86_400;

    private final Clock clock;
    private final DoubleProperty windowEnd = new SimpleDoubleProperty(this, "windowEnd");
    private final DoubleProperty windowLength = new SimpleDoubleProperty(this, "windowLength", 900);
    private final BooleanProperty followLive = new SimpleBooleanProperty(this, "followLive", true);
    /** Following live, the share of the window kept to the right of now (a forecast's next hours); 0 by default. */
    private final DoubleProperty lookAhead = new SimpleDoubleProperty(this, "lookAhead", 0);
    private final DoubleProperty hoverTime = new SimpleDoubleProperty(this, "hoverTime", Double.NaN);
    private final ObjectProperty<ZoneId> zone = new SimpleObjectProperty<>(this, "zone");
    private final ReadOnlyDoubleWrapper plotInset = new ReadOnlyDoubleWrapper(this, "plotInset", 0);
    // Weak keys: a chart dropped with its view must not pin the shared inset wide forever.
    private final Map<Object, Double> insetClaims = new WeakHashMap<>();
    private final ReadOnlyDoubleWrapper rightInset = new ReadOnlyDoubleWrapper(this, "rightInset", 0);
    private final Map<Object, Double> rightClaims = new WeakHashMap<>();

    // Formatters are immutable but not free to build; rebuilt only when the zone changes.
    private DateTimeFormatter seconds;
    private DateTimeFormatter minutes;
    private DateTimeFormatter days;
    private DateTimeFormatter weekday;

    /** A 15-minute window following {@code clock}, labelled in {@code zone} (tests fix both). */
    public TimeAxis(Clock clock, ZoneId zone) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.zone.set(Objects.requireNonNull(zone, "zone"));
        this.zone.addListener((obs, old, now) -> buildFormatters());
        buildFormatters();
        windowEnd.set(now());
    }

    // --- Properties -------------------------------------------------------------------------

    /** Right edge of the window, epoch seconds. */
    public DoubleProperty windowEndProperty() {
        return windowEnd;
    }

    public double getWindowEnd() {
        return windowEnd.get();
    }

    public void setWindowEnd(double epochSeconds) {
        windowEnd.set(epochSeconds);
    }

    /** Width of the window in seconds. */
    public DoubleProperty windowLengthProperty() {
        return windowLength;
    }

    public double getWindowLength() {
        return windowLength.get();
    }

    public void setWindowLength(double seconds) {
        if (!(seconds > 0)) {
            throw new IllegalArgumentException("window length must be positive: " + seconds);
        }
        windowLength.set(seconds);
    }

    /** While true the window end tracks the clock; turn it off to pan back in time. */
    public BooleanProperty followLiveProperty() {
        return followLive;
    }

    /** Following live, the share of the window (0 to ½) shown to the right of now: room for a forecast. */
    public DoubleProperty lookAheadProperty() {
        return lookAhead;
    }

    public void setLookAhead(double share) {
        lookAhead.set(Math.max(0, Math.min(0.5, share)));
        if (followLive.get()) {
            windowEnd.set(now() + lookAhead.get() * windowLength.get());
        }
    }

    public boolean isFollowLive() {
        return followLive.get();
    }

    public void setFollowLive(boolean follow) {
        followLive.set(follow);
    }

    /** Time under the mouse in any chart on this axis, epoch seconds; NaN when none. */
    public DoubleProperty hoverTimeProperty() {
        return hoverTime;
    }

    public double getHoverTime() {
        return hoverTime.get();
    }

    public void setHoverTime(double epochSeconds) {
        hoverTime.set(epochSeconds);
    }

    /** Zone for time labels. */
    public ObjectProperty<ZoneId> zoneProperty() {
        return zone;
    }

    public ZoneId getZone() {
        return zone.get();
    }

    /**
     * Left edge of the plot area, in pixels, for every chart on this axis: the widest value-axis
     * gutter any of them needs. Sharing it lines the time axes up to the pixel when the charts
     * have the same width (stacked in a VBox), whatever their value labels.
     */
    public ReadOnlyDoubleProperty plotInsetProperty() {
        return plotInset.getReadOnlyProperty();
    }

    /** Records that {@code owner} needs {@code pixels} left of its plot; returns the shared inset. */
    public double claimPlotInset(Object owner, double pixels) {
        insetClaims.put(Objects.requireNonNull(owner, "owner"), pixels);
        return updatePlotInset();
    }

    /** Withdraws {@code owner}'s claim, e.g. when its chart leaves the scene. */
    public void releasePlotInset(Object owner) {
        insetClaims.remove(owner);
        updatePlotInset();
    }

    /** The space right of the plot shared by every chart on this axis (for right-hand value axes). */
    public ReadOnlyDoubleProperty rightInsetProperty() {
        return rightInset.getReadOnlyProperty();
    }

    /** Records that {@code owner} needs {@code pixels} right of its plot; returns the shared inset. */
    public double claimRightInset(Object owner, double pixels) {
        rightClaims.put(Objects.requireNonNull(owner, "owner"), pixels);
        double max = 0;
        for (double claim : rightClaims.values()) {
            max = Math.max(max, claim);
        }
        rightInset.set(max);
        return max;
    }

    private double updatePlotInset() {
        double max = 0;
        for (double claim : insetClaims.values()) {
            max = Math.max(max, claim);
        }
        plotInset.set(max);
        return max;
    }

    /** Left edge of the window, epoch seconds. */
    public double getWindowStart() {
        return windowEnd.get() - windowLength.get();
    }

    /** The injected clock's time in epoch seconds. */
    public double now() {
        return clock.millis() / 1000.0;
    }

    /**
     * Moves the window end to now if following live and the clock has moved at least
     * {@code resolution} seconds (typically one pixel's worth): redrawing for sub-pixel motion
     * would cost frames and show nothing.
     *
     * @return whether the window moved
     */
    public boolean advanceLive(double resolution) {
        if (!followLive.get()) {
            return false;
        }
        double now = now() + lookAhead.get() * windowLength.get();
        double end = windowEnd.get();
        // Also jump when the clock is far behind the window (clock reset, window panned ahead).
        if (now - end >= resolution || end - now > windowLength.get()) {
            windowEnd.set(now);
            return true;
        }
        return false;
    }

    // --- Time ticks -------------------------------------------------------------------------

    /**
     * The smallest nice step (1/2/5/10/15/30 s, 1/2/5/10/15/30 min, 1/2/3/6/12 h, then whole days)
     * that puts at most {@code maxTicks} ticks in {@code spanSeconds}.
     */
    public static double timeTickStep(double spanSeconds, int maxTicks) {
        int n = Math.max(1, maxTicks);
        for (double step : TIME_STEPS) {
            if (spanSeconds / step <= n) {
                return step;
            }
        }
        return DAY * Math.max(1, niceStep(spanSeconds / DAY, n));
    }

    /**
     * Tick times within {@code [start, end]} at {@link #timeTickStep}, aligned to round local
     * times in this axis's zone (a 6 h step lands on 00:00, 06:00, … local).
     */
    public double[] timeTicks(double start, double end, int maxTicks) {
        if (!(end > start)) {
            return new double[0];
        }
        double step = timeTickStep(end - start, maxTicks);
        // Align in local time; the offset at the window start is good enough across a DST change.
        ZoneId z = zone.get() != null ? zone.get() : ZoneId.systemDefault();
        int offset = z.getRules().getOffset(Instant.ofEpochSecond((long) Math.floor(start)))
                .getTotalSeconds();
        double first = Math.ceil((start + offset) / step) * step - offset;
        int count = (int) Math.floor((end - first) / step) + 1;
        double[] ticks = new double[Math.max(0, count)];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = first + i * step;
        }
        return ticks;
    }

    /** Formats a tick: HH:mm:ss below one-minute steps, HH:mm up to hours, "MMM d" for days. */
    public String formatTime(double epochSeconds, double step) {
        DateTimeFormatter f = step < 60 ? seconds : step < DAY ? minutes : days;
        return f.format(Instant.ofEpochMilli(Math.round(epochSeconds * 1000)));
    }

    /** True when {@code epochSeconds} is a midnight in this axis's zone: a day's boundary. */
    public boolean isDayStart(double epochSeconds) {
        Instant i = Instant.ofEpochMilli(Math.round(epochSeconds * 1000));
        return i.atZone(zone.get() != null ? zone.get() : ZoneId.systemDefault()).toLocalTime()
                .equals(java.time.LocalTime.MIDNIGHT);
    }

    /** A day's weekday and date, "Tue 1", for its boundary on a chart spanning days. */
    public String dayLabel(double epochSeconds) {
        return weekday.format(Instant.ofEpochMilli(Math.round(epochSeconds * 1000)));
    }

    /** Formats a time to the second, for the hover box. */
    public String formatTimeFull(double epochSeconds) {
        return seconds.format(Instant.ofEpochMilli(Math.round(epochSeconds * 1000)));
    }

    private void buildFormatters() {
        ZoneId z = zone.get() != null ? zone.get() : ZoneId.systemDefault();
        seconds = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT).withZone(z);
        minutes = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT).withZone(z);
        days = DateTimeFormatter.ofPattern("MMM d", Locale.ROOT).withZone(z);
        weekday = DateTimeFormatter.ofPattern("EEE d", Locale.ROOT).withZone(z);
    }

    // --- Value ticks ------------------------------------------------------------------------

    /** The smallest 1-2-5 × 10^k step that puts at most {@code maxTicks} intervals in {@code range}. */
    public static double niceStep(double range, int maxTicks) {
        if (!(range > 0) || Double.isInfinite(range)) {
            return 1;
        }
        double raw = range / Math.max(1, maxTicks);
        double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
        double norm = raw / magnitude;
        // Compare with a little slack so 0.3/3 = 0.09999… still picks 0.1, not 0.2.
        double nice = norm <= 1 + 1e-9 ? 1 : norm <= 2 + 1e-9 ? 2 : norm <= 5 + 1e-9 ? 5 : 10;
        return nice * magnitude;
    }

    /** Ticks at multiples of {@link #niceStep} within {@code [min, max]}. */
    public static double[] valueTicks(double min, double max, int maxTicks) {
        if (!(max > min)) {
            return Double.isFinite(min) ? new double[] {min} : new double[0];
        }
        double step = niceStep(max - min, maxTicks);
        // Work in integer multiples of the step's mantissa and divide by an exact power of ten
        // once: 3 × 0.2 is 0.6000000000000001, but 6 / 10 is the double nearest 0.6.
        int exponent = (int) Math.floor(Math.log10(step) + 1e-9);
        double power = Math.pow(10, Math.abs(exponent));
        long mantissa = Math.round(exponent >= 0 ? step / power : step * power);
        long firstK = (long) Math.ceil(min / step - 1e-9);
        long lastK = (long) Math.floor(max / step + 1e-9);
        double[] ticks = new double[(int) Math.max(0, lastK - firstK + 1)];
        for (int i = 0; i < ticks.length; i++) {
            long units = (firstK + i) * mantissa;
            ticks[i] = exponent >= 0 ? units * power : units / power;
        }
        return ticks;
    }

    /** Formats a value-axis label with just enough decimals for {@code step}; k/M above 10,000. */
    public static String formatValue(double value, double step) {
        if (value != value) {
            return "—";
        }
        double scale = 1;
        String suffix = "";
        double magnitude = Math.max(Math.abs(value), step);
        if (magnitude >= 1e7) {
            scale = 1e6;
            suffix = "M";
        } else if (magnitude >= 1e4) {
            scale = 1e3;
            suffix = "k";
        }
        double scaledStep = step / scale;
        int decimals = scaledStep >= 1 || scaledStep <= 0
                ? 0 : Math.min(6, (int) Math.ceil(-Math.log10(scaledStep) - 1e-9));
        double v = value / scale;
        if (decimals == 0) {
            return Math.round(v) + suffix;
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v) + suffix;
    }

    @Override
    public String toString() {
        return "TimeAxis[end=" + windowEnd.get() + ", length=" + windowLength.get()
                + ", followLive=" + followLive.get() + "]";
    }
}
