package io.headroom.metrics;

import io.headroom.decision.Signal;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;

/**
 * The console's one port to telemetry. The sandbox implements it for real use; the Prometheus
 * adapter implements it with PromQL. Missing data is a {@link Signal#missing} with the reason,
 * never a 0 and never an exception.
 */
public interface MetricsSource extends AutoCloseable {

    /** A short name for the top bar, e.g. "sandbox" or the Prometheus URL. */
    String name();

    /**
     * Reads every signal of each named class for one control tick.
     *
     * @return class name → signal name (see {@link io.headroom.decision.Signals}) → signal
     */
    Map<String, Map<String, Signal>> read(Collection<String> classNames, Instant now);

    /** Connection state for the top bar; cheap, callable from the loop's thread. */
    default MetricsHealth health() {
        return MetricsHealth.ok(name());
    }

    @Override
    default void close() {
    }
}
