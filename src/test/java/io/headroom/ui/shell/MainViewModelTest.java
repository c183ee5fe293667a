package io.headroom.ui.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ActionCheck;
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
            c.tick(1); // the clock is now one interval after the tick
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
