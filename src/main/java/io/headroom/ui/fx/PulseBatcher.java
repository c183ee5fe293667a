package io.headroom.ui.fx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Hands background results to the FX thread merged: producers {@link #offer} from any thread;
 * everything offered until the FX thread gets to it is applied in one batch. A burst of a hundred
 * ticks costs one layout pass, and nothing queues up on the FX thread. It crosses through the
 * given executor ({@link FxExecutor} in the console, {@code Runnable::run} in tests).
 */
public final class PulseBatcher<T> {
    private final ConcurrentLinkedQueue<T> pending = new ConcurrentLinkedQueue<>();
    private final Consumer<List<T>> apply;
    private final Executor fx;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile boolean stopped;
    private long batches;

    public PulseBatcher(Executor fx, Consumer<List<T>> apply) {
        this.fx = fx;
        this.apply = apply;
    }

    /** Nothing more is applied, even what is pending (the view is gone). */
    public void stop() {
        stopped = true;
        pending.clear();
    }

    /** Queues one result; safe from any thread. */
    public void offer(T item) {
        if (stopped) {
            return;
        }
        pending.add(item);
        if (scheduled.compareAndSet(false, true)) {
            fx.execute(this::drain);
        }
    }

    /** How many batches have been applied (for tests and diagnostics). */
    public long batches() {
        return batches;
    }

    /** Applies everything pending now, on the FX thread. */
    public void drain() {
        scheduled.set(false);
        if (stopped || pending.isEmpty()) {
            return;
        }
        List<T> batch = new ArrayList<>();
        T item;
        while ((item = pending.poll()) != null) {
            batch.add(item);
        }
        batches++;
        apply.accept(batch);
    }
}
