package io.headroom.baseline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decider;
import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Reason;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The baselines are the HPA (issue 29): the HPA seeds a new autoscaler's stabilisation window with the count it
 * finds ({@code recordInitialRecommendation} in kubernetes/kubernetes {@code pkg/controller/podautoscaler/horizontal.go}),
 * so its first tick does not drop 5 → 3. The first two tests follow that package's {@code TestScaleDown} and
 * {@code TestScaleDownStabilizeInitialSize} in {@code horizontal_test.go}: min 2, max 6, 5 replicas, a metric whose
 * ratio to the target is 0.56 (there CPU 280 m of 1 000 m at a 50 % target; here 14 waiting jobs at listLength 5
 * on 5 replicas, 14 / 25 = 0.56), the default 300 s scale-down window.
 */
class HpaParityTest {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Policy POLICY = Policy.builder().minReplicas(2).maxReplicas(6).build();

    static Observation obs(int current, double waiting, double inFlight, double age, Instant at) {
        return new Observation(current, current, Map.of(Signals.QUEUE_LENGTH, Signal.of(waiting, at),
                Signals.IN_FLIGHT, Signal.of(inFlight, at), Signals.OLDEST_AGE, Signal.of(age, at)));
    }

    @Test
    void scaleDownStabilisesTheInitialSize() {
        // TestScaleDownStabilizeInitialSize: recommendations nil (a new autoscaler) → 5 held, ScaleDownStabilized.
        Decision d = KedaLengthRule.of(5).decide("c", POLICY, obs(5, 14, 0, 3, T0), ClassMemory.initial(), T0);
        assertEquals(5, d.desiredReplicas(), d.explanation());
        assertTrue(d.reasons().contains(Reason.of(Reason.Code.STABILISING_DOWN)), d.reasons().toString());
    }

    @Test
    void scaleDownWithAWindowAlreadyKnown() {
        // TestScaleDown: recommendations empty but known (the autoscaler ran before, long ago) → ceil(5 × 0.56) = 3.
        Instant earlier = T0.minusSeconds(3600);
        ClassMemory seen = KedaLengthRule.of(5).decide("c", POLICY, obs(5, 25, 0, 3, earlier), ClassMemory.initial(),
                earlier).memory();
        Decision d = KedaLengthRule.of(5).decide("c", POLICY, obs(5, 14, 0, 3, T0), seen, T0);
        assertEquals(3, d.desiredReplicas(), d.explanation());
    }

    @Test
    void theSeedLeavesTheWindowAfterItsLength() {
        KedaLengthRule r = KedaLengthRule.of(5);
        ClassMemory m = ClassMemory.initial();
        int replicas = 4;
        // 4 replicas, nothing waiting: the HPA holds 4 for the 300 s window, then falls to min.
        for (int t = 0; t <= 330; t += 15) {
            Instant at = T0.plusSeconds(t);
            Decision d = r.decide("c", POLICY, obs(replicas, 0, 0, 0, at), m, at);
            m = d.memory().applied(at, replicas, d.desiredReplicas());
            if (t < 300) {
                assertEquals(4, d.desiredReplicas(), "held at t=" + t + ": " + d.explanation());
            }
            replicas = d.desiredReplicas();
        }
        assertEquals(2, replicas, "min after the window");
    }

    @Test
    void theHpaOnCpuSeedsItsWindowToo() {
        HpaCpuRule r = new HpaCpuRule(0.7, HpaCpuRule.DEFAULT_BUSY_POD_CPU);
        Policy p = Policy.builder().minReplicas(1).maxReplicas(20).slotsPerReplica(4).build();
        Decision d = r.decide("c", p, obs(4, 0, 1, 0, T0), ClassMemory.initial(), T0);
        assertEquals(4, d.desiredReplicas(), d.explanation());
    }

    @Test
    void rulesThatDifferOnlyInOptionsHaveDistinctLabels() {
        List<String> specs = List.of("keda:listLength=5", "keda:listLength=5,inFlight=true",
                "keda:listLength=5,activation=2", "keda:listLength=5,ignoreNullValues=false", "hpa-cpu:target=70",
                "hpa-cpu:target=70,busyPodCpu=0.9");
        List<String> labels = specs.stream().map(s -> Baselines.parse(s).label()).toList();
        assertEquals(specs.size(), labels.stream().distinct().count(), labels.toString());
        assertEquals("keda:listLength=5,inFlight=true", Baselines.parse("keda:inFlight=true,listLength=5").label());
        assertEquals(Baselines.parse("keda:listLength=5").label(), Baselines.parse("keda:listLength=5.0").label());
        assertNotEquals(Baselines.parse("hpa-cpu").label(), Baselines.parse("hpa-cpu:busyPodCpu=0.9").label());
    }

    @Test
    void everyRuleReportsTheOldestAgeItSaw() {
        for (Decider r : List.of(KedaLengthRule.of(5), new HpaCpuRule(0.7, HpaCpuRule.DEFAULT_BUSY_POD_CPU))) {
            Decision d = r.decide("c", POLICY, obs(5, 14, 2, 42, T0), ClassMemory.initial(), T0);
            InputStatus age = d.input(Signals.OLDEST_AGE);
            assertTrue(age != null && age.usable(), r + ": " + d.inputs());
            assertEquals(42, age.value());
        }
    }
}
