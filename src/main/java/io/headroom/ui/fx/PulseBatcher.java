package io.headroom.ui.fx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import javafx.animation.AnimationTimer;

/**
 * Hands background results to the FX thread at most once per frame: producers {@link #offer}
 * from any thread; on the next pulse everything offered since the last one is applied in one
 * batch. A burst of a hundred ticks costs one layout pass, and nothing queues up on the FX thread.
 */
public final class PulseBatcher<T> {
    private final ConcurrentLinkedQueue<T> pending = new ConcurrentLinkedQueue<>();
    private final Consumer<List<T>> apply;
    private final AnimationTimer timer;
    private long batches;

    public PulseBatcher(Consumer<List<T>> apply) {
        this.apply = apply;
        this.timer = new AnimationTimer() {
            @Override
            public void handle(long now) {
                drain();
            }
        };
    }

    /** Starts applying on each pulse. Call on the FX thread. */
    public void start() {
        timer.start();
    }

    public void stop() {
        timer.stop();
    }

    /** Queues one result; safe from any thread. */
    public void offer(T item) {
        pending.add(item);
    }

    /** How many batches have been applied (for tests and diagnostics). */
    public long batches() {
        return batches;
    }

    /** Applies everything pending now. Called by the pulse; callable on the FX thread directly. */
    public void drain() {
        if (pending.isEmpty()) {
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
