package io.headroom.loop;

import static io.headroom.loop.LoopFakes.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The runner on an injected scheduler: what it schedules, that a failed tick keeps the schedule, and stopping. */
class LoopRunnerTest {
    static final WorkloadRef A = new WorkloadRef("fake-context", "work", "Deployment", "worker-a");

    final ManualScheduler scheduler = new ManualScheduler();
    final LoopFakes.Cluster cluster = new LoopFakes.Cluster();
    final LoopFakes.Metrics metrics = new LoopFakes.Metrics();
    final ManualClock clock = new ManualClock(T0);
    final ControlLoop loop = new ControlLoop(List.of(new WorkloadClass("a", A, Policy.defaults())), cluster.ports(), metrics,
            new ObserveOnlyActuator(), clock);
    final List<TickResult> ticks = new ArrayList<>();

    LoopRunnerTest() {
        cluster.put(A, 2, List.of());
        loop.addListener(ticks::add);
    }

    @Test
    void startSchedulesTheFirstTickAtOnceThenOneEveryPeriodAfterTheLastEnds() {
        LoopRunner runner = new LoopRunner(loop, scheduler);
        runner.start(Duration.ofSeconds(15));

        assertEquals(1, scheduler.tasks.size());
        ManualScheduler.Task task = scheduler.tasks.get(0);
        assertEquals(0, task.initialDelay, "the first tick at once");
        assertEquals(15_000, task.unit.toMillis(task.delay), "fixed delay: a slow tick never queues up a burst");
        assertEquals(List.of(), ticks, "nothing runs on the caller's thread");

        task.runOnce();
        clock.advance(Duration.ofSeconds(15));
        task.runOnce();
        assertEquals(List.of(T0, T0.plusSeconds(15)), ticks.stream().map(TickResult::at).toList());
    }

    @Test
    void aTickThatThrowsDoesNotEndTheSchedule() {
        LoopRunner runner = new LoopRunner(loop, scheduler);
        runner.start(Duration.ofSeconds(1));
        ManualScheduler.Task task = scheduler.tasks.get(0);
        loop.addListener(r -> {
            throw new AssertionError("an Error from a listener, as a bug would throw");
        });

        task.runOnce(); // would throw out of the task, ending a real scheduler's schedule, if not caught

        assertFalse(task.isCancelled());
        assertEquals(1, ticks.size());
        task.runOnce();
        assertEquals(2, ticks.size(), "the next tick tries again");
    }

    @Test
    void restartingReplacesTheScheduleAndCloseStopsIt() {
        LoopRunner runner = new LoopRunner(loop, scheduler);
        runner.start(Duration.ofSeconds(15));
        runner.start(Duration.ofMillis(100)); // e.g. the sandbox switched to 10×
        assertEquals(2, scheduler.tasks.size());
        assertTrue(scheduler.tasks.get(0).isCancelled(), "the old period no longer ticks");
        ManualScheduler.Task faster = scheduler.tasks.get(1);
        assertEquals(100, faster.unit.toMillis(faster.delay));

        runner.close();
        assertTrue(faster.isCancelled());
        runner.close(); // twice is fine
        assertFalse(scheduler.isShutdown(), "the scheduler is the caller's: the runner never shuts it down");
    }

    @Test
    void aPeriodBelowOneMillisecondTicksEveryMillisecond() {
        new LoopRunner(loop, scheduler).start(Duration.ZERO);
        ManualScheduler.Task task = scheduler.tasks.get(0);
        assertEquals(TimeUnit.MILLISECONDS, task.unit);
        assertEquals(1, task.delay, "never a zero delay, which a scheduler rejects");
    }
}
