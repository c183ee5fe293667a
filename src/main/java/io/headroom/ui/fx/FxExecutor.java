package io.headroom.ui.fx;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import javafx.application.Platform;

/**
 * The one way onto the FX thread: background results, command outcomes and chart samples reach
 * the FX thread through this executor. Tasks run in the order given; a burst submitted while the
 * FX thread is busy runs in one turn of the FX thread (one {@code Platform.runLater}, not one per
 * task). View models take it as a plain {@link Executor}, so their tests pass {@code Runnable::run}.
 */
public final class FxExecutor implements Executor {
    private static final FxExecutor INSTANCE = new FxExecutor();

    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();

    private FxExecutor() {
    }

    /** The application's FX executor (there is one FX thread, so there is one of these). */
    public static FxExecutor get() {
        return INSTANCE;
    }

    /**
     * Runs {@code task} on the FX thread in a later turn, never in the one that is running (a task
     * {@link #execute}d from inside a drain runs in that same drain): for work that wants what this
     * turn changed settled first, such as a window growing to what it now shows (the task styles and
     * lays out what it measures itself; a pulse may or may not come between).
     */
    public static void nextTurn(Runnable task) {
        Platform.runLater(task);
    }

    @Override
    public void execute(Runnable task) {
        pending.add(task);
        if (scheduled.compareAndSet(false, true)) {
            Platform.runLater(this::drain);
        }
    }

    private void drain() {
        scheduled.set(false); // before polling: a task added from now on schedules another turn
        Runnable r;
        while ((r = pending.poll()) != null) {
            try {
                r.run();
            } catch (RuntimeException e) {
                Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), e);
            }
        }
    }
}
