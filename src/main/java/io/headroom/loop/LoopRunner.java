package io.headroom.loop;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Runs a {@link ControlLoop} on an injected scheduler every period (wall time). */
public final class LoopRunner implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(LoopRunner.class.getName());

    private final ControlLoop loop;
    private final ScheduledExecutorService scheduler;
    private ScheduledFuture<?> task;

    public LoopRunner(ControlLoop loop, ScheduledExecutorService scheduler) {
        this.loop = loop;
        this.scheduler = scheduler;
    }

    /** (Re)starts ticking every {@code period}, the first tick at once. */
    public synchronized void start(Duration period) {
        if (task != null) {
            task.cancel(false);
        }
        task = scheduler.scheduleWithFixedDelay(this::safeTick, 0, Math.max(1, period.toMillis()),
                TimeUnit.MILLISECONDS);
    }

    private void safeTick() {
        try {
            loop.tick();
        } catch (RuntimeException | Error e) {
            // A failed tick must not end the schedule; the next tick tries again.
            LOG.log(Level.SEVERE, "control tick failed", e);
        }
    }

    @Override
    public synchronized void close() {
        if (task != null) {
            task.cancel(false);
            task = null;
        }
    }
}
