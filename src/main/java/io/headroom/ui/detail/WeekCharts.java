package io.headroom.ui.detail;

import io.headroom.history.ClassHistory;
import io.headroom.history.History;
import io.headroom.history.WeekBackfill;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.beans.property.DoubleProperty;
import javafx.beans.property.SimpleDoubleProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The detail's 7-day window (issue 29): the selected class's week tier ({@link History#weekOf}, a point a minute)
 * as chart series, copied and converted off the FX thread whenever the week has grown (a minute rolled up, a
 * backfill chunk arrived), and what to say over the part of the week not read yet ("history: 3 of 7 days…").
 * The charts downsample its 10,081 points a series to their pixel columns (min and max per column, so a
 * one-minute burst stays drawn). FX thread only, except the copy on {@code reads}.
 */
final class WeekCharts {
    /** A stretch at the week's start this short is not worth a word: two points. */
    private static final double SLACK = 2 * History.WEEK_STEP.toSeconds();

    private final Clock clock;
    private final Executor fx;
    private Function<String, ClassHistory> weeks = name -> null;
    private Supplier<WeekBackfill.Progress> progress = () -> WeekBackfill.Progress.NONE;
    private Executor reads = Runnable::run;

    private final StringProperty pendingWords = new SimpleStringProperty("");
    private final DoubleProperty pendingUntil = new SimpleDoubleProperty(Double.NEGATIVE_INFINITY);
    /** The age chart's and the capacity chart's own: what the week's history lacks of their series. */
    private final Lacking age = new Lacking("oldest age");
    private final Lacking capacity = new Lacking("replicas");
    private double ageFrom = Double.NaN;
    private double capacityFrom = Double.NaN;

    /**
     * One chart's words over the stretch of the week before its series' first value, where other series have
     * values: the sandbox's past and a source without that series keep arrivals and service time only, and six
     * days of "no data" there read like an outage. While the backfill still runs its progress is said instead.
     */
    static final class Lacking {
        private final String what;
        final StringProperty words = new SimpleStringProperty("");
        final DoubleProperty until = new SimpleDoubleProperty(Double.NEGATIVE_INFINITY);

        Lacking(String what) {
            this.what = what;
        }

        /**
         * The week's first minute and this series' first value (NaN: none, or not built yet), and the backfill's
         * words over the part not read yet, which this chart says too unless its series is lacking after them.
         */
        void set(double weekFirst, double seriesFrom, String progressWords, double progressUntil,
                 java.time.ZoneId zone) {
            boolean lacking = weekFirst == weekFirst && !(seriesFrom <= weekFirst + SLACK);
            if (!lacking || !progressWords.isEmpty()) {
                words.set(progressWords);
                until.set(progressWords.isEmpty() ? Double.NEGATIVE_INFINITY : progressUntil);
                return;
            }
            boolean none = seriesFrom != seriesFrom;
            words.set("the week's history has no " + what + (none ? ""
                    : " before " + WHEN.withZone(zone).format(java.time.Instant.ofEpochSecond((long) seriesFrom))));
            until.set(none ? Double.POSITIVE_INFINITY : seriesFrom);
        }

        void clear() {
            words.set("");
            until.set(Double.NEGATIVE_INFINITY);
        }
    }

    private static final java.time.format.DateTimeFormatter WHEN =
            java.time.format.DateTimeFormatter.ofPattern("EEE HH:mm", java.util.Locale.ROOT);

    // What the shown series was built from: built again only when the week tier differs.
    private ClassSeries shown = new ClassSeries(2);
    private String shownFor = "";
    private double shownFirst = Double.NaN;
    private double shownLast = Double.NaN;
    private int shownSize = -1;
    private int shownK = -1;
    private String reading; // the class whose week is being copied, or null

    WeekCharts(Clock clock, Executor fx) {
        this.clock = clock;
        this.fx = fx;
    }

    /** Where the week tier and the backfill's progress are read (the session's), and where the copy is made. */
    void set(Function<String, ClassHistory> weeks, Supplier<WeekBackfill.Progress> progress, Executor reads) {
        this.weeks = weeks == null ? name -> null : weeks;
        this.progress = progress == null ? () -> WeekBackfill.Progress.NONE : progress;
        this.reads = reads == null ? Runnable::run : reads;
    }

    /** The words over the part of the week not read yet; empty when the week is all there. */
    StringProperty pendingWordsProperty() {
        return pendingWords;
    }

    /** The oldest minute read of the shown class's week: the words cover the window left of it. */
    DoubleProperty pendingUntilProperty() {
        return pendingUntil;
    }

    /** The age chart's words over the part of the week without an oldest age (empty: none to say). */
    Lacking age() {
        return age;
    }

    /** The capacity chart's words over the part of the week without replicas (empty: none to say). */
    Lacking capacity() {
        return capacity;
    }

    /** The chart series of {@code name}'s week as last built; empty ones until the first copy arrives. */
    ClassSeries seriesFor(String name) {
        return name.equals(shownFor) ? shown : new ClassSeries(2);
    }

    /**
     * Copies {@code name}'s week again when it changed since the last copy (at most one copy at a time), converting
     * replicas to slots with {@code slotsPerReplica}; {@code built} gets the new series on the FX thread.
     */
    void refresh(String name, int slotsPerReplica, Consumer<ClassSeries> built) {
        ClassHistory h = name.isEmpty() ? null : weeks.apply(name);
        updatePending(h);
        if (h == null || reading != null || name.equals(shownFor) && slotsPerReplica == shownK
                && h.size() == shownSize && same(h.firstTime(), shownFirst) && same(h.lastTime(), shownLast)) {
            return;
        }
        reading = name;
        CompletableFuture.supplyAsync(() -> h.window(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), reads)
                .thenApply(w -> {
                    ClassSeries cs = new ClassSeries(Math.max(2, w.size()));
                    cs.seed(w, slotsPerReplica);
                    return new Built(cs, w);
                }).whenComplete((b, e) -> fx.execute(() -> {
                    reading = null;
                    if (e != null) {
                        return; // the next tick tries again
                    }
                    shown = b.series();
                    shownFor = name;
                    shownK = slotsPerReplica;
                    shownSize = b.window().size();
                    shownFirst = b.window().size() == 0 ? Double.NaN : b.window().times()[0];
                    shownLast = b.window().size() == 0 ? Double.NaN : b.window().times()[b.window().size() - 1];
                    ageFrom = firstValue(b.window(), ClassHistory.Series.OLDEST_AGE);
                    capacityFrom = firstValue(b.window(), ClassHistory.Series.REPLICAS);
                    updatePending(h);
                    built.accept(shown);
                }));
    }

    private record Built(ClassSeries series, ClassHistory.Window window) {
    }

    /** The time of {@code series}'s first value in {@code w}; NaN when it has none. */
    private static double firstValue(ClassHistory.Window w, ClassHistory.Series series) {
        double[] v = w.values(series);
        for (int i = 0; v != null && i < v.length; i++) {
            if (v[i] == v[i]) {
                return w.times()[i];
            }
        }
        return Double.NaN;
    }

    private static String days(long d) {
        return d == 1 ? "1 day" : d + " days";
    }

    private static boolean same(double a, double b) {
        return a == b || a != a && b != b;
    }

    /** Not the week shown: nothing to say. */
    void clearPending() {
        pendingWords.set("");
        pendingUntil.set(Double.NEGATIVE_INFINITY);
        age.clear();
        capacity.clear();
    }

    private void updatePending(ClassHistory h) {
        double now = clock.millis() / 1000.0;
        double first = h == null || h.size() == 0 ? Double.POSITIVE_INFINITY : h.firstTime();
        boolean built = h != null && h.size() > 0 && same(first, shownFirst);
        double weekFirst = built ? first : Double.NaN;
        if (first <= now - History.WEEK.toSeconds() + SLACK) {
            pendingWords.set("");
            pendingUntil.set(Double.NEGATIVE_INFINITY);
            age.set(weekFirst, ageFrom, "", Double.NEGATIVE_INFINITY, clock.getZone());
            capacity.set(weekFirst, capacityFrom, "", Double.NEGATIVE_INFINITY, clock.getZone());
            return;
        }
        WeekBackfill.Progress p = progress.get();
        String words = p.words();
        if (words.isEmpty()) { // no backfill (yet): say how much there is
            double held = first == Double.POSITIVE_INFINITY ? 0 : Math.max(0, now - first);
            words = "history: " + (held < 86_400 ? Math.round(held / 3600) + " h" : days((long) (held / 86_400)))
                    + " of 7 days";
        }
        pendingUntil.set(first);
        pendingWords.set(words);
        age.set(weekFirst, ageFrom, words, first, clock.getZone());
        capacity.set(weekFirst, capacityFrom, words, first, clock.getZone());
    }
}
