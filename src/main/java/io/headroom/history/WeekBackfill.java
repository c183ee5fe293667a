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
     */
    public record Progress(State state, double secondsDone, double seconds, int chunksDone, int chunks,
            String problem) {

        /** Before any backfill. */
        public static final Progress NONE = new Progress(State.NOT_STARTED, 0, 0, 0, 0, "");

        /** "history: 3 of 7 days", "history: 6 h of 7 days", "history: 7 days", "history: 2 of 7 days (stopped)". */
        public String words() {
            String of = days(seconds);
            String done = secondsDone < 86_400 ? Math.round(secondsDone / 3600) + " h of " + of
                    : (long) Math.floor(secondsDone / 86_400 + 1e-9) + " of " + of;
            return switch (state) {
                case NOT_STARTED -> "";
                case RUNNING -> "history: " + done + "…";
                case DONE -> "history: " + of;
                case STOPPED -> "history: " + done + " (stopped)";
                case FAILED -> "history: " + done + "; the rest failed: " + problem;
            };
        }

        private static String days(double s) {
            long d = Math.round(s / 86_400);
            return d >= 1 ? d + (d == 1 ? " day" : " days") : Math.round(s / 3600) + " h";
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
        // The grid of every chunk is whole minutes; the newest chunk ends at the last whole minute.
        long end = Math.floorDiv(now.getEpochSecond(), step) * step;
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
            p = new Progress(k + 1 == chunks ? State.DONE : State.RUNNING,
                    Math.min(seconds, (k + 1) * (double) chunkSec), seconds, k + 1, chunks,
                    String.join("; ", missing));
            progress.accept(p);
        }
        return p;
    }
}
