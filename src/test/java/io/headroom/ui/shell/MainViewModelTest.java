package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.WorkloadState;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.TickResult;
import io.headroom.metrics.MetricsHealth;
import java.util.List;
import io.headroom.ui.SandboxConsole;
import io.headroom.ui.shell.MainViewModel.Health;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The top bar's state from the sandbox's ticks, without a window or the toolkit (issue 12). */
class MainViewModelTest {

    @Test
    void beforeTheFirstTickNothingIsClaimedThenTheSandboxIsHealthy() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            MainViewModel m = c.main;
            assertEquals("sandbox", m.contextProperty().get());
            assertTrue(m.sandboxProperty().get());
            assertEquals(Health.UNKNOWN, m.clusterHealthProperty().get());
            assertEquals(Health.UNKNOWN, m.metricsHealthProperty().get());
            m.updateClock(c.now());
            assertEquals("—", m.freshnessProperty().get());
            assertEquals(Health.UNKNOWN, m.freshnessHealthProperty().get());

            c.tick(3); // rates need two samples: the first tick has none
            assertEquals(Health.OK, m.clusterHealthProperty().get());
            assertTrue(m.clusterDetailProperty().get().startsWith("5 workloads read"), m.clusterDetailProperty().get());
            assertEquals(Health.OK, m.metricsHealthProperty().get());
            assertTrue(m.metricsDetailProperty().get().startsWith("every class has data"), m.metricsDetailProperty().get());
            assertEquals("", m.warningProperty().get());
        }
    }

    @Test
    void freshnessAgesWithTheSessionsClockUntilTheNextTick() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            MainViewModel m = c.main;
            c.tick(3); // rates need two samples: from the third tick every input is fresh
            Duration interval = c.session().tick();
            m.updateClock(c.lastTick().at());
            assertEquals("0 s ago", m.freshnessProperty().get());
            assertEquals(Health.OK, m.freshnessHealthProperty().get());
            m.updateClock(c.lastTick().at().plus(interval.multipliedBy(2)));
            assertEquals(interval.multipliedBy(2).toSeconds() + " s ago", m.freshnessProperty().get());
            assertEquals(Health.DEGRADED, m.freshnessHealthProperty().get(), "two intervals late");
            m.updateClock(c.lastTick().at().plus(interval.multipliedBy(4)));
            assertEquals(Health.DOWN, m.freshnessHealthProperty().get(), "four intervals late");
            c.tick(1);
            m.updateClock(c.lastTick().at());
            assertEquals(Health.OK, m.freshnessHealthProperty().get(), "a new tick is fresh again");
        }
    }

    @Test
    void aClassMissingDataDegradesTheMetricsHealthAndSaysWhichShare() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            // seed 7: payments-steady's queue metrics go missing for a moment within minutes
            assertTrue(c.runUntil(() -> c.main.metricsHealthProperty().get() == Health.DEGRADED, Duration.ofMinutes(15)),
                    "some class misses data at some tick");
            assertTrue(c.main.metricsDetailProperty().get().matches("(?s)[1-4] of 5 classes (missing data|on stale samples).*"),
                    c.main.metricsDetailProperty().get());
            assertEquals(Health.OK, c.main.clusterHealthProperty().get(), "the cluster is not to blame");
            assertTrue(c.runUntil(() -> c.main.metricsHealthProperty().get() == Health.OK, Duration.ofMinutes(5)),
                    "and recovers");
        }
    }

    /** Issue 26 item 5: Data is green only when every input of the tick was sampled fresh. */
    @Test
    void aMissingInputTurnsTheDataIndicatorAndSaysWhichSinceWhen() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            // seed 7: payments-steady's queue metrics go missing for a moment within minutes
            assertTrue(c.runUntil(() -> c.main.metricsDetailProperty().get().contains("missing data"),
                    Duration.ofMinutes(15)), "some class misses data at some tick");
            c.main.updateClock(c.lastTick().at());
            assertNotEquals(Health.OK, c.main.freshnessHealthProperty().get(), "an input is missing: not green");
            assertTrue(c.main.freshnessProperty().get().matches("0 s ago · \\d+ missing.*"), c.main.freshnessProperty().get());
            String tip = c.main.freshnessDetailProperty().get();
            assertTrue(tip.matches("(?s)\\d+ of \\d+ inputs not sampled within two polling intervals:\n"
                    + ".*[\\w-]+ · \\w+: missing since \\d\\d:\\d\\d:\\d\\d — \\S.*"), tip);
            assertTrue(c.runUntil(() -> c.main.freshnessDetailProperty().get().startsWith("every input"),
                    Duration.ofMinutes(5)), "and recovers");
            c.main.updateClock(c.lastTick().at());
            assertEquals(Health.OK, c.main.freshnessHealthProperty().get());
        }
    }

    /**
     * Issue 26 item 5: with the cluster unreadable the replicas are an input not read, said with since
     * when (the first tick it was not, kept while it stays so); the signals read meanwhile keep Metrics green.
     */
    @Test
    void anUnreadableClusterIsRedAndItsReplicasAreNotFreshData() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(3);
            TickResult first = unreadable(c.lastTick(), c.lastTick().at());
            java.time.Instant later = first.at().plusSeconds(5);
            c.main.apply(first, new ClusterHealth(false, true, first.at(), null,
                    "connection refused (10.0.0.1:6443)", first.at(), 7, List.of()), null);
            c.main.apply(unreadable(c.lastTick(), later), new ClusterHealth(false, true, first.at(), null,
                    "connection refused (10.0.0.1:6443)", first.at(), 7, List.of()), null);
            c.main.updateClock(later);
            assertEquals(Health.DOWN, c.main.clusterHealthProperty().get());
            assertEquals("API unreachable: connection refused (10.0.0.1:6443) · since " + clock(first.at()),
                    c.main.clusterDetailProperty().get());
            assertEquals(Health.OK, c.main.metricsHealthProperty().get(), "Prometheus's figures were read");
            assertNotEquals(Health.OK, c.main.freshnessHealthProperty().get());
            assertTrue(c.main.freshnessProperty().get().endsWith(" · 5 missing"), c.main.freshnessProperty().get());
            String tip = c.main.freshnessDetailProperty().get();
            assertTrue(tip.contains("payments-steady · replicas: missing since " + clock(first.at())
                    + " — cluster read failed: connection refused"), tip);
            assertFalse(tip.contains("Exception"), tip);
        }
    }

    /** A cluster view whose watches are down still answers: its replicas are last known, stale since then. */
    @Test
    void replicasFromAViewThatStoppedUpdatingAreStaleSinceItDid() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(3);
            TickResult t = c.lastTick();
            java.time.Instant lastLive = t.at().minusSeconds(40);
            List<ClassSnapshot> old = t.classes().stream().map(s -> new ClassSnapshot(s.cls(), s.at(), s.observation(),
                    new WorkloadState(s.workload().ref(), s.workload().specReplicas(), s.workload().readyReplicas(),
                            s.workload().resourceVersion(), s.workload().pods(), lastLive),
                    s.decision(), s.actuation(), null, s.signals())).toList();
            c.main.apply(new TickResult(t.at(), old, t.context(), t.metricsSource()));
            c.main.updateClock(t.at());
            assertEquals(Health.DEGRADED, c.main.freshnessHealthProperty().get());
            assertTrue(c.main.freshnessProperty().get().endsWith(" · 5 stale"), c.main.freshnessProperty().get());
            assertTrue(c.main.freshnessDetailProperty().get().contains("payments-steady · replicas: stale since "
                    + clock(lastLive) + " — the cluster's view stopped updating"), c.main.freshnessDetailProperty().get());
        }
    }

    /** The metrics source's own sentence in words, and since when it fails. */
    @Test
    void failingPrometheusIsRedInWordsWithSinceWhen() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(3);
            TickResult t = c.lastTick();
            MetricsHealth failing = new MetricsHealth(MetricsHealth.State.FAILING, "http://127.0.0.1:9/ · 3 requests,"
                    + " 3 failed · last failure: UNREACHABLE (ConnectException: Failed to connect to /127.0.0.1:9)", false);
            c.main.apply(t, ClusterHealth.live(t.at()), failing);
            assertEquals(Health.DOWN, c.main.metricsHealthProperty().get());
            String said = c.main.metricsDetailProperty().get();
            assertTrue(said.endsWith("last failure: Prometheus cannot be reached (nothing answers at 127.0.0.1:9)\n"
                    + "failing since " + clock(t.at())), said);
            assertFalse(said.matches("(?s).*[A-Z][a-z]+Exception.*"), said);
        }
    }

    static String clock(java.time.Instant at) {
        return java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss").withZone(java.time.ZoneId.systemDefault())
                .format(at);
    }

    /** The tick as an unreadable cluster gives it: every class undecided, the metrics' figures kept. */
    static TickResult unreadable(TickResult t, java.time.Instant at) {
        return new TickResult(at, t.classes().stream().map(s -> new ClassSnapshot(s.cls(), at, null, null, null, null,
                "cluster read failed: java.net.ConnectException: connection refused", s.signals())).toList(),
                t.context(), t.metricsSource());
    }

    @Test
    void theSpeedGoesToTheSessionOnlyWhenItChanges() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            assertEquals(1, c.main.speedProperty().get());
            c.main.setSpeed(10);
            assertEquals(10, c.session().speed());
            assertEquals(10, c.main.speedProperty().get());
            c.main.setSpeed(10);
            assertEquals(10, c.session().speed());
        }
    }

    @Test
    void aStandingWarningStaysAcrossTicks() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.main.setStandingWarning("Journal unavailable (read-only disk); actions are kept in memory only.");
            c.tick(5);
            assertEquals("Journal unavailable (read-only disk); actions are kept in memory only.",
                    c.main.warningProperty().get());
        }
    }

    @Test
    void classesThatMayNotBeScaledHereAreCountedWithTheirReasons() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            c.tick(1);
            assertEquals("", c.main.blockedProperty().get());
            Map<String, ActionCheck> access = new LinkedHashMap<>();
            access.put("payments-steady", ActionCheck.allowed("scale payments-steady"));
            access.put("enrichment", ActionCheck.denied("scale enrichment", "an HPA manages it"));
            c.main.applyAccess(access);
            assertEquals("1 class observe-only here", c.main.blockedProperty().get());
            assertEquals("enrichment: an HPA manages it", c.main.blockedDetailProperty().get());
            c.tick(1);
            assertEquals("", c.main.blockedProperty().get(), "the next tick's checks replace them (all allowed)");
        }
    }

    @Test
    void theThemeToggles() {
        try (SandboxConsole c = SandboxConsole.open(7)) {
            assertTrue(c.main.darkThemeProperty().get(), "dark by default");
            c.main.toggleTheme();
            assertFalse(c.main.darkThemeProperty().get());
        }
    }
}
