package io.headroom.ui.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.supervise.ClassSupervision;
import io.headroom.supervise.LastAction;
import io.headroom.supervise.Mode;
import io.headroom.supervise.Proposal;
import io.headroom.supervise.SupervisionState;
import io.headroom.time.ManualClock;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: the inbox's cards hold still while the operator's attention is on them. Another class's
 * proposal coming or going moves no card; a proposal that went keeps its card, greyed and saying what
 * became of it; a new one comes below; the class order comes back once nothing holds it.
 */
class InboxHoldTest {
    static final Instant T0 = Instant.parse("2026-01-01T12:00:00Z");
    final ManualClock wall = new ManualClock(T0);
    /** Half the quiet time, to step the wall clock across it. */
    static final java.time.Duration HALF = io.headroom.ui.AttentionHold.QUIET.dividedBy(2);
    final SupervisionViewModel vm = new SupervisionViewModel(null, Clock.fixed(T0, ZoneOffset.UTC), Runnable::run);

    {
        vm.setAttentionClock(wall);
    }

    static Proposal proposal(String cls, int from, int to) {
        return new Proposal(cls + "-1", cls, "sandbox", from, to, T0, T0, T0.plusSeconds(300), "why " + cls,
                List.of());
    }

    /** The classes in the workloads file's order; each with its proposal, or its last action when it has none. */
    static SupervisionState state(Object... perClass) {
        Map<String, ClassSupervision> classes = new LinkedHashMap<>();
        List<Proposal> pending = new java.util.ArrayList<>();
        for (Object o : perClass) {
            if (o instanceof Proposal p) {
                classes.put(p.className(), new ClassSupervision(p.className(), Mode.SUPERVISED, null, null, p, null,
                        null));
                pending.add(p);
            } else {
                String[] nameAndAction = ((String) o).split(":", 2);
                classes.put(nameAndAction[0], new ClassSupervision(nameAndAction[0], Mode.SUPERVISED, null, null, null,
                        LastAction.of(LastAction.Kind.APPLIED, nameAndAction[1]), null));
            }
        }
        return new SupervisionState(T0, null, classes, pending, List.of(), null);
    }

    List<String> cards() {
        return vm.proposals().stream().map(r -> r.className() + (r.pending() ? "" : " (gone)")).toList();
    }

    @Test
    void underThePointerAProposalAboveComesBelowAndOneThatWentStaysGreyedUntilThePointerLeaves() {
        Proposal ingest = proposal("ingest", 2, 4);
        Proposal enrich = proposal("enrichment", 3, 6);
        Proposal reports = proposal("reports", 5, 3);
        vm.apply(state("ingest:idle", enrich, reports));
        assertEquals(List.of("enrichment", "reports"), cards());
        vm.selectedProperty().set(vm.proposals().get(1)); // aimed at reports

        vm.attention().pointerProperty().set(true);
        vm.apply(state(ingest, enrich, reports));
        assertEquals(List.of("enrichment", "reports", "ingest"), cards(), "the new one comes below, nothing moves");
        assertTrue(vm.attention().waitingProperty().get());
        assertEquals("held while you work: 1 new below", vm.heldNoteProperty().get());
        assertEquals(3, vm.pendingCountProperty().get());

        vm.apply(state(ingest, "enrichment:approved 3 → 6 by alice", reports));
        assertEquals(List.of("enrichment (gone)", "reports", "ingest"), cards(), "a card that went stays where it was");
        assertEquals("approved 3 → 6 by alice", vm.proposals().get(0).gone());
        assertEquals("held while you work: 1 gone, 1 new below", vm.heldNoteProperty().get());
        assertEquals(2, vm.pendingCountProperty().get(), "the count says what is pending");
        assertNull(vm.current(vm.proposals().get(0)), "a gone card is not a pending proposal");
        assertNull(vm.proposalOf("enrichment"), "the keys acting on the class in view find nothing for it");
        assertEquals("reports", vm.selectedProperty().get().className(), "the highlight stays on the aimed card");
        // Its buttons (or A, R, O, D with it highlighted) act on nothing, and say so.
        new OperatorActions(vm, () -> null).approve(vm.proposals().get(0));
        assertFalse(vm.statusOkProperty().get());
        assertEquals("enrichment 3 → 6 is no longer waiting (approved 3 → 6 by alice): nothing approved",
                vm.statusProperty().get());

        vm.attention().pointerProperty().set(false);
        assertEquals(List.of("ingest", "reports"), cards(), "the class order comes back once the pointer leaves");
        assertFalse(vm.attention().waitingProperty().get());
        assertEquals("", vm.heldNoteProperty().get());
        assertEquals("reports", vm.selectedProperty().get().className());
    }

    @Test
    void aKeyOrClickHoldsTheCardsForTheQuietTimeOnTheWallClock() {
        Proposal enrich = proposal("enrichment", 3, 6);
        Proposal reports = proposal("reports", 5, 3);
        vm.apply(state(enrich, reports));
        vm.attention().touch();
        vm.apply(state("enrichment:withdrawn: the decision now holds 3", reports));
        assertEquals(List.of("enrichment (gone)", "reports"), cards());
        wall.advance(HALF);
        vm.attention().releaseIfQuiet();
        assertEquals(List.of("enrichment (gone)", "reports"), cards(), "still within the quiet time");
        wall.advance(HALF.plusSeconds(1));
        vm.attention().releaseIfQuiet();
        assertEquals(List.of("reports"), cards(), "quiet keys: the gone card leaves");
    }

    @Test
    void aHeldCardTakesItsNewFiguresWhereItIsAndAGoneSelectedCardHandsTheHighlightOnAtRelease() {
        Proposal enrich = proposal("enrichment", 3, 6);
        Proposal reports = proposal("reports", 5, 3);
        vm.apply(state(enrich, reports));
        vm.selectedProperty().set(vm.proposals().get(0));
        vm.attention().pointerProperty().set(true);
        Proposal revised = new Proposal(reports.id(), "reports", "sandbox", 5, 2, T0, T0.plusSeconds(30),
                T0.plusSeconds(300), "why reports", List.of());
        vm.apply(state("enrichment:rejected by the operator", revised));
        assertEquals(List.of("enrichment (gone)", "reports"), cards());
        assertEquals(2, vm.proposals().get(1).to(), "the pending card shows its revised figures in place");
        assertFalse(vm.selectedProperty().get().pending(), "the highlight stays on the aimed card, gone or not");

        vm.attention().pointerProperty().set(false);
        assertEquals(List.of("reports"), cards());
        assertEquals("reports", vm.selectedProperty().get().className(), "then it goes to a card that waits");
    }

    @Test
    void nothingWaitsWhenTheNewProposalFallsWhereTheClassOrderHasIt() {
        Proposal enrich = proposal("enrichment", 3, 6);
        Proposal reports = proposal("reports", 5, 3);
        vm.apply(state(enrich, "reports:idle"));
        vm.attention().pointerProperty().set(true);
        vm.apply(state(enrich, reports));
        assertEquals(List.of("enrichment", "reports"), cards());
        assertFalse(vm.attention().waitingProperty().get(), "in class order already: nothing to wait for");
        assertEquals("", vm.heldNoteProperty().get());
    }
}
