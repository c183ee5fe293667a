package io.headroom.ui.overview;

import io.headroom.decision.Signals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Decision;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The overview's rows from the sandbox's ticks, without a window or the toolkit (issue 12). */
class OverviewViewModelTest {

    static ClassRow row(SandboxConsole c, String name) {
        return c.overview.rows().stream().filter(r -> r.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void oneRowPerClassWorstFirstThenInTheFilesOrderWithTheLastTicksNumbers() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            assertTrue(c.overview.rows().isEmpty(), "no row before the first tick");
            c.run(Duration.ofMinutes(2));
            List<String> classes = c.session().loop().classes().stream().map(WorkloadClass::name).toList();
            List<String> bySeverity = classes.stream().sorted(java.util.Comparator
                    .comparing((String n) -> row(c, n).severityProperty().get())
                    .thenComparing(classes::indexOf)).toList();
            assertEquals(bySeverity, c.overview.rows().stream().map(ClassRow::name).toList());
            assertEquals(5, classes.size());
            assertEquals(c.overview.rows().get(0), c.overview.selectedProperty().get(), "the first class is selected");

            TickResult last = c.lastTick();
            for (ClassSnapshot s : last.classes()) {
                Decision d = s.decision();
                ClassRow r = row(c, s.name());
                assertEquals("sandbox", r.context());
                assertEquals(d.currentReplicas(), r.currentReplicasProperty().get(), s.name());
                assertEquals(d.desiredReplicas(), r.desiredReplicasProperty().get(), s.name());
                assertEquals(d.input(Signals.QUEUE_LENGTH).value(), r.queueLengthProperty().get(), 0, s.name());
                assertEquals(s.cls().policy().maxAgeSeconds(), r.ageObjectiveProperty().get(), 0, s.name());
            }
        }
    }

    /** Issue 13: rows are worked out off the FX thread; the FX thread sets only what changed. */
    @Test
    void rowsPreparedOnTheLoopsThreadShowWhatApplyWouldAndAnUnchangedTickFiresNothing() throws Exception {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(3));
            TickResult last = c.lastTick();
            OverviewViewModel here = new OverviewViewModel();
            here.setHistory(c.session().history()::find);
            here.apply(last);
            OverviewViewModel ahead = new OverviewViewModel();
            ahead.setHistory(c.session().history()::find);
            Thread loop = new Thread(() -> ahead.prepareAhead(last), "loop");
            loop.start();
            loop.join();
            ahead.apply(last);
            assertEquals(here.rows().stream().map(ClassRow::name).toList(),
                    ahead.rows().stream().map(ClassRow::name).toList(), "the same order");
            int[] fired = {0};
            for (ClassRow a : ahead.rows()) {
                ClassRow h = here.rows().stream().filter(r -> r.name().equals(a.name())).findFirst().orElseThrow();
                assertEquals(h.trendProperty().get(), a.trendProperty().get(), a.name());
                assertTrue(a.trendProperty().get().ages().length > 0, "a trend read from the history: " + a.name());
                assertEquals(h.badgesProperty().get(), a.badgesProperty().get(), a.name());
                assertEquals(h.oldestAgeProperty().get(), a.oldestAgeProperty().get(), 0, a.name());
                assertEquals(h.workProperty().get(), a.workProperty().get(), a.name());
                javafx.beans.InvalidationListener count = o -> fired[0]++;
                for (javafx.beans.Observable p : List.of(a.queueLengthProperty(), a.oldestAgeProperty(),
                        a.arrivalRateProperty(), a.serviceSecondsProperty(), a.alertsProperty(), a.alertDetailProperty(),
                        a.trendProperty(), a.workProperty(), a.badgesProperty(), a.bindingCeilingProperty())) {
                    p.addListener(count);
                }
            }
            ahead.apply(last); // the same tick again: not one value changes, so no cell hears of it
            assertEquals(0, fired[0], "properties set to what they held");
        }
    }

    @Test
    void aBurstOfTicksReachesTheTableAsOneBatchShowingTheNewest() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            long before = c.batches();
            c.tick(30);
            assertEquals(before + 1, c.batches(), "thirty ticks, one batch");
            ClassSnapshot newest = c.lastTick().classes().get(4);
            assertEquals(newest.decision().input(Signals.OLDEST_AGE).value(),
                    row(c, newest.name()).oldestAgeProperty().get(), 0);
        }
    }

    @Test
    void alertsSayWhatHoldsAClassBackWithATooltipSentence() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            // seed 7: ledger-replay's backlog grows against its kafka-partitions ceiling within minutes
            assertTrue(c.runUntil(() -> !c.overview.rows().isEmpty()
                    && row(c, "ledger-replay").alertsProperty().get().contains(ClassRow.Alert.AGE_BREACH),
                    Duration.ofMinutes(10)), "ledger-replay breaches its age objective");
            ClassRow r = row(c, "ledger-replay");
            assertTrue(r.alertsProperty().get().contains(ClassRow.Alert.CEILING), r.alertsProperty().get().toString());
            assertEquals("kafka-partitions 8", r.bindingCeilingProperty().get(), "the binding ceiling and its value");
            assertTrue(r.alertDetailProperty().get().contains("oldest age above objective"), r.alertDetailProperty().get());
            assertTrue(r.alertDetailProperty().get().contains("capped by ceiling kafka-partitions"),
                    r.alertDetailProperty().get());
            assertTrue(r.oldestAgeProperty().get() > r.ageObjectiveProperty().get());
            assertEquals(r.alertsProperty().get(), r.badgesProperty().get().alerts(), "the alerts cell's one value");
            assertEquals(List.of(), row(c, "search-interactive").alertsProperty().get(), "a quiet class has none");
        }
    }

    @Test
    void aClassThatCouldNotBeDecidedShowsAProblemNotNumbers() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            ClassSnapshot ok = c.lastTick().classes().get(0);
            ClassSnapshot failed = new ClassSnapshot(ok.cls(), ok.at(), ok.observation(), null, null, null,
                    "workload payments/worker not found");
            c.overview.apply(new TickResult(ok.at(), List.of(failed), "sandbox", "sandbox"));
            ClassRow r = row(c, ok.name());
            assertEquals(List.of(ClassRow.Alert.PROBLEM), r.alertsProperty().get());
            assertEquals("workload payments/worker not found", r.alertDetailProperty().get());
            assertEquals(-1, r.estimatedSlotsProperty().get(), "no estimate shown");
        }
    }

    @Test
    void whileTheClusterCannotBeReadPrometheusFiguresStillShowAndTheProblemIsInWords() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(1));
            ClassSnapshot ok = c.lastTick().classes().get(3);
            ClassSnapshot down = new ClassSnapshot(ok.cls(), ok.at(), null, null, null, null,
                    "cluster read failed: java.net.ConnectException: Failed to connect to /10.0.0.1:6443",
                    ok.observation().signals());
            c.overview.apply(new TickResult(ok.at(), List.of(down), "sandbox", "sandbox"));
            ClassRow r = row(c, ok.name());
            assertEquals(List.of(ClassRow.Alert.PROBLEM), r.alertsProperty().get());
            assertEquals("cluster read failed: nothing answers at 10.0.0.1:6443", r.alertDetailProperty().get());
            assertEquals(ok.decision().input(Signals.QUEUE_LENGTH).value(), r.queueLengthProperty().get(), 0);
            assertEquals(ok.decision().input(Signals.OLDEST_AGE).value(), r.oldestAgeProperty().get(), 0);
            assertEquals(ok.decision().input(Signals.ARRIVAL_RATE).value(), r.arrivalRateProperty().get(), 0);

            c.detail.select(ok.name());
            c.detail.apply(List.of(new TickResult(ok.at(), List.of(down), "sandbox", "sandbox")));
            assertTrue(c.detail.inputs().stream().anyMatch(i -> i.name().equals("queueLength") && i.usable()),
                    c.detail.inputs().toString());
        }
    }

    /**
     * Issue 26 item 5: replicas not read at this tick are unknown ("—", -1), never 0, and never the last
     * value shown as if current; the note says what was last read and when, and why not now.
     */
    @Test
    void replicasNotReadAreUnknownWithTheLastKnownNamedAsSuch() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.run(Duration.ofMinutes(1));
            ClassSnapshot ok = c.lastTick().classes().get(3);
            ClassRow r = row(c, ok.name());
            int replicas = ok.decision().currentReplicas();
            assertEquals(replicas, r.currentReplicasProperty().get());
            assertEquals("", r.replicasNoteProperty().get());

            ClassSnapshot down = new ClassSnapshot(ok.cls(), ok.at().plusSeconds(10), null, null, null, null,
                    "cluster read failed: connection refused", ok.observation().signals());
            c.overview.apply(new TickResult(down.at(), List.of(down), "sandbox", "sandbox"));
            assertEquals(-1, r.currentReplicasProperty().get(), "not read: unknown, not the last value, not 0");
            assertEquals(-1, r.readyReplicasProperty().get());
            assertEquals(-1, r.desiredReplicasProperty().get());
            assertEquals("—", new OverviewView.ReplicaValue(-1, -1, -1, -1).text());
            assertEquals("—", r.bindingCeilingProperty().get(), "no decision: the ceiling is unknown, not \"none\"");
            assertEquals("last known " + replicas + " replicas (" + ok.decision().readyReplicas() + " ready) at "
                    + io.headroom.ui.Format.time(ok.at()) + "; not read now: cluster read failed: connection refused",
                    r.replicasNoteProperty().get());

            // Decided from a cluster view that stopped updating 40 s ago: the last known, said as such.
            java.time.Instant lastLive = ok.at().minusSeconds(40);
            io.headroom.cluster.WorkloadState w = ok.workload();
            ClassSnapshot cached = new ClassSnapshot(ok.cls(), ok.at().plusSeconds(20), ok.observation(),
                    new io.headroom.cluster.WorkloadState(w.ref(), w.specReplicas(), w.readyReplicas(),
                            w.resourceVersion(), w.pods(), lastLive), ok.decision(), ok.actuation(), null,
                    ok.observation().signals());
            c.overview.apply(new TickResult(cached.at(), List.of(cached), "sandbox", "sandbox"));
            assertEquals(-1, r.currentReplicasProperty().get());
            assertTrue(r.replicasNoteProperty().get().startsWith("last known " + replicas + " replicas")
                    && r.replicasNoteProperty().get().contains(" at " + io.headroom.ui.Format.time(lastLive)),
                    r.replicasNoteProperty().get());
            assertEquals(ok.decision().input(Signals.QUEUE_LENGTH).value(), r.queueLengthProperty().get(), 0,
                    "the signals were read");

            c.tick(1);
            assertEquals(c.lastTick().classes().get(3).decision().currentReplicas(), r.currentReplicasProperty().get(),
                    "read again: shown again");
            assertEquals("", r.replicasNoteProperty().get());
        }
    }

    @Test
    void modeFreezeOverrideAndProposalShowInTheRow() {
        try (SandboxConsole c = SandboxConsole.open(7).supervised()) {
            c.tick(1);
            ClassRow pay = row(c, "payments-steady");
            assertEquals("supervised", pay.modeProperty().get());
            assertTrue(c.await(c.supervision.freeze("payments-steady", Duration.ofMinutes(10), "incident 4711")).ok());
            assertEquals("supervised · frozen", pay.modeProperty().get(), "shown before the next tick");
            assertTrue(c.await(c.supervision.setOverride("search-interactive", 5, Duration.ofMinutes(30),
                    "load test")).ok());
            assertEquals("supervised · pinned 5", row(c, "search-interactive").modeProperty().get());

            assertTrue(c.runUntil(() -> !row(c, "enrichment").proposalProperty().get().isEmpty(),
                    Duration.ofMinutes(10)), "seed 7: enrichment needs more replicas within minutes");
            ClassRow enrichment = row(c, "enrichment");
            var p = c.supervision.proposals().stream().filter(x -> x.className().equals("enrichment")).findFirst()
                    .orElseThrow();
            assertEquals(p.from() + " → " + p.to(), enrichment.proposalProperty().get());
            assertEquals(p.from() + " → " + p.to(), enrichment.badgesProperty().get().proposal());
        }
    }

    @Test
    void theContextFilterShowsOneClustersRowsAndKeepsASelection() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            c.overview.select("nightly-batch");
            assertEquals("nightly-batch", c.overview.selectedProperty().get().name());
            assertEquals("nightly-batch", c.detail.classNameProperty().get(), "the selection drives the detail");
            c.overview.contextProperty().set("elsewhere");
            assertEquals(0, c.overview.rows().size(), "no class lives in that context");
            c.overview.contextProperty().set("sandbox");
            assertEquals(5, c.overview.rows().size());
            assertEquals("nightly-batch", c.overview.selectedProperty().get().name(), "still visible, still selected");
            c.overview.contextProperty().set(OverviewViewModel.ALL);
            assertEquals(5, c.overview.rows().size());
        }
    }
}
