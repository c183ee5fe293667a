package io.headroom.supervise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Policy;
import io.headroom.journal.JournalRecord.Kind;
import io.headroom.journal.MemoryJournal;
import io.headroom.loop.Actuation;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.sandbox.SandboxClassSpec;
import io.headroom.sandbox.SandboxCluster;
import io.headroom.sandbox.SandboxMetrics;
import io.headroom.sandbox.SandboxWorld;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * While a class is handed back, between the cluster's write and the lifting of its holds, no tick may write
 * for it (a pin or auto mode would pause KEDA again right after the hand-back removed the pause): the class
 * is held like a freeze, in memory only, and let go afterwards.
 */
class HandingBackGateTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    void aClassBeingHandedBackIsNotWrittenAndIsWrittenAgainOnceLetGo() throws Exception {
        ManualClock clock = new ManualClock(T0);
        MemoryJournal journal = new MemoryJournal();
        List<SandboxClassSpec> specs = List.of(SandboxClassSpec.builder("orders").baseRate(1).initialReplicas(2).build());
        SandboxWorld world = new SandboxWorld(specs, 5, T0);
        SandboxCluster cluster = new SandboxCluster(world, clock);
        Policy policy = Policy.builder().slotsPerReplica(2).minReplicas(1).maxReplicas(30).build();
        List<WorkloadClass> classes = specs.stream().map(s -> new WorkloadClass(s.name(), s.target(), policy)).toList();
        Supervisor supervisor = new Supervisor(classes, cluster.ports(), journal, clock, Runnable::run, Runnable::run, "alice",
                Duration.ofMinutes(5));
        ControlLoop loop = new ControlLoop(classes, cluster.ports(), new SandboxMetrics(world, clock), supervisor, clock);
        assertTrue(supervisor.setOverride("orders", 6, T0.plusSeconds(3600), "load test").get(10, TimeUnit.SECONDS).ok());

        supervisor.handingBack("orders");
        clock.advance(Duration.ofSeconds(15));
        TickResult held = loop.tick();

        Actuation a = held.classes().get(0).actuation();
        assertEquals(Actuation.Kind.WITHHELD, a.kind(), a.message());
        assertTrue(a.message().contains("being handed back"), a.message());
        assertEquals(2, world.workload("orders").orElseThrow().specReplicas(), "not written");
        assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == Kind.SCALING), "no scale intended");
        assertNull(supervisor.state().of("orders").freeze(), "never shown or journaled as the operator's freeze");
        assertTrue(journal.replay().records().stream().noneMatch(r -> r.kind() == Kind.FROZEN));

        supervisor.handedBack("orders");
        clock.advance(Duration.ofSeconds(15));
        loop.tick();
        assertEquals(6, world.workload("orders").orElseThrow().specReplicas(), "the pin writes again once let go");
    }
}
