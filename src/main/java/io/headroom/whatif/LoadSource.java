package io.headroom.whatif;

import io.headroom.history.ClassHistory;
import java.util.function.Supplier;

/**
 * Where a what-if takes a class's load from: its newest time, and the load between two times. The
 * What-if window pins the compared window's end with {@link #newestTime()} so it does not slide
 * while the operator compares, then asks for {@link #between} on every edit.
 */
public interface LoadSource {

    /** Epoch seconds of the newest point, NaN when there is none yet. */
    double newestTime();

    /** The load with {@code from <= t <= to}: a copy, safe to hand to another thread. */
    LoadHistory between(double from, double to);

    /** A class's domain history; {@code history} may give null while the class has none. */
    static LoadSource of(Supplier<ClassHistory> history) {
        return new LoadSource() {
            @Override
            public double newestTime() {
                ClassHistory h = history.get();
                return h == null || h.size() == 0 ? Double.NaN : h.lastTime();
            }

            @Override
            public LoadHistory between(double from, double to) {
                return LoadHistory.of(history.get(), from, to);
            }
        };
    }
}
