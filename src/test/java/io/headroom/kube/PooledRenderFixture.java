package io.headroom.kube;

import io.headroom.cluster.WorkloadRef;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.nio.file.Path;
import java.time.Instant;
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
}
