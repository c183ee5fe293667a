package io.headroom.loop;

import static io.headroom.loop.LoopFakes.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.PodState;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A class placed across pools in the loop (decision 0029): every pool read, the decision on their sum, the split
 * in the snapshot, each pool's change handed to the actuator; a class with one pool keeps a null placement.
 */
class PooledTickTest {
    static final WorkloadRef SPOT = new WorkloadRef("fake-context", "work", "Deployment", "render-spot");
    static final WorkloadRef OD = new WorkloadRef("fake-context", "work", "Deployment", "render-od");
    final LoopFakes.Cluster cluster = new LoopFakes.Cluster();
    final LoopFakes.Metrics metrics = new LoopFakes.Metrics();
    final Policy four = Policy.builder().minReplicas(4).maxReplicas(4).build();
    final WorkloadClass render = new WorkloadClass("render", SPOT, four, null, new ClassPools(List.of(
            new ClassPools.Pool(new Placement.PoolSpec("spot", 4, null, 1, null), SPOT),
            new ClassPools.Pool(new Placement.PoolSpec("on-demand", 4, null, 3, null), OD)),
            new Placement.Timing(Duration.ofSeconds(60), Duration.ofSeconds(180))));

    static PodState pending(String name, java.time.Instant since) {
        return new PodState(name, "Pending", false, since, null, null, null, null, null, null, null, since, null);
    }

    static PodState running(String name) {
        return new PodState(name, "Running", true, T0.minusSeconds(600), null, "node-1", null, null, null, null, null,
                null, T0.minusSeconds(600));
    }

    @Test
    void everyPoolIsReadTheDecisionSeesTheirSumAndTheDirectActuatorWritesEachPoolThatMoves() {
        cluster.put(SPOT, 4, List.of(running("s-a"), running("s-b"), pending("s-c", T0), pending("s-d", T0)));
        cluster.put(OD, 0, List.of());
        ManualClock clock = new ManualClock(T0.plusSeconds(61));
        ClassSnapshot s = new ControlLoop(List.of(render), cluster.ports(), metrics, new DirectActuator(cluster.ports()),
                clock).tick().classes().get(0);
        assertEquals(4, s.observation().currentReplicas(), "the pools' replicas together");
        assertEquals(4, s.observation().readyReplicas(), "their ready replicas together (4 + 0)");
        assertNotNull(s.placement());
        assertEquals(2, s.placement().share("on-demand").replicas(), s.placement().explanation());
        assertEquals(List.of("render-od→2@rv-0", "render-spot→3@rv-4"), cluster.scales, "on-demand grows first");
        assertEquals(Actuation.Kind.APPLIED, s.actuation().kind(), s.actuation().message());
    }

    @Test
    void aPoolNotFoundLeavesTheClassUndecidedInWords() {
        cluster.put(SPOT, 4, List.of());
        ClassSnapshot s = new ControlLoop(List.of(render), cluster.ports(), metrics, new DirectActuator(cluster.ports()),
                new ManualClock(T0)).tick().classes().get(0);
        assertNull(s.decision());
        assertTrue(s.problem().contains("render-od (pool on-demand) not found"), s.problem());
        assertEquals(List.of(), cluster.scales);
    }

    @Test
    void aClassWithOnePoolHasNoPlacement() {
        WorkloadClass single = new WorkloadClass("single", SPOT, four);
        cluster.put(SPOT, 4, List.of());
        ClassSnapshot s = new ControlLoop(List.of(single), cluster.ports(), metrics, new DirectActuator(cluster.ports()),
                new ManualClock(T0)).tick().classes().get(0);
        assertNull(s.placement());
    }

    @Test
    void anActuatorThatDoesNotPlaceWritesNothingAndSaysSo() {
        cluster.put(SPOT, 4, List.of(running("s-a"), running("s-b"), pending("s-c", T0), pending("s-d", T0)));
        cluster.put(OD, 0, List.of());
        Actuator plain = (cls, d, state) -> Actuation.none(d.currentReplicas());
        ClassSnapshot s = new ControlLoop(List.of(render), cluster.ports(), metrics, plain,
                new ManualClock(T0.plusSeconds(61))).tick().classes().get(0);
        assertEquals(Actuation.Kind.WITHHELD, s.actuation().kind());
        assertTrue(s.actuation().message().contains("does not place across pools"), s.actuation().message());
        assertEquals(List.of(), cluster.scales);
    }
}
