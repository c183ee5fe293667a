package io.headroom.session;

import io.headroom.loop.ControlLoop;
import io.headroom.loop.DirectActuator;
import io.headroom.loop.LoopRunner;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import io.headroom.time.RunningClock;
import io.headroom.time.SwitchableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the console is connected to: one control loop over a cluster and a metrics source, with
 * its clock and the scheduler that ticks it off the FX thread.
 */
public final class Session implements AutoCloseable {
    private final ControlLoop loop;
    private final SwitchableClock clock;
    private final ScheduledExecutorService scheduler;
    private final LoopRunner runner;
    private final Duration tick;
    private final boolean sandbox;
    private volatile double speed = 1;
    private RunningClock running;

    private Session(ControlLoop loop, SwitchableClock clock, Duration tick, boolean sandbox) {
        this.loop = loop;
        this.clock = clock;
        this.tick = tick;
        this.sandbox = sandbox;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "headroom-control-loop");
            t.setDaemon(true);
            return t;
        });
        this.runner = new LoopRunner(loop, scheduler);
    }

    /**
     * The built-in sandbox: the catalog's classes on a simulated cluster whose clock starts
     * {@code history} before {@code wallNow}, so a warm-up can fill the charts before going live.
     */
    public static Session sandbox(long seed, Instant wallNow, Duration history) {
        List<SandboxCatalog.Entry> entries = SandboxCatalog.defaultClasses();
        List<SandboxClassSpec> specs = new ArrayList<>();
        List<WorkloadClass> classes = new ArrayList<>();
        double poll = Double.MAX_VALUE;
        for (SandboxCatalog.Entry e : entries) {
            specs.add(e.spec());
            classes.add(new WorkloadClass(e.spec().name(), e.spec().target(), e.policy()));
            poll = Math.min(poll, e.policy().pollIntervalSeconds());
        }
        Instant start = wallNow.minus(history);
        SwitchableClock clock = new SwitchableClock(new ManualClock(start));
        SandboxWorld world = new SandboxWorld(specs, seed, start);
        SandboxCluster cluster = new SandboxCluster(world, clock);
        SandboxMetrics metrics = new SandboxMetrics(world, clock);
        ControlLoop loop = new ControlLoop(classes, cluster, metrics, new DirectActuator(cluster), clock);
        return new Session(loop, clock, Duration.ofMillis((long) (poll * 1000)), true);
    }

    public ControlLoop loop() {
        return loop;
    }

    public boolean isSandbox() {
        return sandbox;
    }

    /** The control interval in the session's own time. */
    public Duration tick() {
        return tick;
    }

    public java.time.Clock clock() {
        return clock;
    }

    /**
     * Replays {@code span} of simulated time through the loop as fast as it runs, on the
     * calling thread (never the FX thread), so the charts open with history.
     */
    public void warmUp(Duration span) {
        if (!(clock.delegate() instanceof ManualClock manual)) {
            throw new IllegalStateException("warm-up only before the session goes live");
        }
        Instant end = manual.instant().plus(span);
        while (!manual.instant().isAfter(end)) {
            loop.tick();
            manual.advance(tick);
        }
        manual.set(end);
    }

    /** Goes live: time runs at {@link #speed()} × real time and the loop ticks on its own thread. */
    public synchronized void start() {
        if (running != null) {
            throw new IllegalStateException("already live");
        }
        running = RunningClock.startingAt(clock.instant(), speed);
        clock.switchTo(running);
        runner.start(wallPeriod());
    }

    /** Sandbox only: runs simulated time faster (or slower) than real time; before going live, sets the start speed. */
    public synchronized void setSpeed(double newSpeed) {
        if (!(newSpeed > 0)) {
            throw new IllegalArgumentException("speed must be > 0, got " + newSpeed);
        }
        speed = newSpeed;
        if (running != null) {
            running.setSpeed(newSpeed);
            runner.start(wallPeriod());
        }
    }

    public double speed() {
        return speed;
    }

    private Duration wallPeriod() {
        return Duration.ofNanos((long) (tick.toNanos() / speed));
    }

    @Override
    public void close() {
        runner.close();
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loop.cluster().close();
        loop.metrics().close();
    }
}
