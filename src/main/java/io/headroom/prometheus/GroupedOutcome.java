package io.headroom.prometheus;

import io.headroom.decision.Annotations;
import java.util.Map;
import java.util.Objects;

/**
 * The answer to a grouped query (one request for many classes), split by the value of one label:
 * each class takes its own series' outcome with {@link Split#forValue}. A failed request is one
 * {@link QueryOutcome.NoData}, the same for every class that shares the query.
 */
public sealed interface GroupedOutcome permits GroupedOutcome.Split, QueryOutcome.NoData {

    /**
     * The series of a successful answer.
     *
     * @param label   the label the answer is split by
     * @param byValue label value → that series' outcome
     * @param series  series in the answer, those without the label included (for messages)
     * @param annotations the answer's warnings and infos (each value carries them too)
     */
    record Split(String label, Map<String, QueryOutcome> byValue, int series, Annotations annotations)
            implements GroupedOutcome {
        public Split {
            Objects.requireNonNull(label, "label");
            byValue = Map.copyOf(byValue);
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public Split(String label, Map<String, QueryOutcome> byValue, int series) {
            this(label, byValue, series, Annotations.NONE);
        }

        /** The outcome for one label value: no series with it is {@code EMPTY_RESULT}, never 0. */
        public QueryOutcome forValue(String value) {
            QueryOutcome o = byValue.get(value);
            return o != null ? o : absent(label, value, series, annotations);
        }
    }

    /**
     * The answer to a grouped range query: each label value's series, or why there is none.
     *
     * @param byValue label value → its series or {@code MULTIPLE_SERIES}; null when the request failed
     * @param failure why the request failed, null when it answered
     * @param annotations the answer's warnings and infos
     */
    record Range(String label, Map<String, RangeOutcome> byValue, QueryOutcome.NoData failure,
                 Annotations annotations) {
        public Range {
            Objects.requireNonNull(label, "label");
            byValue = byValue == null ? null : Map.copyOf(byValue);
            if ((byValue == null) == (failure == null)) {
                throw new IllegalArgumentException("either series or a failure");
            }
            annotations = annotations == null ? Annotations.NONE : annotations;
        }

        public Range(String label, Map<String, RangeOutcome> byValue, QueryOutcome.NoData failure) {
            this(label, byValue, failure, Annotations.NONE);
        }

        /** One label value's series; a value the answer does not have is {@code EMPTY_RESULT}. */
        public RangeOutcome forValue(String value) {
            if (failure != null) {
                return new RangeOutcome.NoData(failure.reason(), failure.message());
            }
            RangeOutcome o = byValue.get(value);
            if (o != null) {
                return o;
            }
            QueryOutcome.NoData n = absent(label, value, byValue.size(), annotations);
            return new RangeOutcome.NoData(n.reason(), n.message() + " in the range");
        }
    }

    /** A class whose value is not in the grouped answer: no data with the reason, never 0. */
    static QueryOutcome.NoData absent(String label, String value, int series, Annotations annotations) {
        return new QueryOutcome.NoData(NoDataReason.EMPTY_RESULT, "no series with " + label + "=\""
                + ResponseDecoder.abbreviate(value, 80) + "\" in the grouped answer (" + series
                + " series)" + partialNote(annotations), annotations);
    }

    /** Said after "no series…" when the answer was partial: the series may be in the part that did not answer. */
    static String partialNote(Annotations a) {
        return a.partial() ? "; the answer was partial (" + String.join("; ", a.warnings()) + ")" : "";
    }

    /** Several series share one class's value: the query does not aggregate by the label. */
    static QueryOutcome.NoData multiple(String label, String value, int n) {
        return new QueryOutcome.NoData(NoDataReason.MULTIPLE_SERIES, n + " series have " + label + "=\""
                + ResponseDecoder.abbreviate(value, 80) + "\"; aggregate the grouped query by (" + label + ")");
    }
}
