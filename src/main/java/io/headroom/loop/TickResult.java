package io.headroom.loop;

import java.time.Instant;
import java.util.List;

/** Everything one control tick produced, in class order. */
public record TickResult(Instant at, List<ClassSnapshot> classes, String context, String metricsSource) {
    public TickResult {
        classes = List.copyOf(classes);
    }
}
