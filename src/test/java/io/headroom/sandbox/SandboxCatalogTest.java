package io.headroom.sandbox;

import io.headroom.decision.SignalName;
import io.headroom.time.ManualClock;
import static io.headroom.sandbox.SandboxWorldTest.T0;
import static io.headroom.sandbox.SandboxWorldTest.at;
import static io.headroom.sandbox.SandboxWorldTest.measure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Signal;
import io.headroom.sandbox.SandboxCatalog.Entry;
import io.headroom.sandbox.SandboxWorld.Measurements;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SandboxCatalogTest {

    @Test
    void fiveNamedClassesThatRunForeverAndPollEveryFiveSeconds() {
        List<Entry> entries = SandboxCatalog.defaultClasses();
        assertEquals(List.of("payments-steady", "search-interactive", "ledger-replay", "enrichment", "nightly-batch"),
                entries.stream().map(Entry::name).toList());
        for (Entry e : entries) {
            assertEquals(600.0, e.spec().repeatSeconds(), e.name());
            assertEquals(5.0, e.policy().pollIntervalSeconds(), e.name());
            assertEquals(e.spec().concurrency(), e.policy().slotsPerReplica(), e.name());
            assertEquals("sandbox", e.spec().target().namespace());
        }
        Entry enrichment = entries.get(3);
        assertNotNull(enrichment.policy().dependencyGuard());
        assertEquals("db-connections", enrichment.policy().ceilings().get(0).name());
        assertEquals(0, entries.get(4).policy().minReplicas());
    }

    @Test
    void everyBehaviourShowsWithinTenMinutes() {
        SandboxWorld w = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, T0);
        // Interactive bursts outrun two replicas: the age objective (10 s) is breached.
        double worstSearchAge = 0;
        double worstEnrichmentLatency = 0;
        int batchPeakQueue = 0;
        for (int t = 5; t <= 600; t += 5) {
            if (t == 150) {
                w.setReplicas("enrichment", 6);   // up to the DB-connection ceiling
            }
            if (t == 35) {
                w.setReplicas("nightly-batch", 6);
            }
            if (t == 250) {
                w.setReplicas("nightly-batch", 0);
            }
            w.advanceTo(at(t));
            worstSearchAge = Math.max(worstSearchAge, w.measure("search-interactive").orElseThrow().oldestAgeSeconds());
            worstEnrichmentLatency = Math.max(worstEnrichmentLatency,
                    w.measure("enrichment").orElseThrow().dependencyLatencyMs());
            Measurements batch = w.measure("nightly-batch").orElseThrow();
            batchPeakQueue = Math.max(batchPeakQueue, batch.queueLength());
            if (t > 120 && t < 330) {
                assertEquals(0.0, batch.arrivalRate() * (t > 150 ? 1 : 0), "batch is idle between bursts, t=" + t);
            }
            if (t >= 250 && t < 420) {
                Measurements ledger = w.measure("ledger-replay").orElseThrow();
                assertEquals(0.0, ledger.completionRate(), "ledger stalled at " + t);
                assertEquals(t - 180, ledger.oldestAgeSeconds(), 1e-6);
            }
        }
        assertTrue(worstSearchAge > 10, "search age " + worstSearchAge);
        assertTrue(worstEnrichmentLatency > 120, "enrichment latency " + worstEnrichmentLatency);
        assertTrue(batchPeakQueue > 100, "batch queue " + batchPeakQueue);
        assertTrue(w.measure("ledger-replay").orElseThrow().completionRate() > 1, "ledger recovered");

        SandboxMetrics metrics = new SandboxMetrics(w, new ManualClock(at(1020)));
        Map<SignalName, Signal> payments = metrics.read(List.of("payments-steady"), at(1020)).get("payments-steady");
        assertFalse(payments.values().stream().anyMatch(Signal::present), "the outage repeats every period");
    }

    @Test
    void aLongRunKeepsServingAtTheConfiguredCapacity() {
        // One busy class for a simulated day (about 1.5 million jobs); speed is measured by SimulatorBenchmark.
        Entry search = SandboxCatalog.defaultClasses().get(1);
        SandboxWorld w = new SandboxWorld(List.of(search.spec()), 1, T0);
        w.setReplicas("search-interactive", 8);
        Measurements m = measure(w, "search-interactive", 86_400);
        assertTrue(m.jobsCompleted() > 1_000_000, "completed " + m.jobsCompleted());
        assertTrue(m.jobsCompleted() <= m.jobsArrived(), "never completes more than arrived");
    }
}
