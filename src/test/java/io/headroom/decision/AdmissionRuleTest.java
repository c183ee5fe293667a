package io.headroom.decision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionVerdict.State;
import io.headroom.decision.DecisionEngineTest.Obs;
import org.junit.jupiter.api.Test;

/** Admission as data (design.md §2b): OPEN, THROTTLE at R/s or CLOSED, each with its reason, from the tick's decision. */
class AdmissionRuleTest {

    static Policy.Builder policy() {
        return DecisionEngineTest.policy().slotsPerReplica(1).drainTargetSeconds(60).maxReplicas(50);
    }

    static AdmissionVerdict admit(Policy p, Obs o, AdmissionPolicy a) {
        return AdmissionRule.decide(DecisionEngineTest.decide(p, o), p, a);
    }

    @Test
    void readyCapacityThatDrainsTheBacklogWithinTheObjectiveIsOpen() {
        AdmissionVerdict v = admit(policy().build(), Obs.of(30, 10, 1, 1).replicas(2), AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, v.state(), v.reason());
        assertTrue(Double.isNaN(v.rate()));
        assertTrue(v.reason().contains("drains the backlog in 30 s"), v.reason());
    }

    @Test
    void aBurstAgainstASlowStartUpIsThrottledToWhatTheReadyReplicasServe() {
        // 2 ready, λ = 1/s, S = 1 s, 90 jobs queued: ready capacity drains in 90 s > 60 s; 4 replicas decided.
        AdmissionVerdict v = admit(policy().startupSeconds(90).build(), Obs.of(90, 10, 1, 1).replicas(2),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.THROTTLE, v.state(), v.reason());
        assertEquals(0.5, v.rate(), 1e-9, "(2 × 1 − 90 s / 60 s) / 1 s");
        assertEquals(4, v.waitsFor());
        assertEquals(90, v.readyInSeconds(), 1e-9);
        assertTrue(v.reason().contains("while 2 more replicas start"), v.reason());
        assertTrue(v.reason().endsWith("(2 × 1 − 90 s / 60 s) / 1 s = 0.5/s"), "explained with its numbers: "
                + v.reason());
    }

    @Test
    void theSameBurstIsOpenWhenTheNewCapacityIsReadyInTime() {
        AdmissionVerdict v = admit(policy().startupSeconds(5).build(), Obs.of(90, 10, 1, 1).replicas(2),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, v.state(), v.reason());
        assertTrue(v.reason().contains("4 replicas ready in"), v.reason());
    }

    @Test
    void theQueuesOwnPaceSeesABurstBeforeTheArrivalWindowDoes() {
        // 80 jobs waiting, the oldest 20 s: at least 4/s came in, though the 60 s arrival rate still says 1/s.
        // At 1/s the 4 ready replicas would drain them in 80 / 3 = 26.7 s (OPEN); at 4/s they only keep up.
        AdmissionVerdict v = admit(policy().maxReplicas(4).build(), Obs.of(80, 20, 1, 1).replicas(4),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.THROTTLE, v.state(), v.reason());
        assertEquals(2.66, v.rate(), 1e-9, "(4 × 1 − 80 s / 60 s) / 1 s, rounded down");
        assertTrue(v.reason().startsWith("arrivals (4/s: the 80 waiting jobs came in over the last 20 s (4/s);"
                + " the arrival rate says 1/s) exceed what 4 replicas serve"), v.reason());
    }

    @Test
    void theQueuesPaceCountsOnlyOnceTheOldestHasWaitedAPoll() {
        // The same 80 jobs with the oldest 10 s (under the 15 s poll): a few seconds' sample, the window decides.
        AdmissionVerdict v = admit(policy().maxReplicas(4).build(), Obs.of(80, 10, 1, 1).replicas(4),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, v.state(), v.reason());
        assertEquals(8.0, AdmissionRule.queuePace(80, 10, 10), 1e-9);
        assertTrue(Double.isNaN(AdmissionRule.queuePace(80, 10, 15)));
        assertTrue(Double.isNaN(AdmissionRule.queuePace(0, 30, 15)), "nothing waits: no pace");
    }

    @Test
    void aQueueGrowingFasterThanTheWindowSaysStaysThrottledWhileLateReplicasStart() {
        // 30 waiting over 20 s (1.5/s against a window of 1/s): the 2 ready drain them in 30 / 0.5 = 60 s, within
        // the objective, but a poll of OPEN lets in what producers hold, and the 3rd replica is 90 s away.
        Obs o = Obs.of(30, 20, 1, 1).replicas(2);
        AdmissionVerdict late = admit(policy().startupSeconds(90).build(), o, AdmissionPolicy.DEFAULT);
        assertEquals(State.THROTTLE, late.state(), late.reason());
        assertEquals(1.5, late.rate(), 1e-9, "(2 × 1 − 30 s / 60 s) / 1 s");
        assertTrue(late.waitsFor() > 2, late.toString());
        assertTrue(late.reason().contains("start (~90 s), not open as the 30 waiting jobs came in over the"
                + " last 20 s (1.5/s); the arrival rate says 1/s; what the 2 ready serve"), late.reason());
        // Replicas ready within the objective catch what an OPEN lets in: open.
        AdmissionVerdict inTime = admit(policy().startupSeconds(5).build(), o, AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, inTime.state(), inTime.reason());
        // The same backlog with the window agreeing (no faster pace): open, as before.
        AdmissionVerdict agreed = admit(policy().startupSeconds(90).build(), Obs.of(30, 20, 1.5, 1).replicas(2),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, agreed.state(), agreed.reason());
    }

    @Test
    void aBacklogTheReadyReplicasCannotDrainClosesUntilTheCapacityIsReady() {
        AdmissionVerdict v = admit(policy().startupSeconds(90).build(), Obs.of(600, 10, 1, 1).replicas(2),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.CLOSED, v.state(), v.reason());
        assertEquals(0, v.rate());
        assertTrue(v.reason().contains("closed until " + v.waitsFor() + " replicas are ready"), v.reason());
        assertTrue(v.waitsFor() > 2);
    }

    @Test
    void aCapNamesWhatHoldsTheCapacity() {
        AdmissionVerdict v = admit(policy().maxReplicas(3).build(), Obs.of(0, 0, 5, 1).replicas(3),
                AdmissionPolicy.DEFAULT);
        assertEquals(State.THROTTLE, v.state(), v.reason());
        assertEquals(3, v.rate(), 1e-9);
        assertTrue(v.reason().contains("at maxReplicas (3)"), v.reason());
        assertEquals(0, v.waitsFor(), "nothing more is coming");
    }

    @Test
    void missingTelemetryFollowsTheClassChoice() {
        Policy p = policy().build();
        Obs noQueue = Obs.of(30, 10, 1, 2).replicas(3).missing(Signals.QUEUE_LENGTH, "no data");

        AdmissionVerdict conservative = admit(p, noQueue, AdmissionPolicy.DEFAULT);
        assertEquals(State.THROTTLE, conservative.state(), conservative.reason());
        assertEquals(1.05, conservative.rate(), 1e-9, "3 ready × 1 slot × 0.7 / 2 s");
        assertTrue(conservative.reason().startsWith("telemetry missing"), conservative.reason());

        AdmissionVerdict close = admit(p, noQueue, AdmissionPolicy.onMissing(true, "close"));
        assertEquals(State.CLOSED, close.state());
        assertNull(close.degradeTo());

        AdmissionVerdict degrade = admit(p, noQueue, AdmissionPolicy.onMissing(true, "degrade:batch-cheap"));
        assertEquals(State.CLOSED, degrade.state());
        assertEquals("batch-cheap", degrade.degradeTo());
        assertTrue(degrade.reason().contains("new work goes to batch-cheap"), degrade.reason());
        assertEquals("CLOSED → batch-cheap", degrade.label());
    }

    @Test
    void conservativeWithNoServiceTimeKnownCloses() {
        Obs nothing = Obs.of(30, 10, 1, 2).replicas(3).missing(Signals.QUEUE_LENGTH, "no data")
                .missing(Signals.MEAN_SERVICE, "no data");
        AdmissionVerdict v = admit(policy().build(), nothing, AdmissionPolicy.DEFAULT);
        assertEquals(State.CLOSED, v.state(), v.reason());
        assertTrue(v.reason().contains("no service time is known"), v.reason());
    }

    @Test
    void anIdleClassWithNoServiceTimeYetIsOpen() {
        // Nothing waits, nothing arrives, no job finished yet so no service time: closing it would keep it so
        // for ever with producers that obey (no job let in, no service time measured). Issue 30.
        Obs idle = Obs.of(0, 0, 0, 1).replicas(3).missing(Signals.MEAN_SERVICE, "no completions");
        AdmissionVerdict v = admit(policy().build(), idle, AdmissionPolicy.DEFAULT);
        assertEquals(State.OPEN, v.state(), v.reason());
        assertTrue(v.reason().contains("nothing waits"), v.reason());
    }

    @Test
    void aStalledQueueCloses() {
        Policy p = policy().build();
        Decision d = DecisionEngineTest.decide(p, Obs.of(30, 10, 1, 1).replicas(2));
        Decision stalled = new Decision(d.className(), d.at(), d.currentReplicas(), d.readyReplicas(),
                d.desiredReplicas(), d.incomingSlots(), d.backlogSlots(), d.estimatedSlots(), d.slotReplicas(),
                d.ageReplicas(), d.recommendedReplicas(), d.ceilings(), d.bindingCeiling(), true,
                d.telemetryMissing(), d.governorLimit(), d.inputs(), d.terms(), d.reasons(), d.admission(),
                d.explanation(), d.memory(), d.stuckPods());
        AdmissionVerdict v = AdmissionRule.decide(stalled, p, AdmissionPolicy.DEFAULT);
        assertEquals(State.CLOSED, v.state());
        assertTrue(v.reason().startsWith("queue stalled"), v.reason());
    }

    @Test
    void tighteningIsOpenToThrottleToClosedOrARateTenPercentLower() {
        AdmissionVerdict open = AdmissionVerdict.open("ok");
        AdmissionVerdict t10 = new AdmissionVerdict(State.THROTTLE, 10, "t", null, 0, Double.NaN);
        AdmissionVerdict t95 = new AdmissionVerdict(State.THROTTLE, 9.5, "t", null, 0, Double.NaN);
        AdmissionVerdict t5 = new AdmissionVerdict(State.THROTTLE, 5, "t", null, 0, Double.NaN);
        AdmissionVerdict closed = new AdmissionVerdict(State.CLOSED, 0, "c", null, 0, Double.NaN);
        assertTrue(t10.tighterThan(open));
        assertTrue(closed.tighterThan(t10));
        assertTrue(t5.tighterThan(t10));
        assertFalse(t95.tighterThan(t10), "within the noise");
        assertTrue(t95.sameAs(t10));
        assertFalse(open.tighterThan(closed), "a loosening");
        assertFalse(t10.tighterThan(t5));
        assertFalse(open.tighterThan(null));
        assertTrue(closed.tighterThan(null));
    }

    @Test
    void theMissingTelemetryChoiceIsReadFromItsWords() {
        assertEquals(AdmissionPolicy.OnMissing.CLOSE, AdmissionPolicy.onMissing(false, "Close").onMissingTelemetry());
        assertEquals("degrade:cheap", AdmissionPolicy.onMissing(false, "degrade:cheap").onMissingText());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AdmissionPolicy.onMissing(false, "degrade:"));
        assertTrue(e.getMessage().contains("close, conservative or degrade:<class>"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new AdmissionVerdict(State.THROTTLE, 0, "x", null, 0, 0));
    }
}
