package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Placement;
import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ClassPools;
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
 * The dry run of a pooled proposal restored from the journal (which keeps its sums, not its split) asks the API
 * server about each pool's own change, split as approving it would: not the first pool at the pools' sum.
 * (fabric8's CRUD mock server applies a dry run, so this one asks a fake that records what it was asked.)
 */
class PooledDryRunTest {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    final ManualClock clock = new ManualClock(T0);
    final WorkloadRef spot = new WorkloadRef("dev", "render", "Deployment", "render-spot");
    final WorkloadRef onDemand = new WorkloadRef("dev", "render", "Deployment", "render-on-demand");
    final MemoryJournal journal = new MemoryJournal();
    final List<String> asked = new ArrayList<>();

    final class Pools extends PooledFakeCluster {
        Pools() {
            super(clock);
        }

        @Override
        public ScaleResult dryRunScale(WorkloadRef ref, int replicas) {
            asked.add(ref.name() + "→" + replicas);
            return ScaleResult.of(ScaleResult.Outcome.APPLIED, replicas, "would scale to " + replicas);
        }
    }

    @Test
    void aRestoredPooledProposalsDryRunAsksEachPoolForItsShare() {
        Pools cluster = new Pools();
        cluster.put(spot, 2);
        cluster.put(onDemand, 0);
        Policy policy = Policy.builder().minReplicas(10).maxReplicas(10).build();
        ClassPools pools = new ClassPools(List.of(
                new ClassPools.Pool(new Placement.PoolSpec("spot", 10, 8, 1, null), spot),
                new ClassPools.Pool(new Placement.PoolSpec("on-demand", 10, null, 3, null), onDemand)),
                Placement.Timing.DEFAULT);
        WorkloadClass render = new WorkloadClass("render", spot, policy, null, pools);
        Supervisor first = new Supervisor(List.of(render), cluster.ports(), journal, clock, Runnable::run,
                Runnable::run, "ana", Duration.ofMinutes(10));
        new ControlLoop(List.of(render), cluster.ports(), NONE, first, clock).tick();
        Proposal p = first.state().pending().get(0);
        assertEquals(10, p.to());

        Supervisor restarted = new Supervisor(List.of(render), cluster.ports(), journal, clock, Runnable::run,
                Runnable::run, "ana", Duration.ofMinutes(10));
        restarted.restore(journal.replay());
        assertTrue(restarted.state().pending().get(0).pools().isEmpty(), "the journal keeps the sums only");
        Outcome o = restarted.dryRun(p.id()).join();

        assertTrue(o.ok(), o.message());
        assertTrue(o.message().contains("every pool's change"), o.message());
        assertEquals(List.of("render-spot→8", "render-on-demand→2"), asked);
    }

    static final MetricsSource NONE = new MetricsSource() {
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
}
