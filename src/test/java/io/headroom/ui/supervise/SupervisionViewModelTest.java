package io.headroom.ui.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
import io.headroom.journal.JournalRecord;
import io.headroom.loop.ClassSnapshot;
import io.headroom.supervise.Outcome;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The inbox, freezes and the operator's commands as the view model sees them, on the sandbox in
 * supervised mode, without a window or the toolkit (issue 12).
 */
class SupervisionViewModelTest {

    static SandboxConsole withProposal() {
        SandboxConsole c = SandboxConsole.open(7);
        c.run(Duration.ofMinutes(3)); // seed 7: load builds up, the sandbox scales on its own
        c.supervised();
        assertTrue(c.runUntil(() -> !c.supervision.proposals().isEmpty(), Duration.ofMinutes(5)),
                "a proposal within minutes of supervised mode");
        return c;
    }

    static int replicas(SandboxConsole c, String className) {
        return c.lastTick().classes().stream().filter(s -> s.name().equals(className)).findFirst()
                .map(ClassSnapshot::decision).orElseThrow().currentReplicas();
    }

    static List<JournalRecord.Kind> journaled(SandboxConsole c, String className) {
        return c.session().journal().replay().records().stream().filter(r -> className.equals(r.className()))
                .map(JournalRecord::kind).toList();
    }

    @Test
    void aDecisionThatWantsAChangeArrivesInTheInboxOnceAndStaysSelected() {
        List<List<ProposalRow>> announced = new ArrayList<>();
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.supervision.setOnNewProposals(announced::add);
            c.run(Duration.ofMinutes(3));
            assertTrue(c.supervision.proposals().isEmpty(), "the warm-up's autoscaler acts directly: no proposals");
            c.supervised();
            // seed 7: enrichment's backlog outgrows its three replicas, for minutes
            assertTrue(c.runUntil(() -> c.supervision.proposals().stream()
                    .anyMatch(r -> r.className().equals("enrichment")), Duration.ofMinutes(5)));
            ProposalRow p = c.supervision.proposals().stream().filter(r -> r.className().equals("enrichment"))
                    .findFirst().orElseThrow();
            assertEquals(1, c.supervision.proposals().stream().filter(r -> r.className().equals("enrichment")).count(),
                    "one proposal per class");
            ProposalRow selected = c.supervision.selectedProperty().get();
            assertTrue(selected != null && c.supervision.proposals().contains(selected), "a waiting card is highlighted");
            assertEquals(c.supervision.proposals().size(), c.supervision.pendingCountProperty().get());
            assertTrue(announced.stream().anyMatch(a -> a.stream().anyMatch(r -> r.id().equals(p.id()))),
                    "announced when it appeared");
            assertEquals(replicas(c, p.className()), p.from(), "proposed from what runs");

            c.tick(3);
            assertEquals(1, announced.stream().filter(a -> a.stream().anyMatch(r -> r.id().equals(p.id()))).count(),
                    "a revised proposal is not announced again");
            assertTrue(c.supervision.proposals().stream().anyMatch(r -> r.id().equals(p.id())), "still pending");
            assertEquals(selected.id(), c.supervision.selectedProperty().get().id(), "the highlight stays with its card");
        }
    }

    @Test
    void approvingScalesTheClassSaysWhatItDidAndEmptiesTheInboxOfIt() {
        try (SandboxConsole c = withProposal()) {
            ProposalRow p = c.supervision.proposals().get(0);
            Outcome o = c.await(c.supervision.approve(p));
            assertTrue(o.ok(), o.message());
            assertTrue(c.supervision.statusOkProperty().get());
            // The outcome says what was done, in words, and that it can be undone.
            assertTrue(c.supervision.statusProperty().get().startsWith("Approved " + p.className() + " " + p.from()
                    + " → " + p.to()), c.supervision.statusProperty().get());
            c.tick(1);
            assertEquals(p.to(), replicas(c, p.className()), "the sandbox runs what was approved");
            assertTrue(c.supervision.proposals().stream().noneMatch(r -> r.id().equals(p.id())));
            assertTrue(journaled(c, p.className()).contains(JournalRecord.Kind.APPROVED));
        }
    }

    @Test
    void rejectingKeepsTheReplicasAndJournalsTheReason() {
        try (SandboxConsole c = withProposal()) {
            ProposalRow p = c.supervision.proposals().get(0);
            Outcome o = c.await(c.supervision.reject(p, "batch window, leave it"));
            assertTrue(o.ok(), o.message());
            assertTrue(c.supervision.proposals().stream().noneMatch(r -> r.id().equals(p.id())));
            c.tick(1);
            assertEquals(p.from(), replicas(c, p.className()));
            JournalRecord r = c.session().journal().replay().records().stream()
                    .filter(x -> x.kind() == JournalRecord.Kind.REJECTED).findFirst().orElseThrow();
            assertEquals("batch window, leave it", r.reason());
        }
    }

    @Test
    void aRefusedCommandIsAnErrorOnTheStatusLine() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.tick(1);
            Outcome o = c.await(c.supervision.unfreezeAll("nothing to lift"));
            assertFalse(o.ok());
            assertFalse(c.supervision.statusOkProperty().get());
            assertTrue(c.supervision.statusProperty().get().endsWith("nothing is frozen globally"),
                    c.supervision.statusProperty().get());
            assertEquals("", c.supervision.undoLabelProperty().get(), "nothing was done, nothing to undo");
        }
    }

    @Test
    void freezeAllShowsWhoWhyAndUntilWhenAndUndoLiftsIt() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.tick(1);
            assertFalse(c.supervision.frozenAllProperty().get());
            assertTrue(c.await(c.supervision.freezeAll(Duration.ofMinutes(30), "incident 4711")).ok());
            assertTrue(c.supervision.frozenAllProperty().get());
            String until = SupervisionViewModel.HHMM.format(c.now().plus(Duration.ofMinutes(30)));
            assertEquals("FROZEN until " + until + " — incident 4711 (" + io.headroom.supervise.Supervisor.osUser() + ")",
                    c.supervision.freezeTextProperty().get());
            assertEquals("Undo: freeze of every class", c.supervision.undoLabelProperty().get());

            assertTrue(c.await(c.supervision.undo()).ok());
            assertFalse(c.supervision.frozenAllProperty().get());
            assertEquals("", c.supervision.freezeTextProperty().get());
            assertEquals("", c.supervision.undoLabelProperty().get());
            assertFalse(c.await(c.supervision.undo()).ok(), "the freeze was the only action: nothing more to undo");
        }
    }

    @Test
    void aClassFreezeIsCountedAndAnOverrideIsInTheClassState() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.tick(1);
            assertTrue(c.await(c.supervision.freeze("enrichment", Duration.ofMinutes(5), "db migration")).ok());
            assertEquals("1 class frozen", c.supervision.freezeTextProperty().get());
            assertTrue(c.await(c.supervision.setOverride("ledger-replay", 7, Duration.ofMinutes(20), "replay")).ok());
            assertEquals(7, c.supervision.of("ledger-replay").override().replicas());
            c.tick(2);
            assertEquals(7, replicas(c, "ledger-replay"), "the override applied at the next tick");
        }
    }

    @Test
    void countdownsFollowTheSessionsClock() {
        try (SandboxConsole c = withProposal()) {
            ProposalRow p = c.supervision.selectedProperty().get();
            c.advance(Duration.ofSeconds(70).minus(Duration.between(p.createdAt(), c.now())));
            assertEquals("1m 10s ago", c.supervision.age(p));
            long left = Duration.between(c.now(), p.expiresAt()).toSeconds();
            assertEquals((left / 60) + "m " + (left % 60) + "s left", c.supervision.expiresIn(p));
        }
    }

    @Test
    void aClassThatMayNotBeScaledHereSaysWhy() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            assertNull(c.supervision.blockedReason("enrichment"), "the sandbox may be scaled");
            c.supervision.applyAccess(Map.of("enrichment",
                    ActionCheck.denied("scale enrichment", "lease held by console bob@laptop")));
            assertEquals("lease held by console bob@laptop", c.supervision.blockedReason("enrichment"));
            assertNull(c.supervision.blockedReason("payments-steady"));
        }
    }
}
