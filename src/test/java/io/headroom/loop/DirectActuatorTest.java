package io.headroom.loop;

import static io.headroom.loop.LoopFakes.T0;
import static io.headroom.loop.LoopFakes.busy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.time.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The direct actuator applies each change at once, guarded by the resourceVersion it saw; observe-only never does. */
class DirectActuatorTest {
    static final WorkloadRef A = new WorkloadRef("fake-context", "work", "Deployment", "worker-a");
    final LoopFakes.Cluster cluster = new LoopFakes.Cluster();
    final LoopFakes.Metrics metrics = new LoopFakes.Metrics();
    final WorkloadClass cls = new WorkloadClass("a", A, Policy.defaults());

    ClassSnapshot tick(Actuator actuator) {
        return new ControlLoop(List.of(cls), cluster.ports(), metrics, actuator, new ManualClock(T0)).tick().classes().get(0);
    }

    @Test
    void aWantedChangeIsAppliedWithTheObservedResourceVersion() {
        cluster.put(A, 1, List.of());
        metrics.signals.put("a", busy(T0));
        ClassSnapshot s = tick(new DirectActuator(cluster.ports()));
        int desired = s.decision().desiredReplicas();
        assertEquals(List.of("worker-a→" + desired + "@rv-1"), cluster.scales);
        assertEquals(new Actuation(Actuation.Kind.APPLIED, 1, desired, "scaled to " + desired),
                s.actuation());
    }

    @Test
    void aConflictIsAFailureThatLeavesTheReplicasAsTheyWere() {
        cluster.put(A, 1, List.of());
        metrics.signals.put("a", busy(T0));
        cluster.refuse = ScaleResult.Outcome.CONFLICT;
        ClassSnapshot s = tick(new DirectActuator(cluster.ports()));
        assertEquals(Actuation.Kind.FAILED, s.actuation().kind());
        assertEquals(1, s.actuation().to());
        assertEquals("refused for the test", s.actuation().message());
    }

    @Test
    void noChangeWritesNothing() {
        cluster.put(A, 3, List.of());
        ClassSnapshot s = tick(new DirectActuator(cluster.ports())); // no signals: hold
        assertEquals(Actuation.none(3), s.actuation());
        assertEquals(List.of(), cluster.scales);
    }

    @Test
    void observeOnlyWithholdsAndRemembersWhatItWouldDoAndForgetsItWhenNothingIsWanted() {
        cluster.put(A, 1, List.of());
        metrics.signals.put("a", busy(T0));
        ObserveOnlyActuator observe = new ObserveOnlyActuator();
        ClassSnapshot s = tick(observe);
        int desired = s.decision().desiredReplicas();
        assertEquals(Actuation.Kind.WITHHELD, s.actuation().kind());
        assertEquals("observe only: would scale 1 → " + desired, s.actuation().message());
        assertEquals(Map.of("a", s.actuation()), observe.wouldDo());
        assertEquals(List.of(), cluster.scales, "the cluster is never touched");

        cluster.workloads.clear();
        tick(observe);
        assertTrue(observe.wouldDo().isEmpty(), "nothing wanted for an unreadable class");
        cluster.put(A, 1, List.of());
        tick(observe);
        assertEquals(1, observe.wouldDo().size());
        metrics.signals.clear();
        assertEquals(Actuation.Kind.NONE, tick(observe).actuation().kind());
        assertTrue(observe.wouldDo().isEmpty(), "nothing wanted once the decision holds");
    }
}
