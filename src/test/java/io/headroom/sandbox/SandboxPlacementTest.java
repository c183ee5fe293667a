package io.headroom.sandbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ClusterPorts;
import io.headroom.decision.Placement;
import io.headroom.decision.PlacementReason.Code;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.DirectActuator;
import io.headroom.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's render class (decision 0029, {@code Session.sandboxWithPlacement}): spot's nodes are reclaimed
 * from 150 s to 390 s; the share moves to on-demand once its pods have pended Unschedulable for the 30-s deadline,
 * and comes back once spot places pods again and stays clear for the 60-s hysteresis.
 */
class SandboxPlacementTest {
    static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void spotCapacityVanishesAndComesBackAndTheShareFollows() {
        SandboxCatalog.Entry render = SandboxCatalog.render();
        ManualClock clock = new ManualClock(START);
        SandboxWorld world = new SandboxWorld(List.of(render.spec()), 7, START);
        ClusterPorts cluster = new SandboxCluster(world, clock, SandboxCatalog.nodePools(List.of(render))).ports();
        ControlLoop loop = new ControlLoop(List.of(render.workloadClass()), cluster, new SandboxMetrics(world, clock),
                new DirectActuator(cluster), clock);
        TreeMap<Integer, Placement.Result> byTime = new TreeMap<>();
        TreeMap<Integer, Integer> onDemandReplicas = new TreeMap<>();
        io.headroom.cluster.WorkloadRef onDemand = render.workloadClass().pools().targets().get(1);
        for (int t = 5; t <= 600; t += 5) {
            clock.set(START.plusSeconds(t));
            ClassSnapshot s = loop.tick().classes().get(0);
            assertNotNull(s.placement(), "t=" + t + ": " + s.problem());
            byTime.put(t, s.placement());
            onDemandReplicas.put(t, cluster.workloads().workload(onDemand).orElseThrow().specReplicas());
        }
        for (int t = 5; t < 150; t += 5) {
            assertEquals(0, byTime.get(t).share("on-demand").replicas(), "t=" + t + " spot has room: "
                    + byTime.get(t).explanation());
        }
        // Spot's pods pend from 150 s; at 180 s they have for the 30-s deadline: the next tick moves their share.
        Placement.Result moved = byTime.get(185);
        assertFalse(moved.share("spot").available(), moved.explanation());
        assertTrue(moved.share("on-demand").replicas() > 0, moved.explanation());
        assertTrue(moved.share("spot").has(Code.PROBE), moved.explanation());
        assertEquals(moved.share("on-demand").specReplicas(), onDemandReplicas.get(185), "written to its Deployment");
        assertTrue(byTime.get(380).share("on-demand").replicas() > 0, "while spot has no nodes, on-demand runs its share");
        // Spot places pods again at 390 s; after 60 s clear it is available and takes its whole share back.
        Placement.Result back = byTime.get(470);
        assertTrue(back.share("spot").available(), back.explanation());
        assertEquals(0, back.share("on-demand").replicas(), back.explanation());
    }
}
