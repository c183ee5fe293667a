package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reaction gap's fluid model (decision 0009), checked against figures worked by hand: the class of
 * {@code examples/scenarios/burst.yaml} (k 4, S 1.5 s, λ 5/s, 20 s start-up, 15 s poll, 30 s objective,
 * the HPA's default scale-up max(100 %, 4 pods) per 15 s).
 */
class ReactionGapTest {

    static Policy.Builder burst() {
        return Policy.builder().slotsPerReplica(4).maxAgeSeconds(30.0).minReplicas(2).maxReplicas(30);
    }

    @Test
    void peakAgeOfAnEightfoldStepFromThreeReplicasIsWorkedByHand() {
        // 3 replicas serve 8/s until 35 s (280 jobs); the tick at 15 s asks 3 + 4 = 7, ready at 35 s: 18.7/s
        // until 50 s (560); the tick at 30 s asks 14, ready at 50 s: 37.3/s until 65 s (1,120); the tick at
        // 45 s asks 28, ready at 65 s: 74.7/s ≥ 40/s. The oldest job then arrived at 1,120 / 40 = 28 s: age 37 s.
        assertEquals(37.0, ReactionGap.peakAge(burst().build(), 3, 4, 1.5, 40, 20), 1e-9);
        // From 4: 10.7/s × 35 s = 373.3, 8 ready at 35 s: 21.3/s × 15 s → 693.3; 16 ready at 50 s ≥ 40/s.
        assertEquals(50 - 693.333333 / 40, ReactionGap.peakAge(burst().build(), 4, 4, 1.5, 40, 20), 1e-6);
        // From 5: 13.3/s × 35 s = 466.7, 10 ready at 35 s: 26.7/s × 15 s → 866.7; 20 ready at 50 s.
        assertEquals(50 - 866.666667 / 40, ReactionGap.peakAge(burst().build(), 5, 4, 1.5, 40, 20), 1e-6);
    }

    @Test
    void capacityAlreadyAboveTheStepHasNoQueue() {
        assertEquals(0, ReactionGap.peakAge(burst().build(), 3, 4, 1.5, 8, 20));
    }

    @Test
    void aStepBeyondMaxReplicasOrWithScaleUpDisabledIsNeverCaughtUp() {
        assertEquals(Double.POSITIVE_INFINITY, ReactionGap.peakAge(burst().maxReplicas(10).build(), 3, 4, 1.5, 40, 20));
        Policy off = burst().scaleUp(new ScalingBehavior(0, List.of(ScalingRule.percent(100, 15)),
                ScalingBehavior.SelectPolicy.DISABLED)).build();
        assertEquals(Double.POSITIVE_INFINITY, ReactionGap.peakAge(off, 3, 4, 1.5, 40, 20));
    }

    @Test
    void largestStepIsTheEdgeOfTheObjective() {
        Policy p = burst().build();
        for (int n : new int[] {3, 4, 5, 6}) {
            double g = ReactionGap.largestStep(p, n, 5, 1.5, 20);
            assertTrue(ReactionGap.peakAge(p, n, 4, 1.5, g * 5, 20) <= 30, n + " replicas, " + g);
            assertTrue(ReactionGap.peakAge(p, n, 4, 1.5, (g + 0.11) * 5, 20) > 30, n + " replicas, " + g);
        }
        // 3 replicas do not absorb the scenario's 8× step (37 s above); 5 do (28.3 s).
        assertTrue(ReactionGap.largestStep(p, 3, 5, 1.5, 20) < 8);
        assertTrue(ReactionGap.largestStep(p, 5, 5, 1.5, 20) >= 8);
    }

    @Test
    void theReserveIsTheFewestReplicasThatAbsorbTheTarget() {
        Trail t = new Trail();
        ReactionGap.Result r = ReactionGap.evaluate(burst().absorbStep(8.0).build(), 5, 1.5, 20, 3, t);
        assertTrue(r.tight());
        assertEquals(35, r.gap());
        assertEquals(5, r.reserve());
        assertTrue(term(t, "reserve").formula().contains("absorbStep 8"), t.terms.toString());
        assertTrue(String.join("; ", t.story).contains("reserve for a 8× step → 5 replicas"), t.story.toString());
    }

    @Test
    void aTargetNotEvenMaxReplicasReachIsNotBought() {
        Trail t = new Trail();
        ReactionGap.Result r = ReactionGap.evaluate(burst().maxReplicas(12).absorbStep(20.0).build(), 5, 1.5, 20, 3, t);
        assertEquals(0, r.reserve());
        assertTrue(term(t, "reserve").formula().contains("not even maxReplicas 12"), t.terms.toString());
    }

    @Test
    void byDefaultATightClassBuysBackTheStepItsLatePodsLose() {
        Policy p = burst().build();
        // Pods ready within the objective (28.5 s after the step) would let 3 replicas absorb more than 4
        // absorb with the real 35 s gap, and no more than 5 do (largestStepIsTheEdgeOfTheObjective's figures).
        double timely = ReactionGap.largestStep(p, 3, 5, 1.5, 28.5 - 15);
        assertTrue(timely > ReactionGap.largestStep(p, 4, 5, 1.5, 20), "timely " + timely);
        assertTrue(timely <= ReactionGap.largestStep(p, 5, 5, 1.5, 20), "timely " + timely);
        Trail t = new Trail();
        ReactionGap.Result r = ReactionGap.evaluate(p, 5, 1.5, 20, 3, t);
        assertTrue(r.tight());
        assertEquals(5, r.reserve());
        assertEquals(r.absorbs(), term(t, "absorbs").value());
        assertTrue(term(t, "reactionGap").formula().contains("poll 15 s + start-up 20 s"), t.terms.toString());
        assertTrue(term(t, "reserve").formula().contains("pods ready within 28.5 s would absorb"), t.terms.toString());
    }

    @Test
    void theDefaultReserveIsAtMostOneScaleUpStep() {
        // A 180 s start-up: the timely step needs more than 3 + 4 replicas; the reserve stops at one step (7).
        Policy p = burst().build();
        double timely = ReactionGap.largestStep(p, 3, 5, 1.5, 28.5 - 15);
        assertTrue(ReactionGap.replicasFor(p, timely, 3, 5, 1.5, 180) > 7);
        Trail t = new Trail();
        assertEquals(7, ReactionGap.evaluate(p, 5, 1.5, 180, 3, t).reserve());
        // The operator's own target is not bound by the step.
        assertTrue(ReactionGap.evaluate(burst().absorbStep(timely).build(), 5, 1.5, 180, 3, new Trail()).reserve() > 7);
    }

    @Test
    void aClassThatAbsorbsAnyStepUpToItsMaxReplicasSaysSo() {
        // maxReplicas 4 serve 10.7/s: from 3 (8/s) the oldest age reaches 35 × (1 − 8 / 10.7) = 8.75 s.
        Trail t = new Trail();
        ReactionGap.Result r = ReactionGap.evaluate(burst().minReplicas(1).maxReplicas(4).build(), 5, 1.5, 20, 3, t);
        assertEquals(Double.POSITIVE_INFINITY, r.absorbs());
        assertEquals(0, r.reserve());
        assertTrue(term(t, "absorbs").formula().startsWith("3 replicas absorb any step up to maxReplicas' capacity"),
                t.terms.toString());
    }

    @Test
    void absorbStepOneTurnsTheReserveOff() {
        Trail t = new Trail();
        ReactionGap.Result r = ReactionGap.evaluate(burst().absorbStep(1.0).build(), 5, 1.5, 20, 3, t);
        assertEquals(0, r.reserve());
        assertTrue(t.story.isEmpty(), t.story.toString());
        assertTrue(t.terms.stream().noneMatch(x -> x.name().equals("reserve")), t.terms.toString());
    }

    @Test
    void anObjectiveShorterThanAJobBuysNoDefaultReserve() {
        Trail t = new Trail();
        assertEquals(0, ReactionGap.evaluate(burst().maxAgeSeconds(1.0).build(), 5, 1.5, 20, 3, t).reserve());
    }

    @Test
    void aLooseClassOrOneWithoutAnObjectiveShowsNothing() {
        Trail t = new Trail();
        ReactionGap.Result loose = ReactionGap.evaluate(burst().maxAgeSeconds(120.0).build(), 5, 1.5, 20, 3, t);
        assertFalse(loose.tight());
        assertTrue(t.terms.isEmpty(), t.terms.toString());
        ReactionGap.Result none = ReactionGap.evaluate(burst().maxAgeSeconds(null).build(), 5, 1.5, 20, 3, t);
        assertFalse(none.tight());
        assertTrue(t.terms.isEmpty(), t.terms.toString());
    }

    private static Term term(Trail t, String name) {
        Term found = null;
        for (Term x : t.terms) {
            if (x.name().equals(name)) {
                found = x;
            }
        }
        if (found == null) {
            fail(name + " missing in " + t.terms);
        }
        return found;
    }
}
