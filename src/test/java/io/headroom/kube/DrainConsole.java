package io.headroom.kube;

import io.headroom.journal.Journal;
import io.headroom.loop.ControlLoop;
import io.headroom.loop.WorkloadClass;
import io.headroom.supervise.Supervisor;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * A console that drains: one class's supervisor (user "ana", 5-minute proposals, commands run on the
 * caller's thread) and the control loop that carries its drains out, on a gateway to the mock API server.
 * Pod load comes from {@code metrics}; no notice grace, since the tests' numbers are never older than
 * the marks.
 */
record DrainConsole(Supervisor supervisor, ControlLoop loop) {
    static DrainConsole on(KubeClusterGateway gateway, WorkloadClass cls, Journal journal, Clock clock,
                           InFlightMetrics metrics) {
        Supervisor supervisor = new Supervisor(List.of(cls), gateway, journal, clock, Runnable::run, "ana",
                Duration.ofMinutes(5));
        supervisor.setPodLoad(metrics::inFlightByPod);
        supervisor.setDrainNoticeGrace(Duration.ZERO);
        return new DrainConsole(supervisor, new ControlLoop(List.of(cls), gateway, metrics, supervisor, clock));
    }
}
