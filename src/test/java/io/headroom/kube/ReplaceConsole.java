package io.headroom.kube;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.Journal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.TickResult;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Supervisor;
import io.headroom.time.ManualClock;
import java.time.Duration;
import java.util.List;

/**
 * A console that replaces hung workers of class {@code payments} (Deployment {@code payments/worker}, 2 to 10
 * replicas of 4 slots): its supervisor (commands on the caller's thread, 5-minute proposals) and control loop on
 * a gateway to the mock API server, its clock the caller's. Both sides of the replacement crash test use it:
 * the console in the probe's JVM and the one started after it.
 */
record ReplaceConsole(Supervisor supervisor, ControlLoop loop, ManualClock clock) {
    static final WorkloadRef REF = DrainConsole.WORKER;

    /**
     * {@link #REF} at 2 replicas with two ready pods, worker-a (node-1) and worker-b (node-2), on {@code cluster},
     * every access review allowed; evictions of worker-a answered ({@code guarded}: behind the budget worker-pdb).
     */
    static Evictions twoWorkers(MockCluster cluster, boolean guarded) {
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 2);
        cluster.pod("payments", "worker", "worker-a", true, "node-1");
        cluster.pod("payments", "worker", "worker-b", true, "node-2");
        return new Evictions(cluster, "worker-pdb").answer("payments", "worker-a", guarded);
    }

    static ReplaceConsole on(KubeClusterGateway gateway, Journal journal, ManualClock clock, HungWorkerMetrics metrics,
                             String user) {
        WorkloadClass cls = new WorkloadClass("payments", REF, Policy.builder().pollIntervalSeconds(1)
                .slotsPerReplica(4).minReplicas(2).maxReplicas(10).build());
        Supervisor supervisor = new Supervisor(List.of(cls), gateway.ports(), journal, clock, Runnable::run, user,
                Duration.ofMinutes(5));
        supervisor.setPodLoad(metrics::inFlightByPod);
        return new ReplaceConsole(supervisor, new ControlLoop(List.of(cls), gateway.ports(), metrics, supervisor, clock), clock);
    }

    TickResult tick(Duration step) {
        clock.advance(step);
        return loop.tick();
    }

    /** Ticks every 10 s until the decision finds worker-a STUCK (at most 30 ticks); false if it never does. */
    boolean tickUntilWorkerAIsStuck() {
        for (int i = 0; i < 30; i++) {
            if (tick(Duration.ofSeconds(10)).classes().get(0).decision().stuckPods().contains("worker-a")) {
                return true;
            }
        }
        return false;
    }
}
