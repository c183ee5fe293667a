package io.headroom.ui.detail;

import io.headroom.decision.SignalName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.ClassMemory;
import io.headroom.decision.Decision;
import io.headroom.decision.DecisionEngine;
import io.headroom.decision.Observation;
import io.headroom.decision.Policy;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.JobStates;
import io.headroom.supervise.Mode;
import io.headroom.supervise.SupervisionState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The detail's work strip follows the selected class's tick and supervision, without a toolkit. */
class DetailWorkStripTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

    static ClassSnapshot snapshot(String name, int current, int ready, double waiting) {
        Policy p = Policy.builder().slotsPerReplica(4).maxReplicas(50).build();
        Map<SignalName, Signal> signals = Map.of(Signals.QUEUE_LENGTH, Signal.of(waiting, T0),
                Signals.OLDEST_AGE, Signal.of(10, T0), Signals.ARRIVAL_RATE, Signal.of(2, T0),
                Signals.MEAN_SERVICE, Signal.of(10, T0), Signals.IN_FLIGHT, Signal.of(ready * 4.0, T0),
                Signals.COMPLETION_RATE, Signal.of(2, T0));
        Observation o = new Observation(current, ready, signals);
        Decision d = DecisionEngine.decide(name, p, o, ClassMemory.initial(), T0);
        return new ClassSnapshot(new WorkloadClass(name, new WorkloadRef("dev", "ns", "Deployment", name), p), T0, o,
                null, d, null, null);
    }

    @Test
    void theStripShowsTheSelectedClassAndAFreezeMovesItsWantToHeldBack() {
        DetailViewModel vm = new DetailViewModel(Clock.fixed(T0, ZoneOffset.UTC), Runnable::run);
        vm.apply(List.of(new TickResult(T0, List.of(snapshot("a", 6, 4, 90), snapshot("b", 3, 3, 0)), "dev", "test")));
        vm.select("a");
        JobStates a = vm.workProperty().get();
        assertNotNull(a);
        assertEquals(8, a.starting(), "two pods starting");
        assertEquals(16, a.executing());
        assertEquals(90, a.waiting());
        assertEquals(0, a.heldBack());

        Freeze f = new Freeze("incident", T0.plusSeconds(1800), "ana", T0);
        vm.applySupervision(new SupervisionState(T0, null, Map.of("a", new ClassSupervision("a", Mode.SUPERVISED, f, null,
                null, null, null)), List.of(), List.of(), null));
        assertEquals("freeze", vm.workProperty().get().heldBy());
        int wanted = vm.latest("a").decision().slotReplicas();
        assertEquals(Math.min(90 - 8, (wanted - 6) * 4), vm.workProperty().get().heldBack(),
                "what the frozen decision would add waits for the freeze to lift (wanted " + wanted + ")");
        assertEquals(90 - 8 - vm.workProperty().get().heldBack(), vm.workProperty().get().queued());

        vm.select("b");
        assertEquals(0, vm.workProperty().get().waiting(), "switching class switches the strip");
        assertNull(vm.workProperty().get().heldBy());
    }
}
