package io.headroom.history;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Policy;
import io.headroom.decision.Signals;
import io.headroom.history.ClassHistory.Series;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.DirectActuator;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recorder on a real control loop over the sandbox: each tick is one point, in domain units. */
class HistoryRecorderTest {
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void everyTickBecomesOnePointPerClassAsTheDecisionSawIt() {
        SandboxClassSpec spec = SandboxClassSpec.builder("orders").baseRate(4).segment(120, 300, 20)
                .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(3).startupSeconds(10)
                .initialReplicas(2).build();
        Policy policy = Policy.builder().slotsPerReplica(3).minReplicas(1).maxReplicas(20).maxAgeSeconds(30.0)
                .pollIntervalSeconds(5).build();
        ManualClock clock = new ManualClock(T0);
        SandboxWorld world = new SandboxWorld(List.of(spec), 1, T0);
        SandboxCluster cluster = new SandboxCluster(world, clock);
        ControlLoop loop = new ControlLoop(List.of(new WorkloadClass("orders", spec.target(), policy)), cluster.ports(),
                new SandboxMetrics(world, clock), new DirectActuator(cluster.ports()), clock);
        History history = new History(Duration.ofSeconds(5));
        loop.addListener(new HistoryRecorder(history));
        List<TickResult> ticks = new ArrayList<>();
        loop.addListener(ticks::add);
        for (int i = 0; i < 80; i++) {
            loop.tick();
            clock.advance(Duration.ofSeconds(5));
        }

        ClassHistory h = history.find("orders");
        assertEquals(80, h.size());
        assertEquals(17_281, h.capacity(), "a day at the 5 s tick");
        boolean scaledUp = false;
        for (int i = 0; i < 80; i++) {
            ClassSnapshot s = ticks.get(i).classes().get(0);
            Decision d = s.decision();
            assertEquals(T0.getEpochSecond() + 5.0 * i, h.time(i));
            assertEquals(d.currentReplicas(), h.value(Series.REPLICAS, i), "replicas as counted, not slots / k");
            assertEquals(d.readyReplicas(), h.value(Series.READY_REPLICAS, i));
            assertEquals(d.desiredReplicas(), h.value(Series.DESIRED_REPLICAS, i));
            assertEquals(expected(d, Signals.ARRIVAL_RATE), h.value(Series.ARRIVAL_RATE, i), 0);
            assertEquals(expected(d, Signals.QUEUE_LENGTH), h.value(Series.QUEUE_LENGTH, i), 0);
            assertEquals(expected(d, Signals.OLDEST_AGE), h.value(Series.OLDEST_AGE, i), 0);
            assertEquals(expected(d, Signals.MEAN_SERVICE), h.value(Series.MEAN_SERVICE, i), 0);
            scaledUp |= h.value(Series.REPLICAS, i) > 2;
        }
        assertTrue(scaledUp, "the burst made the loop scale, and the history shows it");
        assertTrue(h.value(Series.ARRIVAL_RATE, 40) > 10, "the burst's arrivals (20/s from 120 s to 300 s)");
        assertEquals(List.of("orders"), history.classNames());
    }

    @Test
    void aClassThatCouldNotBeDecidedIsAPointOfUnknowns() {
        History history = new History(Duration.ofSeconds(15));
        WorkloadClass cls = new WorkloadClass("gone", new io.headroom.cluster.WorkloadRef("c", "ns", "Deployment",
                "gone"), Policy.defaults());
        new HistoryRecorder(history).accept(new TickResult(T0, List.of(new ClassSnapshot(cls, T0, null, null, null,
                null, "workload not found")), "c", "m"));
        ClassHistory h = history.find("gone");
        assertEquals(1, h.size());
        for (Series s : Series.values()) {
            assertTrue(Double.isNaN(h.value(s, 0)), s + " is unknown, never 0");
        }
    }

    private static double expected(Decision d, SignalName signal) {
        InputStatus in = d.input(signal);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }
}
