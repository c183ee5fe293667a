package io.headroom.kube;

import io.headroom.cluster.WorkloadRef;
import io.headroom.decision.Policy;
import io.headroom.journal.Journal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Supervisor;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * A console that drains: one class's supervisor (user "ana", 5-minute proposals, commands run on the
 * caller's thread) and the control loop that carries its drains out, on a gateway to the mock API server.
 * Pod load comes from {@code metrics}; no notice grace, since the tests' numbers are never older than
 * the marks.
 */
record DrainConsole(Supervisor supervisor, ControlLoop loop, KubeClusterGateway gateway) {
    /** The drain tests' workload: Deployment {@code payments/worker} in context {@code dev}. */
    static final WorkloadRef WORKER = new WorkloadRef("dev", "payments", "Deployment", "worker");

    static DrainConsole on(KubeClusterGateway gateway, WorkloadClass cls, Journal journal, Clock clock,
                           InFlightMetrics metrics) {
        Supervisor supervisor = new Supervisor(List.of(cls), gateway.ports(), journal, clock, Runnable::run, "ana",
                Duration.ofMinutes(5));
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setDrainNoticeGrace(Duration.ZERO);
        return new DrainConsole(supervisor, new ControlLoop(List.of(cls), gateway.ports(), metrics, supervisor, clock), gateway);
    }

    /**
     * {@link #WORKER} at 3 replicas with three ready pods (worker-a, -b, -c on node-1) on {@code cluster}, every
     * access review allowed, and a console draining its class {@code payments} (polled every second) through a
     * gateway opened there.
     */
    static DrainConsole threeWorkers(MockCluster cluster, Path dir, Journal journal, Clock clock,
                                     InFlightMetrics metrics) throws IOException {
        cluster.answerAccessReviews(true, null);
        cluster.deployment("payments", "worker", 3);
        for (String p : List.of("worker-a", "worker-b", "worker-c")) {
            cluster.pod("payments", "worker", p, true, "node-1");
        }
        KubeClusterGateway gateway = cluster.openGateway(dir, WORKER);
        return on(gateway, new WorkloadClass("payments", WORKER, Policy.builder().pollIntervalSeconds(1).build()),
                journal, clock, metrics);
    }
}
