package io.headroom.ui.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingResult;
import io.headroom.decision.Decision;
import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.Freeze;
import io.headroom.supervise.LastAction;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Proposal;
import io.headroom.supervise.ReplicaOverride;
import io.headroom.supervise.SupervisionState;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The view-model side of issue 11's safety items: warnings, what applies, a dialog's proposal followed. */
class ActionSafetyViewModelTest {
    static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    final SupervisionViewModel vm = new SupervisionViewModel(null, Clock.fixed(T0, ZoneOffset.UTC), Runnable::run);

    static Proposal proposal(int from, int to) {
        return new Proposal("enrichment-7", "enrichment", "sandbox", from, to, T0, T0, T0.plusSeconds(300), "why",
                List.of());
    }

    static ClassSupervision cls(Mode mode, Freeze freeze, ReplicaOverride override, Proposal p, LastAction last) {
        return new ClassSupervision("enrichment", mode, freeze, override, p, last, null);
    }

    static SupervisionState state(ClassSupervision c) {
        return new SupervisionState(T0, null, Map.of("enrichment", c),
                c.proposal() == null ? List.of() : List.of(c.proposal()), List.of(), null);
    }

    static Decision decision(int current, int desired, List<CeilingResult> ceilings, Integer guard) {
        return new Decision("enrichment", T0, current, current, desired, 0, 0, null, null, null, desired, ceilings,
                null, false, false, guard, List.of(), List.of(), List.of(), null, "", null, List.of());
    }

    @Test
    void anOverrideWarnsAboveEachCeilingTheGuardAndUnderAFreeze() {
        Decision d = decision(4, 4, List.of(new CeilingResult("db-connections", 6, 40, 6, false, false, "")), 5);
        Freeze f = new Freeze("incident", T0.plusSeconds(3600), "alice", T0);
        record Case(int replicas, Freeze freeze, List<String> starts) { }
        for (Case c : List.of(
                new Case(4, null, List.of()),
                new Case(6, null, List.of("6 is above the dependency guard's limit of 5")),
                new Case(10, null, List.of("10 is above the db-connections ceiling of 6",
                        "10 is above the dependency guard's limit of 5")),
                new Case(3, f, List.of("enrichment is frozen until ")))) {
            List<String> got = ActionWarnings.override("enrichment", cls(Mode.SUPERVISED, c.freeze(), null, null, null),
                    null, d, c.replicas());
            assertEquals(c.starts().size(), got.size(), got.toString());
            for (int i = 0; i < got.size(); i++) {
                assertTrue(got.get(i).startsWith(c.starts().get(i)), got.get(i));
            }
        }
    }

    @Test
    void aDrainBelowTheDecisionsDesiredWarnsAndAtOrAboveItDoesNot() {
        Decision d = decision(6, 4, List.of(), null);
        assertTrue(ActionWarnings.drain("enrichment", d, 2).contains("wants 4 replicas. Draining to 2"));
        assertNull(ActionWarnings.drain("enrichment", d, 4));
        assertNull(ActionWarnings.drain("enrichment", null, 1), "no decision yet: nothing to compare");
    }

    @Test
    void whenOverlaysConflictTheWinnerIsNamed() {
        Freeze f = new Freeze("incident", T0.plusSeconds(3600), "alice", T0);
        ReplicaOverride pin = new ReplicaOverride(10, T0.plusSeconds(600), "load test", "bob", T0);
        assertTrue(ActionWarnings.applies(cls(Mode.SUPERVISED, f, pin, null, null), null)
                .startsWith("frozen (freeze beats pin): the pin to 10 waits until"));
        assertTrue(ActionWarnings.applies(cls(Mode.SUPERVISED, null, pin, null, null), f)
                .startsWith("frozen (freeze beats pin)"), "a global freeze too");
        assertEquals("pinned to 10 (override beats auto)", ActionWarnings.applies(cls(Mode.AUTO, null, pin, null,
                null), null));
        assertNull(ActionWarnings.applies(cls(Mode.SUPERVISED, null, pin, null, null), null), "no conflict");
    }

    @Test
    void aWatchedProposalThatIsRevisedSaysWhatChangedAndOneThatGoesSaysWhy() {
        vm.apply(state(cls(Mode.SUPERVISED, null, null, proposal(4, 3), null)));
        ProposalWatch watch = new ProposalWatch(vm, vm.proposalOf("enrichment"));
        vm.apply(state(cls(Mode.SUPERVISED, null, null, proposal(4, 2), null)));
        assertEquals("Revised while open: was 4 → 3, now 4 → 2", watch.changeProperty().get());
        assertEquals(2, watch.currentProperty().get().to());
        assertFalse(watch.goneProperty().get());

        vm.apply(state(cls(Mode.SUPERVISED, null, null, null,
                LastAction.of(LastAction.Kind.WITHDRAWN, "proposal 4 → 2 withdrawn: the decision now holds 4"))));
        assertTrue(watch.goneProperty().get());
        assertEquals("Closed the dialog on enrichment 4 → 3: the proposal is no longer waiting (proposal 4 → 2"
                + " withdrawn: the decision now holds 4); nothing was done", vm.statusProperty().get());
    }

    @Test
    void theKeysTargetIsTheProposalOfTheClassInViewOrNothing() {
        vm.apply(state(cls(Mode.SUPERVISED, null, null, proposal(4, 3), null)));
        assertEquals("enrichment-7", vm.proposalOf("enrichment").id());
        assertNull(vm.proposalOf("payments-steady"));
        vm.nothingToActOn("approved", "payments-steady");
        assertEquals("No proposal is waiting for payments-steady: nothing approved", vm.statusProperty().get());
        assertFalse(vm.statusOkProperty().get());
    }
}
