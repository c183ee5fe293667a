package io.headroom.kube;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signal;
import io.headroom.decision.Signals;
import io.headroom.metrics.MetricsSource;
import io.headroom.metrics.PodProgress;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Class {@code payments} with a hung worker: worker-a is ready, holds four jobs and finishes none, worker-b's
 * completion counter moves, so the decision flags worker-a STUCK after a few looks. Once {@link #quiet} is set
 * the queue is empty and nothing is in flight: the decision wants the fewest replicas the policy allows.
 */
final class HungWorkerMetrics implements MetricsSource {
    /** worker-b's completion counter: it moves; worker-a's does not (it is hung). */
    private final AtomicInteger completedB = new AtomicInteger();
    volatile boolean quiet;

    @Override
    public String name() {
        return "test";
    }

    @Override
    public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
        if (quiet) {
            return Map.of("payments", Map.of(Signals.QUEUE_LENGTH, Signal.of(0, now), Signals.OLDEST_AGE,
                    Signal.of(0, now), Signals.ARRIVAL_RATE, Signal.of(0, now), Signals.MEAN_SERVICE, Signal.of(2, now),
                    Signals.IN_FLIGHT, Signal.of(0, now), Signals.COMPLETION_RATE, Signal.of(0, now)));
        }
        return Map.of("payments", Map.of(Signals.QUEUE_LENGTH, Signal.of(6, now), Signals.OLDEST_AGE,
                Signal.of(5, now), Signals.ARRIVAL_RATE, Signal.of(1, now), Signals.MEAN_SERVICE, Signal.of(2, now),
                Signals.IN_FLIGHT, Signal.of(5, now), Signals.COMPLETION_RATE, Signal.of(1, now)));
    }

    @Override
    public Map<String, Double> inFlightByPod(String className) {
        return quiet ? Map.of("worker-a", 0.0, "worker-b", 0.0, "worker-c", 0.0)
                : Map.of("worker-a", 4.0, "worker-b", 1.0, "worker-c", 0.0);
    }

    @Override
    public Map<String, PodProgress> podProgress(String className) {
        return quiet ? Map.of() : Map.of("worker-a", new PodProgress(4, 10), "worker-b",
                new PodProgress(1, completedB.addAndGet(5)));
    }
}
