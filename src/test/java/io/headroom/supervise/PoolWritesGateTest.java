package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.Actuation;
import io.headroom.loop.ClassPools;
import io.headroom.loop.ClassSnapshot;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.metrics.MetricsSource;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The freeze gate knows a class's pools: a freeze set while one pool's write is under way stops the next pool's
 * write, though that pool's Deployment is not the class's target (decision 0029, ADR 0022's gate).
 */
class PoolWritesGateTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(T0);
    final WorkloadRef spot = new WorkloadRef("dev", "render", "Deployment", "render-spot");
    final WorkloadRef onDemand = new WorkloadRef("dev", "render", "Deployment", "render-on-demand");
    final MemoryJournal journal = new MemoryJournal();
    final List<String> written = new ArrayList<>();
    Supervisor supervisor;

    final class Pools extends PooledFakeCluster {
        Pools() {
            super(clock);
        }

        @Override
        public ScaleResult scale(WorkloadRef ref, int replicas, String expectedResourceVersion) {
            written.add(ref.name() + "→" + replicas);
            put(ref, replicas);
            if (ref.equals(spot)) {
                // The operator freezes the class while spot's write is under way.
                assertTrue(supervisor.freeze("render", Duration.ofMinutes(10), "spot incident").join().ok());
            }
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "scaled to " + replicas);
        }
    }

    @Test
    void aFreezeDuringOnePoolsWriteStopsTheNextPoolsWrite() {
        Pools cluster = new Pools();
        cluster.put(spot, 3);
        cluster.put(onDemand, 2);
        Policy policy = Policy.builder().minReplicas(4).maxReplicas(4).build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", 4, null, 1, null), spot),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", 4, null, 3, null), onDemand)),
                Placement.Timing.DEFAULT);
        WorkloadClass render = new WorkloadClass("render", spot, policy, null, pools);
        supervisor = new Supervisor(List.of(render), cluster.ports(), journal, clock, Runnable::run, Runnable::run,
                "ana", Duration.ofMinutes(10));
        assertTrue(supervisor.setMode("render", Mode.AUTO).join().ok());
        MetricsSource none = new MetricsSource() {
            @Override
            public String name() {
                return "none";
            }

            @Override
            public Map<String, Map<io.headroom.decision.SignalName, io.headroom.decision.Signal>> read(
                    Collection<String> classNames, Instant now) {
                return Map.of();
            }
        };
        ControlLoop loop = new ControlLoop(List.of(render), cluster.ports(), none, supervisor, clock);

        ClassSnapshot s = loop.tick().classes().get(0);

        assertEquals(List.of("render-spot→4"), written, "spot grows first; on-demand's shrink never starts");
        assertEquals(2, cluster.workloads.get(onDemand).specReplicas());
        assertEquals(Actuation.Kind.FAILED, s.actuation().kind(), s.actuation().message());
        assertTrue(s.actuation().message().contains("on-demand 2 → 0 not applied: frozen"), s.actuation().message());
        List<JournalRecord> failed = journal.replay().records().stream()
                .filter(r -> r.kind() == JournalRecord.Kind.FAILED).toList();
        assertEquals(1, failed.size());
        assertTrue(failed.get(0).reason().contains("pool on-demand"), failed.get(0).reason());
    }
}
