package io.headroom.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler that runs nothing by itself: it records what was scheduled, and the test runs a task
 * when it says so ({@link Task#runOnce}). Only fixed-delay tasks, the one kind {@link LoopRunner} uses.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
    final List<Task> tasks = new ArrayList<>();
    private boolean shutdown;

    /** One scheduled task: what, when first, how often, and whether it was cancelled. */
    static final class Task implements ScheduledFuture<Object> {
        final Runnable command;
        final long initialDelay;
        final long delay;
        final TimeUnit unit;
        boolean cancelled;
        int runs;

        Task(Runnable command, long initialDelay, long delay, TimeUnit unit) {
            this.command = command;
            this.initialDelay = initialDelay;
            this.delay = delay;
            this.unit = unit;
        }

        /** Runs the task once, as the scheduler's thread would; a cancelled task does not run. */
        void runOnce() {
            if (cancelled) {
                throw new IllegalStateException("a cancelled task does not run");
            }
            runs++;
            command.run();
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled;
        }

        @Override
        public Object get() {
            throw new UnsupportedOperationException("a periodic task has no result");
        }

        @Override
        public Object get(long timeout, TimeUnit u) {
            throw new UnsupportedOperationException("a periodic task has no result");
        }

        @Override
        public long getDelay(TimeUnit u) {
            return u.convert(delay, unit);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        Task t = new Task(command, initialDelay, delay, unit);
        tasks.add(t);
        return t;
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the loop");
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the loop");
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new UnsupportedOperationException("not used by the loop");
    }

    @Override
    public void execute(Runnable command) {
        throw new UnsupportedOperationException("not used by the loop");
    }

    @Override
    public void shutdown() {
        shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return shutdown;
    }
}
