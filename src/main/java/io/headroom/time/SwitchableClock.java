package io.headroom.time;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A clock that first steps by hand (replaying a warm-up faster than real time) and then runs
 * live from where the steps left off, so the sandbox opens with history already on its charts.
 */
public final class SwitchableClock extends Clock {
    private volatile Clock delegate;

    public SwitchableClock(Clock initial) {
        this.delegate = initial;
    }

    public void switchTo(Clock next) {
        this.delegate = next;
    }

    public Clock delegate() {
        return delegate;
    }

    @Override
    public Instant instant() {
        return delegate.instant();
    }

    @Override
    public ZoneId getZone() {
        return delegate.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return delegate.withZone(zone);
    }
}
