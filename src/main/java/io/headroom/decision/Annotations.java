package io.headroom.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * What a source said about an answer besides its numbers (Prometheus calls them annotations).
 * Warnings say the answer may be incomplete: a store, shard or replica did not answer and the rest
 * came back anyway (Thanos, Mimir and VictoriaMetrics send partial responses so). Infos are notes on
 * the query that do not question the data. Both arrive made safe and bounded by the source.
 */
public record Annotations(List<String> warnings, List<String> infos) {

    /** An answer with nothing said about it. */
    public static final Annotations NONE = new Annotations(List.of(), List.of());

    public Annotations {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        infos = infos == null ? List.of() : List.copyOf(infos);
    }

    /** True when the source warned: the answer may be missing data, so it is partial. */
    public boolean partial() {
        return !warnings.isEmpty();
    }

    public boolean isEmpty() {
        return warnings.isEmpty() && infos.isEmpty();
    }

    /** Both answers' warnings and infos, each once, in order. */
    public Annotations plus(Annotations other) {
        if (other == null || other.isEmpty() || other.equals(this)) {
            return this;
        }
        if (isEmpty()) {
            return other;
        }
        return new Annotations(union(warnings, other.warnings), union(infos, other.infos));
    }

    /** "partial answer: WARNING; WARNING", the words an input's reason gives; empty when not partial. */
    public String partialReason() {
        return partial() ? "partial answer: " + String.join("; ", warnings) : "";
    }

    private static List<String> union(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        for (String s : b) {
            if (!out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }
}
