package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.decision.Policy;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A tick's supervision is published once, with every class in it (issue 26's fleet): published per class,
 * each publication walked every class, so a 5,000-class tick did 25 million steps and handed the console
 * 5,000 snapshots.
 */
class OnePublishPerTickTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aTickOfManyClassesPublishesOneSnapshotWithEveryProposal() {
        ManualClock clock = new ManualClock(T0);
        List<SandboxClassSpec> specs = new ArrayList<>();
        List<WorkloadClass> classes = new ArrayList<>();
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).build();
        for (int i = 0; i < 20; i++) {
            SandboxClassSpec spec = SandboxClassSpec.builder("q" + i).baseRate(20)
                    .service(SandboxClassSpec.ServiceTime.constant(1)).concurrency(2).initialReplicas(1).build();
            specs.add(spec);
            classes.add(new WorkloadClass(spec.name(), spec.target(), policy));
        }
        SandboxWorld world = new SandboxWorld(specs, 3, T0);
        SandboxCluster cluster = new SandboxCluster(world, clock);
        Supervisor supervisor = new Supervisor(classes, cluster.ports(), new MemoryJournal(), clock, Runnable::run, "alice",
                Duration.ofMinutes(5));
        ControlLoop loop = new ControlLoop(classes, cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
        AtomicInteger published = new AtomicInteger();
        supervisor.addListener(s -> published.incrementAndGet());

        for (int t = 0; t < 3; t++) {
            published.set(0);
            clock.set(T0.plusSeconds(15L * t));
            loop.tick();
            assertEquals(1, published.get(), "one snapshot for the tick's 20 classes at t=" + 15 * t);
        }
        assertEquals(20, supervisor.state().pending().size(), "each class's proposal is in it: 1 → more replicas");

        // Outside a tick (a command, a test calling the actuator itself) each call still publishes at once.
        published.set(0);
        supervisor.unobserved(classes.get(0), "cluster read failed");
        supervisor.handle(classes.get(0), loop.tick().classes().get(0).decision(), null);
        assertEquals(2, published.get(), "the tick's one, and the handle's own");
    }
}
