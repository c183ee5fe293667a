package io.headroom.history;

import io.headroom.history.ClassHistory.Series;
import io.headroom.metrics.MetricsSource;
import io.headroom.metrics.SignalHistory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Fills a class's history from its metrics source's past (Prometheus {@code query_range}) on a
 * grid of the history's tick: every series a signal feeds, under the points the loop has already
 * recorded. Blocking; run it on a background thread. What only a tick knows (desired replicas,
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
        long stepSec = Math.max(1, step.toSeconds());
        Instant from = now.minus(window);
        long startSec = Math.floorDiv(from.getEpochSecond(), stepSec) * stepSec;
        long endSec = now.getEpochSecond();
        int n = (int) ((endSec - startSec) / stepSec) + 1;
        double[] grid = new double[n];
        for (int i = 0; i < n; i++) {
            grid[i] = startSec + (double) i * stepSec;
        }
        Map<Series, double[]> past = new EnumMap<>(Series.class);
        List<String> missing = new ArrayList<>();
        for (Series s : Series.values()) {
            if (s.signal() == null) {
                continue;
            }
            SignalHistory h = source.range(history.className(), s.signal(), from, now, Duration.ofSeconds(stepSec));
            if (h.size() == 0) {
                missing.add(s.signal() + " (" + h.noData() + ")");
                continue;
            }
            past.put(s, onGrid(h, startSec, stepSec, n));
        }
        int points = past.isEmpty() ? 0 : history.backfill(grid, past);
        return new Result(history.className(), points, missing);
    }

    /** Backfills every named class, one after the other. */
    public static List<Result> fillAll(History history, MetricsSource source, Collection<String> classNames,
                                       Instant now, Duration window) {
        List<Result> out = new ArrayList<>();
        for (String name : classNames) {
            out.add(fill(history.of(name), source, now, window, history.tick()));
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
