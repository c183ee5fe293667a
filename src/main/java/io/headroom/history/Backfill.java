package io.headroom.history;

import io.headroom.history.ClassHistory.Series;
import io.headroom.metrics.MetricsSource;
import io.headroom.metrics.SignalHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fills classes' histories from their metrics source's past (Prometheus {@code query_range}) on a
 * grid of the history's tick: every series a signal feeds, under the points the loop has already
 * recorded, one {@link MetricsSource#rangeAll} per signal for all classes (so a grouped query is
 * sent once per backfill, not once per class). Blocking; run it on a background thread. What only a tick knows (desired replicas,
 * estimated slots) stays NaN in the past.
 */
public final class Backfill {

    private Backfill() {
    }

    /**
     * What one class's backfill found.
     *
     * @param points  points inserted under the live ones
     * @param missing signals without any past, each with the source's reason
     */
    public record Result(String className, int points, List<String> missing) {
        public Result {
            missing = List.copyOf(missing);
        }
    }

    /** Backfills {@code window} up to {@code now} for one class, on a grid of {@code step}. */
    public static Result fill(ClassHistory history, MetricsSource source, Instant now, Duration window,
                              Duration step) {
        return fill(List.of(history), source, now, window, step).get(0);
    }

    /**
     * Backfills every named class: one {@link MetricsSource#rangeAll} per signal for all of them, so
     * a grouped query goes once for every class that shares it (not once per class).
     */
    public static List<Result> fillAll(History history, MetricsSource source, Collection<String> classNames,
                                       Instant now, Duration window) {
        List<ClassHistory> all = new ArrayList<>();
        for (String name : classNames) {
            all.add(history.of(name));
        }
        return fill(all, source, now, window, history.tick());
    }

    /** Backfills {@code window} up to {@code now} for every history given, on a grid of {@code step} (one chunk of a week). */
    static List<Result> fill(List<ClassHistory> histories, MetricsSource source, Instant now,
                                     Duration window, Duration step) {
        long stepSec = Math.max(1, step.toSeconds());
        Instant from = now.minus(window);
        long startSec = Math.floorDiv(from.getEpochSecond(), stepSec) * stepSec;
        long endSec = now.getEpochSecond();
        int n = (int) ((endSec - startSec) / stepSec) + 1;
        double[] grid = new double[n];
        for (int i = 0; i < n; i++) {
            grid[i] = startSec + (double) i * stepSec;
        }
        List<String> names = histories.stream().map(ClassHistory::className).toList();
        Map<String, List<String>> missing = new java.util.HashMap<>();
        Map<String, int[]> points = new java.util.HashMap<>();
        for (String name : names) {
            missing.put(name, new ArrayList<>());
            points.put(name, new int[1]);
        }
        // A signal at a time, for every class: what is held at once is one signal's answers (and one
        // class's values on the grid), not every series of every class (a fleet's day would not fit).
        for (Series s : Series.values()) {
            if (s.signal() == null) {
                continue;
            }
            Map<String, SignalHistory> answers = source.rangeAll(names, s.signal(), from, now,
                    Duration.ofSeconds(stepSec));
            for (ClassHistory history : histories) {
                SignalHistory h = answers.get(history.className());
                if (h == null || h.size() == 0) {
                    missing.get(history.className()).add(s.signal() + " (" + (h == null ? "no answer" : h.noData()) + ")");
                    continue;
                }
                points.get(history.className())[0] += history.backfillSeries(grid, s, onGrid(h, startSec, stepSec, n));
            }
        }
        List<Result> out = new ArrayList<>();
        for (ClassHistory history : histories) {
            out.add(new Result(history.className(), points.get(history.className())[0],
                    missing.get(history.className())));
        }
        return out;
    }

    /** The history's values at the grid's steps (NaN where it has none). */
    private static double[] onGrid(SignalHistory h, long startSec, long stepSec, int n) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, Double.NaN);
        for (int i = 0; i < h.size(); i++) {
            long k = Math.round((h.times()[i] - startSec) / stepSec);
            if (k >= 0 && k < n) {
                v[(int) k] = h.values()[i];
            }
        }
        return v;
    }
}
