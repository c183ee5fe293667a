package io.headroom.prometheus.it;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Waits for a condition with a deadline, probing it every 100 ms (or as told); fails with the last value seen. */
public final class Await {
    private Await() {
    }

    public static <T> T until(String what, Duration timeout, Supplier<T> probe, Predicate<T> ok) {
        return until(what, timeout, Duration.ofMillis(100), probe, ok);
    }

    /** As {@link #until(String, Duration, Supplier, Predicate)}, probing every {@code every}. */
    public static <T> T until(String what, Duration timeout, Duration every, Supplier<T> probe, Predicate<T> ok) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T last = probe.get();
        while (!ok.test(last)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up after " + timeout.toSeconds() + " s waiting for " + what
                        + "; last seen: " + last);
            }
            LockSupport.parkNanos(every.toNanos());
            last = probe.get();
        }
        return last;
    }
}
