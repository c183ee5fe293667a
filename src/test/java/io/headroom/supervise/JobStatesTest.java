package io.headroom.supervise;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.WorkloadClass;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The user's view of the work: waiting jobs split by what they wait for, on real decisions. The
 * class has 4 slots per pod, 10 s jobs arriving at 2/s (20 busy slots), 120 jobs waiting.
 */
class JobStatesTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static Policy.Builder policy() {
        return Policy.builder().slotsPerReplica(4).maxReplicas(50);
    }

    static ClassSnapshot snapshot(Policy p, int current, int ready, double waiting, double inFlight) {
        Map<SignalName, Signal> signals = new HashMap<>();
        signals.put(Signals.QUEUE_LENGTH, Signal.of(waiting, T0));
        signals.put(Signals.OLDEST_AGE, Signal.of(20, T0));
        signals.put(Signals.ARRIVAL_RATE, Signal.of(2, T0));
        signals.put(Signals.MEAN_SERVICE, Signal.of(10, T0));
        signals.put(Signals.IN_FLIGHT, Signal.of(inFlight, T0));
        signals.put(Signals.COMPLETION_RATE, Signal.of(2, T0));
        Observation o = new Observation(current, ready, signals);
        Decision d = DecisionEngine.decide("c", p, o, ClassMemory.initial(), T0);
        WorkloadClass cls = new WorkloadClass("c", new WorkloadRef("dev", "ns", "Deployment", "w"), p);
        return new ClassSnapshot(cls, T0, o, null, d, null, null);
    }

    static ClassSupervision sup(Mode mode, Freeze freeze, ReplicaOverride pin, Proposal proposal) {
        return new ClassSupervision("c", mode, freeze, pin, proposal, null, null);
    }

    static Proposal proposal(int from, int to) {
        return new Proposal("p1", "c", "dev", from, to, T0, T0, T0.plusSeconds(300), "", List.of());
    }

    @Test
    void startingPodsTakeTheirShareFirstTheRestWaitsItsTurn() {
        ClassSnapshot s = snapshot(policy().build(), 8, 6, 120, 24);
        JobStates j = JobStates.of(s, sup(Mode.AUTO, null, null, null), null, T0);
        assertEquals(24, j.executing());
        assertEquals(8, j.starting(), "two pods starting, four slots each");
        assertEquals(0, j.awaitingApproval());
        assertEquals(0, j.heldBack());
        assertNull(j.heldBy());
        assertEquals(112, j.queued());
        assertEquals(120, j.waiting());
    }

    @Test
    void aPendingProposalsCapacityIsWaitingForTheOperator() {
        ClassSnapshot s = snapshot(policy().build(), 6, 6, 120, 24);
        int wanted = s.decision().desiredReplicas();
        JobStates j = JobStates.of(s, sup(Mode.SUPERVISED, null, null, proposal(6, wanted)), null, T0);
        assertEquals(Math.min(120, (wanted - 6) * 4L), j.awaitingApproval(), "wanted " + wanted);
        assertEquals(120, j.waiting());
        assertEquals(0, j.heldBack());
    }

    @Test
    void aCeilingHoldsBackWhatTheEstimateAsksBeyondItAndSaysWhich() {
        Policy p = policy().ceilings(List.of(CeilingSpec.replicas("db-connections", 7))).build();
        ClassSnapshot s = snapshot(p, 7, 7, 120, 28);
        int wanted = s.decision().slotReplicas();
        JobStates j = JobStates.of(s, sup(Mode.AUTO, null, null, null), null, T0);
        assertEquals("ceiling db-connections", j.heldBy());
        assertEquals(Math.min(120, (wanted - 7) * 4L), j.heldBack(), "wanted " + wanted);
        assertEquals(120 - j.heldBack(), j.queued());
    }

    @Test
    void aFreezeHoldsBackEverythingTheDecisionWouldAdd() {
        ClassSnapshot s = snapshot(policy().build(), 5, 5, 120, 20);
        int wanted = s.decision().slotReplicas();
        Freeze f = new Freeze("incident", T0.plus(Duration.ofMinutes(30)), "ana", T0);
        JobStates j = JobStates.of(s, sup(Mode.SUPERVISED, f, null, null), null, T0);
        assertEquals("freeze", j.heldBy());
        assertEquals(Math.min(120, (wanted - 5) * 4L), j.heldBack());
        JobStates all = JobStates.of(s, sup(Mode.SUPERVISED, null, null, null), f, T0);
        assertEquals("freeze", all.heldBy(), "a freeze of every class holds it too");
        JobStates expired = JobStates.of(s, sup(Mode.SUPERVISED, null, null, null), f, T0.plus(Duration.ofHours(1)));
        assertEquals(0, expired.heldBack(), "an expired freeze holds nothing");
    }

    @Test
    void anOverrideAtOrAboveWhatIsWantedHoldsNothing() {
        ClassSnapshot s = snapshot(policy().build(), 5, 5, 120, 20);
        ReplicaOverride low = new ReplicaOverride(5, T0.plusSeconds(600), "hold", "ana", T0);
        assertEquals("override", JobStates.of(s, sup(Mode.AUTO, null, low, null), null, T0).heldBy());
        ReplicaOverride high = new ReplicaOverride(40, T0.plusSeconds(600), "warm", "ana", T0);
        JobStates j = JobStates.of(s, sup(Mode.AUTO, null, high, null), null, T0);
        assertEquals(0, j.heldBack());
        assertNull(j.heldBy());
    }

    @Test
    void withoutAQueueLengthThereIsNothingHonestToSplit() {
        ClassSnapshot s = snapshot(policy().build(), 5, 5, 120, 20);
        Map<SignalName, Signal> signals = new HashMap<>(s.observation().signals());
        signals.put(Signals.QUEUE_LENGTH, Signal.missing("no data"));
        ClassSnapshot blind = new ClassSnapshot(s.cls(), T0, new Observation(5, 5, signals), null, s.decision(), null,
                null);
        assertNull(JobStates.of(blind, null, null, T0));
    }
}
