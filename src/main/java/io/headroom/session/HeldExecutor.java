package io.headroom.session;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * An executor that, while held, keeps what it is given, and on {@link #release()} hands it (and everything after) to
 * its delegate in the order given. The console holds a workloads file's Kubernetes client builds this way until its
 * window is drawn and it goes live: building a client is half a second of CPU that otherwise shares the two cores
 * with the FX thread's first frames (docs/benchmarks.md). Whoever needs a client before that releases it first, so nothing waits
 * on a hold.
 */
final class HeldExecutor implements Executor {
    private final Executor delegate;
    private final List<Runnable> held = new ArrayList<>();
    private boolean released;

    /** Holds until {@link #release()} when {@code hold}; passes everything straight on otherwise. */
    HeldExecutor(Executor delegate, boolean hold) {
        this.delegate = delegate;
        this.released = !hold;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (!released) {
                held.add(task);
                return;
            }
        }
        delegate.execute(task);
    }

    /** Hands what was held to the delegate, and stops holding; a second call does nothing. */
    void release() {
        List<Runnable> go;
        synchronized (this) {
            if (released) {
                return;
            }
            released = true;
            go = List.copyOf(held);
            held.clear();
        }
        go.forEach(delegate::execute);
    }

    /** True while it holds (nothing given to it has been handed on since). */
    synchronized boolean holding() {
        return !released;
    }
}
