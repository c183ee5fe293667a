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
 * The fixture of the drain tests against fabric8's mock API server: a fresh API server and directory per test,
 * and the console that drains {@link DrainConsole#WORKER} (its gateway, supervisor and control loop) once a
 * test's {@code @BeforeEach} has built it with {@link #use}. The clock starts at 10:00 on 2026-12-01 and moves
 * only when a test moves it; the journal is in memory.
 */
abstract class MockDrainFixture {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
    final MemoryJournal journal = new MemoryJournal();
    final WorkloadRef ref = DrainConsole.WORKER;
    MockCluster cluster;
    KubeClusterGateway gateway;
    Supervisor supervisor;
    ControlLoop loop;

    /** The console the test drains with. */
    void use(DrainConsole console) {
        gateway = console.gateway();
        supervisor = console.supervisor();
        loop = console.loop();
    }
}
