package io.headroom.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.sandbox.SandboxCatalog;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's hung worker, seen by the console's loop: payments-steady's pod that hangs at 700 s is
 * flagged STUCK once it has finished nothing for max(3 × S, 120 s), and over half an hour of every
 * sandbox class (bursts, a poison stall, a saturated dependency, scale from zero) no other pod is.
 */
class StuckPodsInTheSandboxTest {
    static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");

    @Test
    void theHungWorkerIsFlaggedAndNoOtherPodEverIs() {
        SandboxWorld world = SandboxCatalog.defaultWorld(SandboxCatalog.DEFAULT_SEED, T0);
        ManualClock clock = new ManualClock(T0);
        List<WorkloadClass> classes = SandboxCatalog.defaultClasses().stream()
                .map(SandboxCatalog.Entry::workloadClass).toList();
        ControlLoop loop = new ControlLoop(classes, new SandboxCluster(world, clock).ports(), new SandboxMetrics(world, clock),
                new ObserveOnlyActuator(), clock);
        Double firstFlagged = null;
        Set<String> flagged = new HashSet<>();
        for (int t = 5; t <= 1800; t += 5) {
            clock.set(T0.plusSeconds(t));
            TickResult r = loop.tick();
            for (ClassSnapshot s : r.classes()) {
                if (s.decision() == null) {
                    continue;
                }
                List<String> truth = world.hungPods(s.name());
                for (String pod : s.decision().stuckPods()) {
                    assertTrue(truth.contains(pod), "t=" + t + ": " + pod + " of " + s.name()
                            + " flagged STUCK but it is not hung: " + s.decision().explanation());
                    flagged.add(pod);
                    if (firstFlagged == null) {
                        firstFlagged = (double) t;
                    }
                }
            }
        }
        List<String> hung = world.hungPods("payments-steady");
        assertEquals(1, hung.size(), "the catalog hangs one payments worker");
        assertEquals(Set.copyOf(hung), flagged);
        assertNotNull(firstFlagged);
        // Hung at 700 s; its counter last moved then; 120 s (> 3 × S) later, within one 5 s tick.
        assertTrue(firstFlagged >= 820 && firstFlagged <= 830, "first flagged at " + firstFlagged);
    }
}
