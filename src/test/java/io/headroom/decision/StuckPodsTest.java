package io.headroom.decision;

import static io.headroom.decision.SlotEstimateTest.T0;
import static io.headroom.decision.SlotEstimateTest.signals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Reason.Code;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Workers alive but not making progress (issue 15): a ready pod holding work whose completion
 * counter has stood still for {@code max(3 × S, stuckAfterSeconds)} is STUCK, the explanation says
 * capacity is lower than the replica count suggests, and the estimate asks for as many more replicas.
 */
class StuckPodsTest {
    static final Instant NOW = T0.plusSeconds(3600);
    static final Policy POLICY = Policy.builder().slotsPerReplica(4).maxReplicas(40).build();

    static Decision decide(Policy p, double s, Map<String, Instant> noProgress, int ready) {
        // 4 jobs/s at S: steady work for about 2 replicas of 4 slots at S = 1.5 s.
        Observation obs = new Observation(ready, ready, signals(NOW, 0, 0, 4, s, 4), Double.NaN, null, null, noProgress);
        return DecisionEngine.decide("c", p, obs, ClassMemory.initial(), NOW);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // no pod without progress: nothing flagged, (4 × 1.5) / 0.7 = 8.6 → 9 slots → 3 replicas
                Arguments.of("none", 1.5, Map.of(), 4, List.of(), 3),
                // 119 s without progress: below the 120 s floor
                Arguments.of("young", 1.5, Map.of("p1", NOW.minusSeconds(119)), 4, List.of(), 3),
                // 120 s: STUCK; one more replica
                Arguments.of("one", 1.5, Map.of("p1", NOW.minusSeconds(120)), 4, List.of("p1"), 4),
                // two stuck: two more
                Arguments.of("two", 1.5, Map.of("p1", NOW.minusSeconds(600), "p2", NOW.minusSeconds(300)), 4,
                        List.of("p1", "p2"), 5),
                // long jobs: 3 × S = 300 s beats the 120 s floor, so 200 s is not yet STUCK; 4/s × 100 s / 0.7 → 143
                Arguments.of("long jobs", 100.0, Map.of("p1", NOW.minusSeconds(200)), 4, List.of(), 143),
                Arguments.of("long jobs, stuck", 100.0, Map.of("p1", NOW.minusSeconds(300)), 4, List.of("p1"), 144));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void stuckPodsAreReplicasWithoutCapacity(String name, double s, Map<String, Instant> noProgress, int ready,
                                             List<String> stuck, int slotReplicas) {
        Policy p = Policy.builder().slotsPerReplica(4).maxReplicas(200).build();
        Decision d = decide(p, s, noProgress, ready);
        assertEquals(stuck, d.stuckPods(), name);
        assertEquals(slotReplicas, d.slotReplicas(), name + ": " + d.explanation());
        assertEquals(!stuck.isEmpty(), d.has(Code.STUCK_PODS), name);
        if (!stuck.isEmpty()) {
            assertTrue(d.explanation().contains("capacity is lower than the replica count suggests"), d.explanation());
            assertTrue(d.terms().stream().anyMatch(t -> t.name().equals("stuck") && t.value() == stuck.size()),
                    d.terms().toString());
        }
    }

    /** Issue 28: the words match the action the pod panel offers a STUCK pod: Replace, not a drain that never ends. */
    @Test
    void theDecisionSaysReplaceAStuckPodAsThePodPanelOffers() {
        Decision one = decide(POLICY, 1.5, Map.of("p1", NOW.minusSeconds(120)), 4);
        assertTrue(one.explanation().contains("replace it (a new pod first"), one.explanation());
        assertFalse(one.explanation().contains("drain it"), one.explanation());
        Decision two = decide(POLICY, 1.5, Map.of("p1", NOW.minusSeconds(600), "p2", NOW.minusSeconds(300)), 4);
        assertTrue(two.explanation().contains("replace them"), two.explanation());
        assertFalse(two.explanation().contains("drain them"), two.explanation());
    }

    @Test
    void aPolicyCanWaitLongerBeforeCallingAPodStuck() {
        Policy patient = Policy.builder().slotsPerReplica(4).stuckAfterSeconds(900).build();
        assertTrue(decide(patient, 1.5, Map.of("p1", NOW.minusSeconds(600)), 4).stuckPods().isEmpty());
        assertEquals(List.of("p1"), decide(patient, 1.5, Map.of("p1", NOW.minusSeconds(900)), 4).stuckPods());
    }

    @Test
    void whenEveryReadyPodIsStuckNoReplicaIsAdded() {
        Decision d = decide(POLICY, 1.5, Map.of("p1", NOW.minusSeconds(600), "p2", NOW.minusSeconds(600)), 2);
        assertEquals(List.of("p1", "p2"), d.stuckPods());
        assertEquals(3, d.slotReplicas(), "more pods of a class whose every pod hangs may hang too");
        assertTrue(d.terms().stream().anyMatch(t -> t.formula().contains("not added")), d.terms().toString());
    }

    @Test
    void aStalledClassSinglesOutNoPod() {
        // Work waits with idle slots and nothing completes: the class is stalled (a poison head).
        Map<SignalName, Signal> sig = signals(NOW, 30, 400, 4, 1.5, 0);
        Observation obs = new Observation(3, 3, sig, Double.NaN, null, null, Map.of("p1", NOW.minusSeconds(600)));
        Decision first = DecisionEngine.decide("c", POLICY, obs, ClassMemory.initial(), NOW);
        assertTrue(first.stalled(), first.explanation());
        assertTrue(first.stuckPods().isEmpty());
        assertFalse(first.has(Code.STUCK_PODS));
    }
}
