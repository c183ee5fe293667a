package io.headroom.time;

import java.time.Duration;
import java.time.Instant;

/** A clock moved by hand: the simulator and the tests step time instead of sleeping. */
public final class ManualClock extends UtcClock {
    private volatile Instant now;

    public ManualClock(Instant start) {
        super("manual");
        this.now = start;
    }

    public void set(Instant t) {
        now = t;
    }

    public void advance(Duration d) {
        now = now.plus(d);
    }

    public void advanceSeconds(double seconds) {
        now = now.plus(Duration.ofNanos(Math.round(seconds * 1e9)));
    }

    @Override
    public Instant instant() {
        return now;
    }
}
