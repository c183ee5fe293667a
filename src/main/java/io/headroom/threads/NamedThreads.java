package io.headroom.threads;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one place background threads are made (besides the FX toolkit's): daemon threads with a
 * name that says whose they are ({@code headroom-control-loop}, {@code headroom-prometheus-3}), so a
 * thread dump reads like the architecture and no thread keeps the JVM alive after the window closes.
 */
public final class NamedThreads implements ThreadFactory {
    private final String name;
    private final boolean numbered;
    private final AtomicInteger count = new AtomicInteger();

    private NamedThreads(String name, boolean numbered) {
        this.name = name;
        this.numbered = numbered;
    }

    /** Daemon threads all called {@code name}. */
    public static NamedThreads named(String name) {
        return new NamedThreads(name, false);
    }

    /** Daemon threads called {@code name-1}, {@code name-2}, … (pools whose threads are told apart). */
    public static NamedThreads numbered(String name) {
        return new NamedThreads(name, true);
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, numbered ? name + "-" + count.incrementAndGet() : name);
        t.setDaemon(true);
        return t;
    }

    /** Starts {@code r} on a thread of its own (a one-off: a probe, a notification). */
    public static Thread start(String name, Runnable r) {
        Thread t = named(name).newThread(r);
        t.start();
        return t;
    }

    /** One thread that runs tasks in order and on schedule (the control loop's). */
    public static ScheduledExecutorService single(String name) {
        return Executors.newSingleThreadScheduledExecutor(named(name));
    }

    /** Threads made as needed and reused while idle (occasional blocking work: file reads, connects). */
    public static ExecutorService cached(String name) {
        return Executors.newCachedThreadPool(named(name));
    }

    /** At most {@code n} threads (bounded fan-out, e.g. Prometheus queries). */
    public static ExecutorService fixed(String name, int n) {
        return Executors.newFixedThreadPool(n, numbered(name));
    }
}
