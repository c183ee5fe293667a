package io.headroom.cli;

import io.headroom.decision.Signals;
import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.ClassConfig;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.loop.Actuation;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.ObserveOnlyActuator;
import io.headroom.loop.TickResult;
import io.headroom.metrics.MetricsSource;
import io.headroom.time.ManualClock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What {@code plan}'s control loop sees: replicas from --replicas or the replicas signal, and no cluster writes. */
class PlanWorldTest {
    static final Instant T0 = Instant.parse("2026-12-01T12:00:00Z");
    static final WorkloadRef SHARED = new WorkloadRef("prod", "work", "Deployment", "worker");

    /** Signals per class, set by the test; every read is counted. */
    static final class Readings implements MetricsSource {
        final Map<String, Map<SignalName, Signal>> next = new HashMap<>();
        int reads;

        @Override
        public String name() {
            return "readings";
        }

        @Override
        public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
            reads++;
            return Map.copyOf(next);
        }
    }

    static ClassConfig cls(String name, WorkloadRef target, boolean replicasQuery) {
        Map<SignalName, String> q = new java.util.LinkedHashMap<>();
        q.put(Signals.QUEUE_LENGTH, "q");
        if (replicasQuery) {
            q.put(Signals.REPLICAS, "r");
        }
        return new ClassConfig(name, target, q, Policy.defaults());
    }

    static Map<SignalName, Signal> signals(double replicas, Instant at) {
        return Map.of(Signals.REPLICAS, Signal.of(replicas, at));
    }

    @Test
    void twoClassesOnOneTargetEachKeepTheirOwnReplicas() {
        Readings readings = new Readings();
        PlanWorld world = new PlanWorld(readings, List.of(cls("a", SHARED, false), cls("b", SHARED, true)),
                Map.of("a", 3));
        readings.next.put("b", signals(5, T0));
        ManualClock clock = new ManualClock(T0);
        ControlLoop loop = new ControlLoop(world.classes(), world.cluster(), world.metrics(), new ObserveOnlyActuator(),
                clock);

        TickResult t = loop.tick();

        assertEquals(T0, t.at(), "the injected clock's time");
        assertEquals(1, readings.reads, "one read per tick");
        assertEquals(3, t.classes().get(0).decision().currentReplicas());
        assertEquals("--replicas", world.current("a").from());
        assertEquals(5, t.classes().get(1).decision().currentReplicas());
        assertEquals("signal", world.current("b").from());
        assertEquals(SHARED, t.classes().get(1).workload().ref(), "the class's own target, as the file names it");
    }

    @Test
    void aClassWithoutAReplicaCountIsNotDecidedAndSaysWhy() {
        Readings readings = new Readings();
        PlanWorld world = new PlanWorld(readings, List.of(cls("none", SHARED, false), cls("empty", SHARED, true),
                cls("huge", SHARED, true)), Map.of());
        readings.next.put("empty", Map.of(Signals.REPLICAS, Signal.missing("EMPTY_RESULT: no series")));
        readings.next.put("huge", signals(4294967296.0, T0));
        ControlLoop loop = new ControlLoop(world.classes(), world.cluster(), world.metrics(), new ObserveOnlyActuator(),
                new ManualClock(T0));

        TickResult t = loop.tick();

        for (ClassSnapshot s : t.classes()) {
            assertFalse(s.decided(), s.name() + " has no current replicas");
        }
        assertEquals("no 'replicas' signal in the config and no --replicas none=N", world.current("none").unknown());
        assertEquals("the 'replicas' signal has no value (EMPTY_RESULT: no series); pass --replicas empty=N",
                world.current("empty").unknown());
        assertTrue(world.current("huge").unknown().startsWith("replicas signal 4294967296 is not a replica count"),
                world.current("huge").unknown());
    }

    @Test
    void aWantedChangeIsWithheldAndRememberedAndThePlanCannotScale() {
        Readings readings = new Readings();
        ClassConfig c = new ClassConfig("busy", SHARED, Map.of(Signals.REPLICAS, "r"), Policy.defaults());
        PlanWorld world = new PlanWorld(readings, List.of(c), Map.of());
        // The brief's worked example: 12 slots, far above one replica's.
        readings.next.put("busy", Map.of(Signals.REPLICAS, Signal.of(1, T0), Signals.QUEUE_LENGTH, Signal.of(30, T0),
                Signals.OLDEST_AGE, Signal.of(10, T0), Signals.ARRIVAL_RATE, Signal.of(0.5, T0), Signals.MEAN_SERVICE, Signal.of(8, T0),
                Signals.QUEUED_SERVICE, Signal.of(240, T0)));
        ObserveOnlyActuator observe = new ObserveOnlyActuator();
        ControlLoop loop = new ControlLoop(world.classes(), world.cluster(), world.metrics(), observe,
                new ManualClock(T0));

        ClassSnapshot s = loop.tick().classes().get(0);

        assertTrue(s.decision().desiredReplicas() > 1, s.decision().explanation());
        assertEquals(Actuation.Kind.WITHHELD, s.actuation().kind());
        assertEquals(s.decision().desiredReplicas(), s.actuation().to());
        assertEquals(Map.of("busy", s.actuation()), observe.wouldDo());
        ScaleResult r = world.cluster().scaling().scale(SHARED, 3, null);
        assertEquals(ScaleResult.Outcome.REFUSED, r.outcome());
        assertNull(world.current("nobody").replicas());
    }
}
