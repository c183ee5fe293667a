package io.headroom.ui.detail;

import io.headroom.decision.Signals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
import io.headroom.decision.Decision;
import io.headroom.decision.Reason;
import io.headroom.decision.Term;
import io.headroom.loop.ClassSnapshot;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The class detail from the sandbox's ticks: the decision's own record in rows, without the toolkit (issue 12). */
class DetailViewModelTest {

    static ClassSnapshot latest(SandboxConsole c, String name) {
        return c.lastTick().classes().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void theFirstClassOpensWithItsDecisionReadFromTheRecord() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            assertTrue(!c.detail.actionableProperty().get(), "before the first tick: nothing to act on");
            c.run(Duration.ofMinutes(2));
            DetailViewModel d = c.detail;
            assertTrue(d.actionableProperty().get(), "a decision: its actions are enabled");
            assertEquals(c.overview.rows().get(0).name(), d.classNameProperty().get(), "the console opens on the worst row");
            d.select("payments-steady");
            Decision dec = latest(c, "payments-steady").decision();
            assertEquals(dec.explanation(), d.explanationProperty().get());
            assertEquals(dec.terms().stream().map(Term::name).toList(),
                    d.terms().stream().map(DetailViewModel.TermRow::name).toList(), "every term, in order");
            assertEquals(dec.reasons().stream().map(Reason::toString).toList(), d.reasons());
            assertEquals(dec.inputs().size(), d.inputs().size());
            int from = dec.currentReplicas();
            int to = dec.desiredReplicas();
            assertEquals(from == to ? "hold " + from + " replicas" : from + " → " + to + " replicas",
                    d.headlineProperty().get());
            assertEquals(to > from ? "up" : to < from ? "down" : "hold", d.directionProperty().get());
            assertEquals("k 4 · u 0.7 · D 60 s · age objective 60 s · replicas 2–20", d.policySummaryProperty().get());
            assertEquals(60.0, d.ageObjectiveProperty().get());
            assertEquals("this console may scale payments-steady", d.actuationProperty().get());
        }
    }

    @Test
    void everyClassKeepsItsHistorySoSwitchingIsInstant() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(12);
            long structure = c.detail.structureProperty().get();
            String other = c.detail.classNameProperty().get().equals("nightly-batch") ? "enrichment" : "nightly-batch";
            c.detail.select(other);
            assertEquals(other, c.detail.classNameProperty().get());
            ClassSeries s = c.detail.seriesProperty().get();
            assertEquals(12, s.points(), "the unselected class's ticks were kept");
            assertEquals(12, s.capacitySlots.size());
            assertTrue(c.detail.structureProperty().get() > structure, "the charts rebuild for the new class");
            assertEquals(latest(c, other).decision().explanation(), c.detail.explanationProperty().get());
            c.tick(1);
            assertEquals(13, c.detail.seriesProperty().get().points());
        }
    }

    @Test
    void aBindingCeilingIsMarkedAndTheProposalsDirectionShows() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.run(Duration.ofMinutes(3));
            c.detail.select("ledger-replay");
            // seed 7: ledger-replay's backlog grows while kafka-partitions (8) caps it
            // (the decision itself up: a proposal held for the operator while the decision moved on heads the detail
            // with its own direction)
            assertTrue(c.runUntil(() -> c.detail.ceilings().stream().anyMatch(DetailViewModel.CeilingRow::binding)
                    && "up".equals(c.detail.directionProperty().get()) && latest(c, "ledger-replay").decision()
                    .desiredReplicas() > latest(c, "ledger-replay").decision().currentReplicas(), Duration.ofMinutes(10)));
            DetailViewModel.CeilingRow ceiling = c.detail.ceilings().stream()
                    .filter(DetailViewModel.CeilingRow::binding).findFirst().orElseThrow();
            assertEquals("kafka-partitions", ceiling.name());
            assertEquals(8, ceiling.limit());
            assertTrue(c.detail.reasons().contains("CEILING:kafka-partitions"), c.detail.reasons().toString());
            Decision dec = latest(c, "ledger-replay").decision();
            io.headroom.supervise.Proposal held = c.session().supervisor().state().pending().stream()
                    .filter(p -> p.className().equals("ledger-replay") && p.floor() == null).findFirst().orElse(null);
            String expected = held != null && held.from() == dec.currentReplicas() && held.to() != dec.desiredReplicas()
                    ? "proposal " + held.from() + " → " + held.to() + " waiting for you · the decision now would scale "
                    + dec.currentReplicas() + " → " + dec.desiredReplicas() + " replicas"
                    : dec.currentReplicas() + " → " + dec.desiredReplicas() + " replicas";
            assertEquals(expected, c.detail.headlineProperty().get());
            assertTrue(c.detail.seriesProperty().get().ceilingSlots.containsKey("kafka-partitions"), "charted too");
        }
    }

    /**
     * Issue 26 item 5: replicas from a cluster view whose watches are down are the last known, not the
     * current: the capacity chart leaves a gap after the last point read instead of carrying them on.
     */
    @Test
    void replicasFromAViewThatStoppedUpdatingAreAGapNotACurrentLine() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(2);
            ClassSnapshot ok = latest(c, "payments-steady");
            c.detail.select("payments-steady");
            io.headroom.cluster.WorkloadState w = ok.workload();
            java.time.Instant at = ok.at().plusSeconds(30);
            ClassSnapshot cached = new ClassSnapshot(ok.cls(), at, ok.observation(),
                    new io.headroom.cluster.WorkloadState(w.ref(), w.specReplicas(), w.readyReplicas(),
                            w.resourceVersion(), w.pods(), ok.at()), ok.decision(), ok.actuation(), null);
            c.detail.apply(java.util.List.of(new io.headroom.loop.TickResult(at, java.util.List.of(cached), "sandbox",
                    "sandbox")));
            ClassSeries s = c.detail.seriesProperty().get();
            int last = s.capacitySlots.size() - 1;
            assertTrue(Double.isNaN(s.capacitySlots.value(last)), "not read: a gap");
            assertTrue(Double.isNaN(s.readySlots.value(last)));
            assertTrue(!Double.isNaN(s.capacitySlots.value(last - 1)), "the last point read stays where it was");
            assertEquals(ok.decision().input(Signals.OLDEST_AGE).value(), s.oldestAge.value(s.oldestAge.size() - 1), 0,
                    "the signals still chart");
        }
    }

    @Test
    void anUndecidedClassSaysWhyInsteadOfTerms() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(2);
            ClassSnapshot ok = latest(c, "payments-steady");
            c.detail.apply(java.util.List.of(new io.headroom.loop.TickResult(ok.at().plusSeconds(5), java.util.List.of(
                    new ClassSnapshot(ok.cls(), ok.at().plusSeconds(5), ok.observation(), null, null, null,
                            "cluster unreachable")), "sandbox", "sandbox")));
            assertTrue(!c.detail.actionableProperty().get(), "nothing to act on for an undecided class");
            assertEquals("not decided", c.detail.headlineProperty().get());
            assertEquals("problem", c.detail.directionProperty().get());
            assertEquals("cluster unreachable", c.detail.explanationProperty().get());
            assertTrue(c.detail.terms().isEmpty());
            assertEquals(3, c.detail.seriesProperty().get().points(), "a gap in the charts, not a stop");
            assertTrue(Double.isNaN(c.detail.seriesProperty().get().capacitySlots.value(2)), "no capacity: a gap");

            ClassSnapshot withSignals = new ClassSnapshot(ok.cls(), ok.at().plusSeconds(10), null, null, null, null,
                    "cluster unreachable", ok.observation().signals());
            c.detail.apply(java.util.List.of(new io.headroom.loop.TickResult(withSignals.at(),
                    java.util.List.of(withSignals), "sandbox", "sandbox")));
            ClassSeries s = c.detail.seriesProperty().get();
            assertEquals(ok.decision().input(Signals.OLDEST_AGE).value(), s.oldestAge.value(s.oldestAge.size() - 1), 0,
                    "Prometheus's figures chart while the cluster cannot be read");
            assertTrue(Double.isNaN(s.capacitySlots.value(s.capacitySlots.size() - 1)));
        }
    }

    @Test
    void missingDataIsSaidInWordsNotAsACodeOrAnException() {
        java.time.Instant now = SandboxConsole.NOW;
        DetailViewModel.InputRow row = DetailViewModel.inputRow(new io.headroom.decision.InputStatus(Signals.QUEUE_LENGTH,
                io.headroom.decision.InputStatus.Status.MISSING, Double.NaN, null,
                "UNREACHABLE: java.net.ConnectException: Failed to connect to /127.0.0.1:9"), now);
        assertEquals("no data: Prometheus cannot be reached (nothing answers at 127.0.0.1:9)", row.status());

        DetailViewModel vm = new DetailViewModel(java.time.Clock.fixed(now, java.time.ZoneOffset.UTC), Runnable::run);
        vm.setHistorySource((cls, signal, from, to, px) -> java.util.concurrent.CompletableFuture.completedFuture(
                io.headroom.metrics.SignalHistory.none(cls, signal,
                        "NoData[reason=UNREACHABLE, message=ConnectException: Failed to connect to /127.0.0.1:9]")));
        vm.select("orders");
        vm.backfill(Duration.ofMinutes(15), 800);
        String status = vm.backfillStatusProperty().get();
        assertTrue(status.startsWith("no history for oldestAge (Prometheus cannot be reached (nothing answers at"), status);
        assertTrue(!status.contains("NoData") && !status.contains("Exception") && !status.contains("UNREACHABLE"), status);
    }

    @Test
    void observeOnlyShowsTheReasonForTheSelectedClass() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            c.detail.applyAccess(Map.of("payments-steady", ActionCheck.denied("scale", "lease held by bob@laptop")),
                    Map.of());
            assertEquals("observe-only here: lease held by bob@laptop", c.detail.actuationProperty().get());
            c.detail.select("enrichment");
            assertEquals("", c.detail.actuationProperty().get(), "nothing checked for it in that batch");
            assertNotNull(c.detail.seriesProperty().get());
        }
    }
}
