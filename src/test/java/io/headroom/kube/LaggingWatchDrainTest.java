package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.drain.Drain;
import io.headroom.drain.DrainPhase;
import io.headroom.journal.MemoryJournal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 27 item 2: a drain judges "someone else changed the replicas" by the workload's version after its own
 * write, not by how long ago it wrote. The mock API server holds back the Deployment's watch events
 * ({@link MockCluster#holdWatchEvents}), so the gateway's cache still shows the count from before the drain's
 * scale, for longer than any time window would wait; and another hand sets the replicas back right after the
 * write, which the drain must take for someone else's at once. Real drains through {@link KubeClusterGateway};
 * the supervisor's clock is the test's.
 */
class LaggingWatchDrainTest extends MockDrainFixture {
    static final Duration WAIT = Duration.ofSeconds(15);
    final InFlightMetrics metrics = new InFlightMetrics();

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        use(DrainConsole.threeWorkers(cluster, dir, new MemoryJournal(), clock, metrics));
        metrics.inFlight.putAll(Map.of("worker-a", 2.0, "worker-b", 0.0, "worker-c", 3.0));
    }

    Drain drain() {
        return supervisor.state().of("payments").drain();
    }

    void tick(int seconds) {
        clock.advance(Duration.ofSeconds(seconds));
        loop.tick();
    }

    int cached() {
        return gateway.workload(ref).orElseThrow().specReplicas();
    }

    /** worker-b (idle) marked, the mark in the cache, and one look that saw it idle: the next look lowers replicas. */
    void drainUntilTheNextLookScales() throws Exception {
        assertTrue(supervisor.startDrain("payments", 2, Duration.ofMinutes(10), "fewer workers").get().ok());
        assertEquals(List.of("worker-b"), drain().podNames());
        String id = drain().id();
        MockCluster.await("the mark in the watch cache", WAIT, () -> gateway.workload(ref).orElseThrow().pods()
                .stream().anyMatch(p -> p.name().equals("worker-b") && id.equals(p.drainId())));
        tick(1);
        assertEquals(DrainPhase.WAITING, drain().phase(), drain().detail());
    }

    @Test
    void aScaleTheWatchHasNotDeliveredIsTheDrainsOwnForAsLongAsItLags() throws Exception {
        drainUntilTheNextLookScales();
        cluster.holdWatchEvents("/deployments");
        tick(1);
        assertEquals(DrainPhase.SCALING, drain().phase(), drain().detail());
        assertEquals(2, cluster.replicas("payments", "worker"), "the server has the drain's write");
        // The mock sends its watch event after the write has answered: held back once sent, not before.
        MockCluster.await("the drain's watch event, held back", WAIT, () -> cluster.heldWatchEvents() > 0);
        assertEquals(3, cached(), "the console's watch has not delivered it");

        tick(45); // longer than any window a drain might give a lagging read
        assertEquals(3, cached(), "still lagging");
        assertEquals(DrainPhase.SCALING, drain().phase(), "the view is from before the drain's own write: "
                + drain().detail());
        assertTrue(drain().detail().contains("from before"), drain().detail());
        assertEquals(drain().id(), cluster.annotations("payments", "worker-b").get("headroom.io/drain"),
                "the mark stays while the ReplicaSet controller picks the pod");

        assertTrue(cluster.releaseWatchEvents() > 0, "the held events");
        MockCluster.await("the write in the watch cache", WAIT, () -> cached() == 2);
        cluster.admin.pods().inNamespace("payments").withName("worker-b").delete(); // the ReplicaSet's part
        MockCluster.await("the drain's end", WAIT, () -> {
            tick(1);
            return !drain().active();
        });
        assertEquals(DrainPhase.COMPLETED, drain().phase(), drain().detail());
        assertEquals("removed worker-b; replicas 3 → 2", drain().detail());
    }

    @Test
    void replicasSetBackAfterTheDrainsWriteAreSomeoneElsesAtOnce() throws Exception {
        drainUntilTheNextLookScales();
        tick(1);
        assertEquals(DrainPhase.SCALING, drain().phase(), drain().detail());
        MockCluster.await("the write in the watch cache", WAIT, () -> cached() == 2);

        // Another hand puts the old count back right after the drain's write: a newer version, the same number.
        cluster.admin.apps().deployments().inNamespace("payments").withName("worker").scale(3);
        MockCluster.await("the other write in the watch cache", WAIT, () -> cached() == 3);
        tick(1);
        assertEquals(DrainPhase.INTERRUPTED, drain().phase(), drain().detail());
        assertTrue(drain().detail().startsWith("replicas changed to 3 by someone else after the drain lowered them"
                + " to 2"), drain().detail());
        assertNull(cluster.annotations("payments", "worker-b").get("headroom.io/drain"), "marks removed");
    }
}
