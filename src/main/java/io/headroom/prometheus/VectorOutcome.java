package io.headroom.prometheus;

import java.util.Map;

/** The answer to an instant query with several series told apart by one label: the values, or typed no data. */
public sealed interface VectorOutcome permits VectorOutcome.Samples, QueryOutcome.NoData {

    /** Each series' value, by the value of the key label. */
    record Samples(Map<String, Double> byKey) implements VectorOutcome {
        public Samples {
            byKey = Map.copyOf(byKey);
        }
    }
}
