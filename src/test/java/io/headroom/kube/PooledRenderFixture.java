package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.JournalRecord;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.loop.ClassSnapshot;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the mock-API-server tests of a class placed across pools share: render, on render-spot then
 * render-on-demand in namespace {@code render}, at a manual clock from {@link #T0}, journaled in memory. Each test
 * builds its own cluster, gateway, supervisor and loop in its set-up.
 */
abstract class PooledRenderFixture {
    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final String NS = "render";
    static final String ANA = "ana@desk-1/aaaa0001";

    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    final ManualClock clock = new ManualClock(T0);
    final WorkloadRef spot = new WorkloadRef("dev", NS, "Deployment", "render-spot");
    final WorkloadRef onDemand = new WorkloadRef("dev", NS, "Deployment", "render-on-demand");
    final MemoryJournal journal = new MemoryJournal();
    KubeClusterGateway gateway;
    Supervisor supervisor;
    ControlLoop loop;

    /**
     * The loop's tick at {@code secondsAfterT0}, its class placed; then waits until the informer cache holds each
     * pool's replicas as the server has them, so the next tick reads what this one wrote.
     */
    ClassSnapshot tick(int secondsAfterT0) {
        clock.set(T0.plusSeconds(secondsAfterT0));
        ClassSnapshot s = loop.tick().classes().get(0);
        assertNotNull(s.placement(), s.problem());
        for (WorkloadRef ref : List.of(spot, onDemand)) {
            int want = cluster.replicas(NS, ref.name());
            MockCluster.await(ref.name() + " at " + want + " in the cache", Duration.ofSeconds(10),
                    () -> gateway.ports().workloads().workload(ref).orElseThrow().specReplicas() == want);
        }
        return s;
    }

    /** Waits until the cache holds {@code n} pods of the pool. */
    void awaitPods(WorkloadRef ref, int n) {
        MockCluster.await(n + " pods of " + ref.name() + " in the cache", Duration.ofSeconds(10),
                () -> gateway.ports().workloads().workload(ref).map(w -> w.pods().size() == n).orElse(false));
    }

    /** The journal's records of one kind, in order. */
    List<JournalRecord> records(Kind kind) {
        return journal.replay().records().stream().filter(r -> r.kind() == kind).toList();
    }
}
