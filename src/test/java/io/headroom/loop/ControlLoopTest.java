package io.headroom.loop;

import static io.headroom.loop.LoopFakes.T0;
import static io.headroom.loop.LoopFakes.busy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.cluster.WorkloadState;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** One control tick: read, decide, act, publish; and what the loop remembers between ticks. */
class ControlLoopTest {
    static final WorkloadRef A = new WorkloadRef("fake-context", "work", "Deployment", "worker-a");
    static final WorkloadRef B = new WorkloadRef("fake-context", "work", "Deployment", "worker-b");
    final WorkloadClass classA = new WorkloadClass("a", A, Policy.defaults());
    final WorkloadClass classB = new WorkloadClass("b", B, Policy.defaults());

    final LoopFakes.Cluster cluster = new LoopFakes.Cluster();
    final LoopFakes.Metrics metrics = new LoopFakes.Metrics();
    final ManualClock clock = new ManualClock(T0);
    /** The memory each decision was given, in order. */
    final List<ClassMemory> memories = new ArrayList<>();
    final Decider recording = (name, policy, obs, memory, now) -> {
        memories.add(memory);
        return Decider.HEADROOM.decide(name, policy, obs, memory, now);
    };

    /** Answers with a fixed kind and records the handled decisions and unobserved problems. */
    static final class ScriptedActuator implements Actuator {
        Actuation.Kind kind = Actuation.Kind.APPLIED;
        final List<Decision> handled = new ArrayList<>();
        final List<String> unobserved = new ArrayList<>();

        @Override
        public Actuation handle(WorkloadClass cls, Decision d, WorkloadState state) {
            handled.add(d);
            int to = kind == Actuation.Kind.APPLIED ? d.desiredReplicas() : d.currentReplicas();
            return new Actuation(kind, d.currentReplicas(), to, kind.name());
        }

        @Override
        public void unobserved(WorkloadClass cls, String problem) {
            unobserved.add(cls.name() + ": " + problem);
        }
    }

    final ScriptedActuator actuator = new ScriptedActuator();

    ControlLoop loop(WorkloadClass... classes) {
        return new ControlLoop(List.of(classes), cluster.ports(), metrics, actuator, clock, recording);
    }

    @BeforeEach
    void world() {
        cluster.put(A, 1, List.of());
        cluster.put(B, 3, List.of());
        metrics.signals.put("a", busy(T0));
    }

    @Test
    void aTickHoldsEveryClassInOrderWithWhatWasSeenDecidedAndDone() {
        actuator.kind = Actuation.Kind.WITHHELD;
        ControlLoop loop = loop(classA, classB);
        clock.advance(Duration.ofSeconds(7));

        TickResult t = loop.tick();

        assertEquals(T0.plusSeconds(7), t.at(), "the clock's time, not the wall clock's");
        assertEquals(List.of(T0.plusSeconds(7)), metrics.reads, "one read for every class, at the tick's time");
        assertEquals("fake-context", t.context());
        assertEquals("fake-metrics", t.metricsSource());
        assertEquals(List.of("a", "b"), t.classes().stream().map(ClassSnapshot::name).toList());
        ClassSnapshot a = t.classes().get(0);
        assertTrue(a.decided());
        assertEquals(t.at(), a.at());
        assertEquals(1, a.observation().currentReplicas());
        assertEquals(busy(T0), a.observation().signals());
        assertEquals(A, a.workload().ref());
        assertEquals(1, a.decision().currentReplicas());
        assertTrue(a.decision().desiredReplicas() > 1, a.decision().explanation());
        assertEquals(Actuation.Kind.WITHHELD, a.actuation().kind());
        ClassSnapshot b = t.classes().get(1);
        assertEquals(3, b.decision().currentReplicas());
        assertTrue(b.decision().has(Reason.Code.TELEMETRY_MISSING), "b has no signals: " + b.decision().reasons());
        assertEquals(3, b.decision().desiredReplicas(), "missing data holds replicas");
        assertEquals(2, actuator.handled.size());
    }

    @Test
    void podStartUpFromTheClusterReachesTheDecision() {
        cluster.put(A, 2, List.of(
                pod("a-1", true, T0.minusSeconds(100), T0.minusSeconds(70)),
                pod("a-2", false, T0.minusSeconds(20), null)));
        ClassSnapshot a = loop(classA).tick().classes().get(0);
        assertEquals(30.0, a.observation().startupSeconds(), 1e-9);
        assertEquals(T0.minusSeconds(20), a.observation().startingSince());
    }

    @Test
    void aMissingWorkloadOrAFailedReadIsAProblemNotADecisionAndTheActuatorHearsOfIt() {
        cluster.workloads.remove(B);
        TickResult t = loop(classA, classB).tick();
        ClassSnapshot b = t.classes().get(1);
        assertFalse(b.decided());
        assertNull(b.observation());
        assertNull(b.actuation());
        assertEquals("workload " + B + " not found", b.problem());
        assertTrue(t.classes().get(0).decided(), "one class's problem is not the others'");

        cluster.readFailure = new IllegalStateException("connection refused");
        TickResult down = loop(classA).tick();
        assertEquals("cluster read failed: connection refused", down.classes().get(0).problem());
        assertEquals(List.of("b: workload " + B + " not found", "a: cluster read failed: connection refused"),
                actuator.unobserved);
    }

    @Test
    void aClusterThatCannotBeReadStillCarriesWhatTheMetricsSourceRead() {
        cluster.readFailure = new IllegalStateException("connection refused");
        ClassSnapshot a = loop(classA).tick().classes().get(0);
        assertFalse(a.decided());
        assertEquals(busy(T0), a.signals(), "Prometheus's figures, for the console to show (issue 11)");
        cluster.readFailure = null;
        ClassSnapshot decided = loop(classA).tick().classes().get(0);
        assertEquals(decided.observation().signals(), decided.signals(), "decided: the observation's signals");
    }

    @Test
    void aBrokenMetricsSourceIsMissingDataNeverZeroLoad() {
        metrics.failure = new IllegalStateException("socket closed");
        cluster.put(A, 4, List.of());
        ClassSnapshot a = loop(classA).tick().classes().get(0);
        assertTrue(a.decided());
        assertTrue(a.decision().has(Reason.Code.TELEMETRY_MISSING), a.decision().reasons().toString());
        assertEquals(4, a.decision().desiredReplicas(), "never a scale-down on missing data");
    }

    @Test
    void anAppliedChangeIsStampedAtTheTimeItWasApplied() {
        ControlLoop loop = loop(classA);
        ClassSnapshot first = loop.tick().classes().get(0);
        int to = first.decision().desiredReplicas();
        assertEquals(Actuation.Kind.APPLIED, first.actuation().kind());
        assertTrue(to > 1);

        clock.advance(Duration.ofSeconds(15));
        loop.tick();

        ClassMemory second = memories.get(1);
        assertEquals(to, second.lastReplicas(), "the replicas the change set");
        assertEquals(List.of(new ClassMemory.Stamped(T0, to - 1)), second.scaleEvents(),
                "counted from when it was applied, not from the tick that sees it");
    }

    @Test
    void aWithheldFailedOrEmptyChangeIsNotStamped() {
        for (Actuation.Kind kind : List.of(Actuation.Kind.WITHHELD, Actuation.Kind.FAILED, Actuation.Kind.NONE)) {
            memories.clear();
            actuator.kind = kind;
            ControlLoop loop = loop(classA);
            loop.tick();
            loop.tick();
            assertEquals(List.of(), memories.get(1).scaleEvents(), kind + " changed nothing");
            assertEquals(1, memories.get(1).lastReplicas(), kind + ": the replicas the cluster showed");
        }
    }

    @Test
    void anActuatorThatThrowsIsAFailedActuationAndTheTickGoesOn() {
        Actuator broken = (cls, d, state) -> {
            throw new IllegalStateException("journal full");
        };
        ControlLoop loop = new ControlLoop(List.of(classA, classB), cluster.ports(), metrics, broken, clock);
        TickResult t = loop.tick();
        for (ClassSnapshot s : t.classes()) {
            assertEquals(Actuation.Kind.FAILED, s.actuation().kind());
            assertEquals("actuation failed: journal full", s.actuation().message());
            assertEquals(s.decision().currentReplicas(), s.actuation().to(), "nothing changed");
        }
    }

    @Test
    void listenersHearEveryTickAndOneThatThrowsDoesNotSilenceTheOthers() {
        ControlLoop loop = loop(classA);
        List<TickResult> heard = new ArrayList<>();
        loop.addListener(r -> {
            throw new IllegalStateException("a broken view");
        });
        java.util.function.Consumer<TickResult> listener = heard::add;
        loop.addListener(listener);

        TickResult first = loop.tick();
        assertEquals(1, heard.size());
        assertSame(first, heard.get(0), "the very result tick() returns");

        loop.removeListener(listener);
        loop.tick();
        assertEquals(1, heard.size(), "a removed listener hears no more");
    }

    @Test
    void swappingTheActuatorTakesEffectOnTheNextTick() {
        ControlLoop loop = loop(classA);
        ObserveOnlyActuator observe = new ObserveOnlyActuator();
        loop.setActuator(observe);
        ClassSnapshot a = loop.tick().classes().get(0);
        assertEquals(Actuation.Kind.WITHHELD, a.actuation().kind());
        assertEquals(List.of(), actuator.handled, "the old actuator is not asked");
        assertEquals(List.of(), cluster.scales);
    }

    static PodState pod(String name, boolean ready, java.time.Instant created, java.time.Instant readyAt) {
        return new PodState(name, ready ? "Running" : "Pending", ready, created, null, "node-1", null, null, readyAt);
    }
}
