package io.headroom.history;

import io.headroom.metrics.MetricsSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Fills every class's week tier ({@link History#weekOf}) from its metrics source's past, a chunk at a time, newest
 * first (so the recent days, which the forecast weighs most, arrive first), under the minutes the live ticks have
 * already rolled up. Each chunk is one {@link MetricsSource#rangeAll} per signal for all classes (6 h at 60 s is
 * 361 points a series, far under Prometheus's 11,000). Between chunks it says how far it got and stops when asked
 * (the session closing, the workloads file read again). Blocking: run it on a background thread.
 */
public final class WeekBackfill {

    /** Where a week's backfill is. */
    public enum State { NOT_STARTED, RUNNING, DONE, STOPPED, FAILED }

    /**
     * How far the week's backfill got.
     *
     * @param state        where it is
     * @param secondsDone  how much of the past is in (newest first), in seconds
     * @param seconds      how much it asks for
     * @param chunksDone   chunks answered
     * @param chunks       chunks in all
     * @param problem      why it failed, or the signals with no past in words; empty when none
     * @param foundSeconds once done, how far back any class's arrival rate is known (the source may have less
     *                     than was asked: a Prometheus up for 6 h, retention shorter than a week); NaN before
     */
    public record Progress(State state, double secondsDone, double seconds, int chunksDone, int chunks,
            String problem, double foundSeconds) {

        /** Before any backfill. */
        public static final Progress NONE = new Progress(State.NOT_STARTED, 0, 0, 0, 0, "", Double.NaN);

        Progress(State state, double secondsDone, double seconds, int chunksDone, int chunks, String problem) {
            this(state, secondsDone, seconds, chunksDone, chunks, problem, Double.NaN);
        }

        /** "history: 3 of 7 days", "history: 6 h of 7 days", "history: 7 days", "history: 2 of 7 days (stopped)". */
        public String words() {
            String of = days(seconds);
            String done = secondsDone < 86_400 ? Math.round(secondsDone / 3600) + " h of " + of
                    : (long) Math.floor(secondsDone / 86_400 + 1e-9) + " of " + of;
            return switch (state) {
                case NOT_STARTED -> "";
                case RUNNING -> "history: " + done + "…";
                case DONE -> !(foundSeconds < seconds - 2 * 3600) ? "history: " + of
                        : "history: " + (foundSeconds > 0 ? shortly(foundSeconds) : "none") + " of " + of
                        + " (the source has no older)";
                case STOPPED -> "history: " + done + " (stopped)";
                case FAILED -> "history: " + done + "; the rest failed: " + problem;
            };
        }

        private static String shortly(double s) {
            return s < 2 * 3600 ? Math.round(s / 60) + " min" : s < 48 * 3600 ? Math.round(s / 3600) + " h"
                    : (long) Math.floor(s / 86_400) + " days";
        }

        private static String days(double s) {
            long d = Math.round(s / 86_400);
            return s >= 86_400 ? d + (d == 1 ? " day" : " days") : Math.round(s / 3600) + " h";
        }
    }

    /** 6 h a query. */
    public static final Duration CHUNK = Duration.ofHours(6);

    private WeekBackfill() {
    }

    /**
     * Backfills {@code span} up to {@code now} for the named classes in chunks of {@code chunk}, newest first.
     *
     * @param progress  told after each chunk (and at the start and end), on this thread
     * @param stop      asked before each chunk; true stops it (so does this thread's interrupt)
     * @return the last progress
     */
    public static Progress run(History history, MetricsSource source, Collection<String> classNames, Instant now,
                               Duration span, Duration chunk, Consumer<Progress> progress, BooleanSupplier stop) {
        long step = History.WEEK_STEP.toSeconds();
        long chunkSec = Math.max(step, chunk.toSeconds() / step * step);
        double seconds = span.toSeconds();
        int chunks = (int) Math.max(1, (span.toSeconds() + chunkSec - 1) / chunkSec);
        List<ClassHistory> weeks = new ArrayList<>();
        for (String name : classNames) {
            weeks.add(history.weekOf(name));
        }
        // The grid of every chunk is whole minutes; the newest chunk ends at the last whole minute that is a whole
        // step old. A rate evaluated at a minute just past (now 06:01:01, the minute 06:01) reads a window whose
        // last scrapes the source has not ingested yet and comes out low, for good: no later read corrects a
        // backfilled minute. The live ticks' roll-up covers the newest minutes.
        long end = Math.floorDiv(now.getEpochSecond() - step, step) * step;
        Progress p = new Progress(State.RUNNING, 0, seconds, 0, chunks, "");
        progress.accept(p);
        List<String> missing = new ArrayList<>();
        for (int k = 0; k < chunks; k++) {
            if (stop.getAsBoolean() || Thread.currentThread().isInterrupted()) {
                p = new Progress(State.STOPPED, p.secondsDone(), seconds, k, chunks, "");
                progress.accept(p);
                return p;
            }
            long to = end - k * chunkSec;
            long length = Math.min(chunkSec, (long) seconds - k * chunkSec);
            try {
                List<Backfill.Result> results = Backfill.fill(weeks, source, Instant.ofEpochSecond(to),
                        Duration.ofSeconds(length), History.WEEK_STEP);
                if (k == 0) {
                    for (Backfill.Result r : results) {
                        if (!r.missing().isEmpty() && missing.size() < 3) {
                            missing.add(r.className() + ": " + String.join(", ", r.missing()));
                        }
                    }
                }
            } catch (RuntimeException e) {
                p = new Progress(State.FAILED, p.secondsDone(), seconds, k, chunks,
                        e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
                progress.accept(p);
                return p;
            }
            boolean done = k + 1 == chunks;
            p = new Progress(done ? State.DONE : State.RUNNING, Math.min(seconds, (k + 1) * (double) chunkSec),
                    seconds, k + 1, chunks, String.join("; ", missing), done ? found(weeks, now) : Double.NaN);
            progress.accept(p);
        }
        return p;
    }

    /** Seconds back from {@code now} to the oldest arrival rate any of the weeks knows; 0 when none. */
    private static double found(List<ClassHistory> weeks, Instant now) {
        double[] oldest = {Double.POSITIVE_INFINITY};
        for (ClassHistory w : weeks) {
            w.scan(ClassHistory.Series.ARRIVAL_RATE, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, (t, v) -> {
                if (!Double.isNaN(v) && t < oldest[0]) {
                    oldest[0] = t;
                }
            });
        }
        return oldest[0] == Double.POSITIVE_INFINITY ? 0 : Math.max(0, now.getEpochSecond() - oldest[0]);
    }
}
