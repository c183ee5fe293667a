package io.headroom.whatif;

import io.headroom.decision.Policy;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The what-if's warm-up (issue 29): the operator's first week what-if in a fresh console ran cold code (3.7 s wall
 * where a warm one takes about 0.5 s). Some seconds after the console's first frame, once, this replays a small
 * synthetic slice the way a week's what-if does (fluid, the live policy, KEDA's rule, predictive floors) in the
 * background on one thread at the lowest priority, and throws the result away: the code the first real what-if
 * runs is compiled by then. Opening a what-if cancels it (the replay stops at its next progress check), so it
 * never competes with the operator's own replay. Nothing here touches the FX thread or the cluster.
 */
public final class WarmUp {

    /**
     * How long the slice is: a week at a 15 s tick, as long as the operator's week what-if, with a day before it for
     * the forecasts. Measured quiet (docs/benchmarks.md): the first what-if after a 2-day slice took 3.0 s, after a
     * 5-day one 2.0 s, after a week 1.5 s; the week costs about 3.6 s of one thread's CPU, once.
     */
    static final double SLICE_SECONDS = 7 * 86_400;
    static final double STEP_SECONDS = 15;

    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicInteger replays = new AtomicInteger();
    private final CompletableFuture<Boolean> done = new CompletableFuture<>();

    /**
     * Starts the warm-up after {@code delay}, on {@code executor}; a second call does nothing (it runs once).
     *
     * @return true when this call started it
     */
    public boolean start(Duration delay, Executor executor) {
        if (!started.compareAndSet(false, true)) {
            return false;
        }
        Executor later = CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS, executor);
        later.execute(this::runNow);
        return true;
    }

    /** Stops the warm-up: before its delay it never replays; during its replay the replay stops. */
    public void cancel() {
        cancelled.set(true);
        done.complete(false); // no-op when it has finished
    }

    /** True after {@link #cancel()}. */
    public boolean isCancelled() {
        return cancelled.get();
    }

    /** How many warm-up replays have started (0 or 1). */
    public int replaysStarted() {
        return replays.get();
    }

    /** Completes true when the warm-up replayed its slice to the end, false when it was cancelled first. */
    public CompletableFuture<Boolean> done() {
        return done;
    }

    private void runNow() {
        if (cancelled.get()) {
            done.complete(false);
            return;
        }
        replays.incrementAndGet();
        Thread me = Thread.currentThread();
        int priority = me.getPriority();
        me.setPriority(Thread.MIN_PRIORITY); // a background nicety: the operator's own work comes first
        try {
            replay(new Replay.Progress() {
                @Override
                public void done(double fraction) {
                }

                @Override
                public boolean cancelled() {
                    return cancelled.get();
                }
            });
            done.complete(true);
        } catch (CancellationException e) {
            done.complete(false);
        } catch (RuntimeException e) {
            done.complete(false); // a warm-up that fails costs nothing but its warmth
        } finally {
            me.setPriority(priority);
        }
    }

    /**
     * One replay of the synthetic slice on this thread, as a week's what-if runs (fluid, live + KEDA + predictive);
     * the result is for the caller to drop.
     *
     * @throws CancellationException when {@code progress} says so
     */
    public static Replay.Comparison replay(Replay.Progress progress) {
        double monday = 1_795_996_800; // 2026-11-30T00:00:00Z, a Monday
        LoadHistory past = slice(monday, SLICE_SECONDS + 86_400, STEP_SECONDS);
        LoadHistory h = slice(monday + 86_400, SLICE_SECONDS, STEP_SECONDS);
        Policy live = Policy.builder().slotsPerReplica(4).maxAgeSeconds(20.0).minReplicas(1).maxReplicas(100)
                .pollIntervalSeconds(15).build();
        return Replay.compare(h, live, live, ComparisonTable.SEED, ComparisonTable.keda(ComparisonTable
                .DEFAULT_KEDA_LIST_LENGTH), Predictive.of(past), progress, Replay.Model.FLUID, Runnable::run);
    }

    /**
     * A synthetic load from {@code start} (epoch seconds) for {@code seconds} at {@code step}: 1 job/s, rising to
     * 60 jobs/s from 09:00 to 17:00 UTC each day, 2 s a job.
     */
    static LoadHistory slice(double start, double seconds, double step) {
        int n = (int) (seconds / step) + 1;
        double[] t = new double[n];
        double[] r = new double[n];
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = start + step * i;
            double inDay = (step * i) % 86_400;
            double ramp = Math.min(1, Math.max(0, (inDay - 9 * 3600) / 120))
                    - Math.min(1, Math.max(0, (inDay - 17 * 3600) / 120));
            r[i] = 1 + 59 * ramp;
            s[i] = 2;
        }
        return new LoadHistory(t, r, s, 0, 2);
    }
}
