package io.headroom.sim;

import io.headroom.decision.Placement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A scenario's {@code placement:} (decision 0029): per class placed across pools, its pools in preference
 * order, and the unschedulable deadline and recovery hysteresis of the placement.
 */
public record ScenarioPlacement(Placement.Timing timing, Map<String, List<SimPool>> pools) {
    public ScenarioPlacement {
        Objects.requireNonNull(timing, "timing");
        Map<String, List<SimPool>> copy = new LinkedHashMap<>();
        pools.forEach((cls, p) -> copy.put(cls, List.copyOf(p)));
        pools = Collections.unmodifiableMap(copy);
    }
}
