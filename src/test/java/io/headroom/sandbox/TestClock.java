package io.headroom.sandbox;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock the test moves by hand. */
final class TestClock extends Clock {
    private Instant now;

    TestClock(Instant now) {
        this.now = now;
    }

    void advanceSeconds(double s) {
        now = now.plus(Duration.ofNanos(Math.round(s * 1e9)));
    }

    void set(Instant t) {
        now = t;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now;
    }
}
