package io.headroom.whatif;

import io.headroom.decision.Policy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The week what-if computed ahead (issue 29): the operator's first week what-if in a fresh console ran cold code
 * (about 1.9 s even after the {@link WarmUp}). The console replays the week of the class in view in the background,
 * with its live policy, exactly as the What-if window would for the week range and an unedited policy
 * ({@link ReplayInputs}); the window then shows that comparison the moment the week is chosen, saying when it was
 * computed, while its own replay to the window's end runs (on code the precompute has compiled).
 *
 * <p>At most one comparison a class, kept with what it was computed from; {@link #lookup} gives it only for the same
 * live policy and listLength, and only while it is younger than {@link #FRESH_FOR} on the injected clock. Computing
 * runs on one thread of the given executor at the lowest priority and stops at its next progress check when
 * {@link #cancel()} is called (the operator opened a what-if). Nothing here touches the FX thread or the cluster.
 */
public final class WeekAhead {

    /** How long a week computed ahead is shown: older, the window replays without it. */
    public static final Duration FRESH_FOR = Duration.ofMinutes(15);
    /** The week range, in minutes (the What-if window's). */
    public static final int WEEK_MINUTES = 7 * 1440;

    /**
     * One week computed ahead and what it was computed from.
     *
     * @param end        the window's end, epoch seconds (the day's newest point when it was computed)
     * @param listLength KEDA's listLength of the third run
     * @param computedAt when it was computed, on the injected clock
     */
    public record Entry(String className, Policy policy, double end, double listLength, Instant computedAt,
                        Replay.Comparison comparison) {
    }

    private final Clock clock;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** A computation runs while the generation is the one it started with; a cancel moves it on. */
    private final AtomicLong generation = new AtomicLong();

    public WeekAhead(Clock clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    /**
     * The class's week computed ahead, when it was computed under {@code policy} (equal, as records are) with KEDA's
     * listLength {@code listLength}, and is younger than {@link #FRESH_FOR}.
     */
    public Optional<Entry> lookup(String className, Policy policy, double listLength) {
        Entry e = entries.get(className);
        if (e == null || !e.policy().equals(policy) || Double.compare(e.listLength(), listLength) != 0 || !fresh(e)) {
            return Optional.empty();
        }
        return Optional.of(e);
    }

    /**
     * True when the class has no week computed ahead under {@code policy} and the default listLength, or it is
     * older than {@link #FRESH_FOR}: time to compute it (again).
     */
    public boolean needs(String className, Policy policy) {
        return lookup(className, policy, ComparisonTable.DEFAULT_KEDA_LIST_LENGTH).isEmpty();
    }

    /** How long ago {@code e} was computed, on the injected clock (zero when the clock went back). */
    public Duration age(Entry e) {
        Duration d = Duration.between(e.computedAt(), clock.instant());
        return d.isNegative() ? Duration.ZERO : d;
    }

    private boolean fresh(Entry e) {
        return age(e).compareTo(FRESH_FOR) < 0;
    }

    /** Stops the computation running (or queued): it keeps nothing and its future completes with a cancel. */
    public void cancel() {
        generation.incrementAndGet();
    }

    /**
     * Computes the class's week ahead on {@code executor} (one of its threads, at the lowest priority while it
     * replays): the week up to the day's newest point, under {@code live} against itself, with KEDA's rule at the
     * default listLength and the predictive run, as the What-if window replays the week for an unedited policy.
     *
     * @param day  the class's history at the console's tick (its newest point is the window's end)
     * @param week the class's week of history (a point a minute)
     * @return the entry kept; empty when the class has no week history to replay; a {@link CancellationException}
     *         when {@link #cancel()} came first
     */
    public CompletableFuture<Optional<Entry>> compute(String className, Policy live, LoadSource day, LoadSource week,
                                                      Executor executor) {
        long mine = generation.get();
        return CompletableFuture.supplyAsync(() -> {
            Replay.Progress progress = new Replay.Progress() {
                @Override
                public void done(double fraction) {
                }

                @Override
                public boolean cancelled() {
                    return mine != generation.get();
                }
            };
            if (progress.cancelled()) {
                throw new CancellationException("the week ahead was cancelled before it started");
            }
            Thread me = Thread.currentThread();
            int priority = me.getPriority();
            me.setPriority(Thread.MIN_PRIORITY); // a background nicety: the operator's own work comes first
            try {
                return computeHere(className, live, day, week, progress);
            } finally {
                me.setPriority(priority);
            }
        }, executor);
    }

    private Optional<Entry> computeHere(String className, Policy live, LoadSource day, LoadSource week,
                                        Replay.Progress progress) {
        double end = day.newestTime();
        if (week == null || !Double.isFinite(end) || !Double.isFinite(week.newestTime())) {
            return Optional.empty(); // no week history: nothing to compute ahead
        }
        double listLength = ComparisonTable.DEFAULT_KEDA_LIST_LENGTH;
        ReplayInputs in = ReplayInputs.of(day, week, end, WEEK_MINUTES, live.timeZone(), listLength);
        Replay.Comparison c;
        try {
            c = in.compare(live, live, ComparisonTable.SEED, progress, Runnable::run);
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // too little of the week to replay, or no service time known
        }
        if (progress.cancelled()) {
            throw new CancellationException("the week ahead was cancelled");
        }
        Entry e = new Entry(className, live, end, listLength, clock.instant(), c);
        entries.put(className, e);
        return Optional.of(e);
    }
}
