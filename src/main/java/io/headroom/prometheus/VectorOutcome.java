package io.headroom.prometheus;

import io.headroom.decision.Annotations;
import java.util.Map;

/** The answer to an instant query with several series told apart by one label: the values, or typed no data. */
public sealed interface VectorOutcome permits VectorOutcome.Samples, QueryOutcome.NoData {

    /** Each series' value, by the value of the key label; with the answer's warnings and infos. */
    record Samples(Map<String, Double> byKey, Annotations annotations) implements VectorOutcome {
        public Samples {
            byKey = Map.copyOf(byKey);
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public Samples(Map<String, Double> byKey) {
            this(byKey, Annotations.NONE);
        }
    }
}
