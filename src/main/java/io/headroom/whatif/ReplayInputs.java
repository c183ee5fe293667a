package io.headroom.whatif;

import io.headroom.baseline.Baselines;
import io.headroom.decision.Policy;
import java.time.ZoneId;
import java.util.concurrent.Executor;

/**
 * What a what-if replays, read from the class's histories: the window's load, the past the predictive run's forecasts
 * learn from, KEDA's rule as the third run, and the model. The What-if window and the week computed ahead
 * ({@link WeekAhead}) both build their replay here, so a week computed ahead is the replay the window would run.
 *
 * @param load       the window's load (a copy, safe to hand to another thread)
 * @param predictive the predictive run's forecasts, made from up to {@link Predictive#PAST_SECONDS} before the window
 * @param keda       KEDA's rule as a third run, null for none
 * @param model      how the queue is simulated ({@link Replay.Model#forWindow})
 */
public record ReplayInputs(LoadHistory load, Predictive predictive, Baselines.Named keda, Replay.Model model) {

    /** Windows longer than this read the week's history (a point a minute), shorter ones the day's. */
    public static final int DAY_MINUTES = 1440;

    /**
     * The window of {@code minutes} ending at {@code end}. The week range reads the week's history; the forecasts of
     * the predictive run read up to a week before the window (each made only from what lies before its step), from
     * the week's history where the console has it. Reads the histories on the calling thread.
     *
     * @param day        the class's history at the console's tick
     * @param week       the class's week of history (a point a minute), or null: the day's is read instead
     * @param end        the window's end, epoch seconds
     * @param zone       the time zone the forecasts tell days and weekdays in (the live policy's)
     * @param listLength KEDA's listLength for the third run, null or 0 for none
     */
    public static ReplayInputs of(LoadSource day, LoadSource week, double end, int minutes, ZoneId zone,
                                  Double listLength) {
        LoadSource past = week != null ? week : day;
        LoadHistory h = (minutes > DAY_MINUTES ? past : day).between(end - minutes * 60.0, end);
        Predictive predictive = Predictive.of(past.between(end - minutes * 60.0 - Predictive.PAST_SECONDS, end),
                zone);
        return new ReplayInputs(h, predictive, ComparisonTable.keda(listLength), Replay.Model.forWindow(h.seconds()));
    }

    /**
     * Replays the window under {@code current} and {@code edited} (and KEDA's rule, and the predictive run) on the
     * calling thread, the runs side by side on {@code runs}.
     *
     * @throws java.util.concurrent.CancellationException when {@code progress} says so
     * @throws IllegalArgumentException                   when the window is too short to replay
     */
    public Replay.Comparison compare(Policy current, Policy edited, long seed, Replay.Progress progress,
                                     Executor runs) {
        return Replay.compare(load, current, edited, seed, keda, predictive, progress, model, runs);
    }
}
