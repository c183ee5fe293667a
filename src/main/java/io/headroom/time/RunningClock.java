package io.headroom.time;

import java.time.Instant;
import java.util.function.LongSupplier;

/**
 * Simulated time that runs with the wall clock at a chosen speed (the live sandbox), starting
 * from a given instant. Reads a nanosecond source so tests can drive it.
 */
public final class RunningClock extends UtcClock {
    private final LongSupplier nanos;
    private Instant base;
    private long baseNanos;
    private double speed;

    public RunningClock(Instant start, double speed, LongSupplier nanos) {
        super("running");
        this.nanos = nanos;
        this.base = start;
        this.baseNanos = nanos.getAsLong();
        this.speed = checkSpeed(speed);
    }

    /** Runs from {@code start} at {@code speed} × real time on the system's monotonic clock. */
    public static RunningClock startingAt(Instant start, double speed) {
        return new RunningClock(start, speed, System::nanoTime);
    }

    public synchronized double speed() {
        return speed;
    }

    /** Changes speed from now on; time stays continuous. */
    public synchronized void setSpeed(double newSpeed) {
        base = instant();
        baseNanos = nanos.getAsLong();
        speed = checkSpeed(newSpeed);
    }

    @Override
    public synchronized Instant instant() {
        long elapsed = nanos.getAsLong() - baseNanos;
        return base.plusNanos((long) (elapsed * speed));
    }

    private static double checkSpeed(double s) {
        if (!(s > 0) || s > 1000) {
            throw new IllegalArgumentException("speed must be in (0, 1000], got " + s);
        }
        return s;
    }
}
