package io.headroom.kube;

import io.headroom.decision.SignalName;
import io.headroom.decision.Signal;
import io.headroom.metrics.MetricsSource;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Metrics that say nothing per tick (decisions hold) but know the jobs in flight per pod, as a
 * {@code podInFlight} query would answer: the drain tests set {@link #inFlight} by hand.
 */
final class InFlightMetrics implements MetricsSource {
    /** Jobs in flight by pod name; the test writes it, every read sees a copy of it as it is then. */
    final Map<String, Double> inFlight;

    InFlightMetrics() {
        this(new ConcurrentHashMap<>());
    }

    /** Reads {@code inFlight} (the caller's map, live). */
    InFlightMetrics(Map<String, Double> inFlight) {
        this.inFlight = inFlight;
    }

    @Override
    public String name() {
        return "test";
    }

    @Override
    public Map<String, Map<SignalName, Signal>> read(Collection<String> classNames, Instant now) {
        return Map.of();
    }

    @Override
    public Map<String, Double> inFlightByPod(String className) {
        return Map.copyOf(inFlight);
    }
}
