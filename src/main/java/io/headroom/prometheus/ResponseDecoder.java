package io.headroom.prometheus;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.JacksonIOException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import io.headroom.config.UntrustedText;
import io.headroom.decision.Annotations;
import io.headroom.prometheus.QueryOutcome.QueryStats;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decodes Prometheus API answers with Jackson's streaming parser, keeping only what a decision or a
 * chart needs: the status, the error, the warnings and infos, the number of series and the first
 * series' points (every series' with a key label). Label sets are checked, not built.
 *
 * <p>Strictly: an answer that could be read two ways, or is not the shape the API documents
 * (docs/querying/api.md), is {@link MalformedException} with the reason in words, never a number. A key
 * twice in one object, at any depth, is Jackson's duplicate detection; anything after the root object is
 * read for (which also reads the body to its end, so a body shorter than its Content-Length fails in
 * OkHttp); a success needs {@code data.resultType} and a {@code result} of that type's shape; sample
 * values are strings; no sample is dated beyond {@code notAfter}.
 */
final class ResponseDecoder {

    /**
     * Jackson's defaults are already strict JSON (no comments, no NaN literals, no trailing commas);
     * duplicate detection is the one strict feature that is off by default.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    /** Warnings (and infos) kept per answer; the rest are counted. A partial answer from a sharded store can list one per shard. */
    static final int MAX_ANNOTATIONS = 5;
    /** The longest warning or info kept, in characters (made one harmless line). */
    static final int MAX_ANNOTATION_LENGTH = 300;

    /** The result types of {@code data.resultType} (docs/querying/api.md, "Expression query result formats"). */
    private static final List<String> RESULT_TYPES = List.of("matrix", "vector", "scalar", "string");

    /** A decoded answer; {@code values}/{@code times} hold the first series only (every series' with a key label). */
    static final class Answer {
        String status;
        String errorType;
        String error;
        String resultType;
        int series;
        /** True when the result was a bare [ts, "v"] pair (scalar or string). */
        boolean bare;
        double bareTime;
        String bareText;
        double[] times = new double[0];
        double[] values = new double[0];
        int size;
        QueryStats stats;
        /** With a key label: that label's value per series, in the order of {@code values}; else empty. */
        final List<String> keys = new ArrayList<>();
        /** With a key label: where each series' points start in {@code values}; else empty. */
        final List<Integer> starts = new ArrayList<>();
        /** Per series kept (the first, or every one with a key label): it holds native-histogram samples. */
        final List<Boolean> histogram = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<String> infos = new ArrayList<>();
        int moreWarnings;
        int moreInfos;

        // What the result looked like, judged against resultType once both are known.
        private boolean sawData;
        private boolean dataIsObject;
        private boolean sawResult;
        private boolean sawValue;
        private boolean sawValues;
        private boolean sawHistogram;
        private boolean sawHistograms;
        private int vectorSeriesNotOneSample;
        private int seriesWithoutSamples;

        boolean success() {
            return "success".equals(status);
        }

        /** The first series holds native-histogram samples. */
        boolean firstIsHistogram() {
            return !histogram.isEmpty() && histogram.get(0);
        }

        /** The warnings and infos, with a last line counting those left out. */
        Annotations annotations() {
            if (warnings.isEmpty() && infos.isEmpty()) {
                return Annotations.NONE;
            }
            List<String> w = new ArrayList<>(warnings);
            if (moreWarnings > 0) {
                w.add("and " + moreWarnings + " more warning" + (moreWarnings == 1 ? "" : "s"));
            }
            List<String> i = new ArrayList<>(infos);
            if (moreInfos > 0) {
                i.add("and " + moreInfos + " more info" + (moreInfos == 1 ? "" : "s"));
            }
            return new Annotations(w, i);
        }

        void add(double t, double v) {
            if (size == times.length) {
                int n = Math.max(16, size * 2);
                times = Arrays.copyOf(times, n);
                values = Arrays.copyOf(values, n);
            }
            times[size] = t;
            values[size] = v;
            size++;
        }
    }

    /** Thrown for a body that is not the JSON Prometheus sends; the message says why in words. */
    static final class MalformedException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    private ResponseDecoder() {
    }

    /**
     * Decodes an answer, reading the stream to its end; with a {@code keyLabel}, every series is kept:
     * its points, where they start ({@link Answer#starts}) and that label's value ({@link Answer#keys}).
     *
     * @param notAfter the latest believable sample time, epoch seconds
     * @throws MalformedException for anything that is not the JSON Prometheus sends
     * @throws IOException        when the stream itself fails (short body, reset, timeout)
     */
    static Answer decode(InputStream in, String keyLabel, double notAfter) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            return decode(p, keyLabel, notAfter);
        } catch (JacksonIOException e) {
            throw e.getCause(); // the stream failed (short body, reset, timeout), not the JSON
        } catch (JacksonException e) {
            throw malformed(e);
        }
    }

    /** Jackson's complaint in words, with where in the body it was. */
    private static MalformedException malformed(JacksonException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.startsWith("Duplicate Object property \"")) {
            String key = m.substring("Duplicate Object property \"".length(),
                    Math.max("Duplicate Object property \"".length(), m.lastIndexOf('"')));
            return new MalformedException("duplicate key \"" + abbreviate(key, 60)
                    + "\" in one object: the answer can be read two ways");
        }
        TokenStreamLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return new MalformedException("not valid JSON" + where + ": " + abbreviate(m, 120));
    }

    private static Answer decode(JsonParser p, String keyLabel, double notAfter) throws IOException {
        Answer a = new Answer();
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new MalformedException("expected a JSON object");
        }
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "status" -> a.status = text(p, t, "status");
                case "errorType" -> a.errorType = optionalText(p, t, "errorType");
                case "error" -> a.error = optionalText(p, t, "error");
                case "data" -> data(p, t, a, keyLabel, notAfter);
                case "warnings" -> a.moreWarnings = annotations(p, t, "warnings", a.warnings);
                case "infos" -> a.moreInfos = annotations(p, t, "infos", a.infos);
                default -> p.skipChildren();
            }
        }
        // The streaming equivalent of databind's FAIL_ON_TRAILING_TOKENS; it also reads the body to its end.
        JsonToken after;
        try {
            after = p.nextToken();
        } catch (JacksonIOException e) {
            throw e;
        } catch (JacksonException e) {
            throw new MalformedException("something other than white space after the answer ("
                    + abbreviate(String.valueOf(e.getOriginalMessage()), 80) + ")");
        }
        if (after != null) {
            throw new MalformedException("more JSON after the answer: one answer, one object");
        }
        if (a.status == null) {
            throw new MalformedException("no status field");
        }
        if (!a.success() && !"error".equals(a.status)) {
            throw new MalformedException("status is \"" + abbreviate(a.status, 40) + "\", neither success nor error");
        }
        if (a.success()) {
            checkShape(a);
        }
        return a;
    }

    /** A success's {@code data} as the API documents it: a resultType, and a result of that shape. */
    private static void checkShape(Answer a) throws MalformedException {
        if (!a.sawData || !a.dataIsObject) {
            throw new MalformedException(a.sawData ? "data is not an object" : "a success without data");
        }
        if (a.resultType == null) {
            throw new MalformedException("a success without data.resultType: the result cannot be told apart");
        }
        if (!RESULT_TYPES.contains(a.resultType)) {
            throw new MalformedException("resultType \"" + abbreviate(a.resultType, 40)
                    + "\" is none of matrix, vector, scalar, string");
        }
        if (!a.sawResult) {
            throw new MalformedException("a success without data.result");
        }
        String mismatch = switch (a.resultType) {
            case "scalar", "string" -> a.bare ? null : "a " + a.resultType + " result is one [time, \"value\"] pair";
            case "vector" -> a.bare || a.sawValues || a.sawHistograms ? "a vector's series have \"value\" or"
                    + " \"histogram\", not a pair or \"values\"" : a.vectorSeriesNotOneSample > 0
                    ? "a series of a vector has not exactly one of \"value\" and \"histogram\"" : null;
            default -> a.bare || a.sawValue || a.sawHistogram ? "a matrix's series have \"values\" or \"histograms\","
                    + " not a pair or \"value\"" : a.seriesWithoutSamples > 0
                    ? "a series of a matrix has neither \"values\" nor \"histograms\"" : null;
        };
        if (mismatch != null) {
            throw new MalformedException("resultType " + a.resultType + " does not match the result: " + mismatch);
        }
        if ("scalar".equals(a.resultType)) {
            a.add(a.bareTime, number(a.bareText));
        }
    }

    /** A list of strings: kept made safe and bounded, each once; returns how many were left out. */
    private static int annotations(JsonParser p, JsonToken t, String field, List<String> into) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return 0;
        }
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException(field + " is not a list of strings");
        }
        int more = 0;
        for (JsonToken s = p.nextToken(); s != JsonToken.END_ARRAY; s = p.nextToken()) {
            if (s != JsonToken.VALUE_STRING) {
                throw new MalformedException(field + " is not a list of strings");
            }
            String text = abbreviate(p.getString(), MAX_ANNOTATION_LENGTH);
            if (into.contains(text)) {
                continue;
            }
            if (into.size() < MAX_ANNOTATIONS) {
                into.add(text);
            } else {
                more++;
            }
        }
        return more;
    }

    private static void data(JsonParser p, JsonToken t, Answer a, String keyLabel, double notAfter) throws IOException {
        a.sawData = true;
        if (t != JsonToken.START_OBJECT || "error".equals(a.status)) {
            // An error may carry anything as data (TestRespondError sends "test"); a success is checked after.
            a.dataIsObject = t == JsonToken.START_OBJECT;
            p.skipChildren();
            return;
        }
        a.dataIsObject = true;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "resultType" -> a.resultType = text(p, v, "resultType");
                case "result" -> result(p, v, a, keyLabel, notAfter);
                case "stats" -> a.stats = stats(p, v);
                default -> p.skipChildren();
            }
        }
    }

    private static void result(JsonParser p, JsonToken t, Answer a, String keyLabel, double notAfter) throws IOException {
        a.sawResult = true;
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException("result is not a list");
        }
        JsonToken first = p.nextToken();
        if (first == JsonToken.END_ARRAY) {
            return;
        }
        if (first == JsonToken.VALUE_NUMBER_FLOAT || first == JsonToken.VALUE_NUMBER_INT) {
            // A scalar or string result: [ts, "value"]; the value is read as a number once resultType says scalar.
            a.bare = true;
            a.series = 1;
            a.bareTime = time(p, notAfter);
            a.bareText = text(p, p.nextToken(), "the result's value");
            if (p.nextToken() != JsonToken.END_ARRAY) {
                throw new MalformedException("a scalar or string result has more than two elements");
            }
            return;
        }
        for (JsonToken s = first; s != JsonToken.END_ARRAY; s = p.nextToken()) {
            if (s != JsonToken.START_OBJECT) {
                throw new MalformedException("a series is not an object");
            }
            a.series++;
            // Only the first series' points matter without a key label; the others are still read and checked.
            boolean keep = keyLabel != null || a.series == 1;
            series(p, a, keyLabel, keep, notAfter);
        }
    }

    private static void series(JsonParser p, Answer a, String keyLabel, boolean keep, double notAfter)
            throws IOException {
        String key = null;
        int start = a.size;
        boolean value = false;
        boolean values = false;
        boolean histogram = false;
        boolean histograms = false;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "metric" -> key = labels(p, v, keyLabel);
                case "value" -> {
                    value = true;
                    pair(p, v, a, keep, notAfter);
                }
                case "values" -> {
                    values = true;
                    if (v != JsonToken.START_ARRAY) {
                        throw new MalformedException("values is not a list");
                    }
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        pair(p, p.currentToken(), a, keep, notAfter);
                    }
                }
                case "histogram" -> {
                    histogram = true;
                    histogramPair(p, v, notAfter);
                }
                case "histograms" -> {
                    histograms = true;
                    if (v != JsonToken.START_ARRAY) {
                        throw new MalformedException("histograms is not a list");
                    }
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        histogramPair(p, p.currentToken(), notAfter);
                    }
                }
                default -> p.skipChildren();
            }
        }
        a.sawValue |= value;
        a.sawValues |= values;
        a.sawHistogram |= histogram;
        a.sawHistograms |= histograms;
        if (value == histogram) {
            a.vectorSeriesNotOneSample++;
        }
        if (!values && !histograms) {
            a.seriesWithoutSamples++;
        }
        if (keep) {
            if (histogram && !value) {
                a.add(Double.NaN, Double.NaN); // a vector keeps one point per series; the flag tells this one apart
            }
            a.histogram.add(histogram || histograms);
            if (keyLabel != null) {
                a.keys.add(key);
                a.starts.add(start);
            }
        }
    }

    /** Checks a series' label set (each label a string, each once); returns the key label's value, or null. */
    private static String labels(JsonParser p, JsonToken t, String name) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            throw new MalformedException("metric is not an object");
        }
        String found = null;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String field = p.currentName();
            String v = text(p, p.nextToken(), "a label value");
            if (field.equals(name)) {
                found = v;
            }
        }
        return found;
    }

    private static void pair(JsonParser p, JsonToken t, Answer a, boolean keep, double notAfter) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException("a sample is not a [time, \"value\"] pair");
        }
        p.nextToken();
        double time = time(p, notAfter);
        double value = number(text(p, p.nextToken(), "a sample value"));
        if (p.nextToken() != JsonToken.END_ARRAY) {
            throw new MalformedException("a sample has more than two elements");
        }
        if (keep) {
            a.add(time, value);
        }
    }

    /** A native histogram sample, [time, {count, sum, buckets}]: checked and its time judged, not kept. */
    private static void histogramPair(JsonParser p, JsonToken t, double notAfter) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException("a histogram sample is not a [time, histogram] pair");
        }
        p.nextToken();
        time(p, notAfter);
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new MalformedException("a histogram sample's histogram is not an object");
        }
        p.skipChildren();
        if (p.nextToken() != JsonToken.END_ARRAY) {
            throw new MalformedException("a histogram sample has more than two elements");
        }
    }

    /** A sample time at the parser: a number of epoch seconds, not beyond {@code notAfter}. */
    private static double time(JsonParser p, double notAfter) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_FLOAT && t != JsonToken.VALUE_NUMBER_INT) {
            throw new MalformedException("a sample time is not a number");
        }
        double time = p.getDoubleValue();
        if (!(time <= notAfter)) {
            throw new MalformedException("a sample is dated " + (Double.isFinite(time) ? instant(time) : "beyond any date")
                    + ", more than " + PrometheusClient.FUTURE_TOLERANCE.toSeconds() + " s ahead of this machine's clock");
        }
        return time;
    }

    private static QueryStats stats(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        double exec = Double.NaN;
        long total = -1;
        long peak = -1;
        while (p.nextToken() == JsonToken.PROPERTY_NAME) {
            String section = p.currentName();
            JsonToken v = p.nextToken();
            if (v != JsonToken.START_OBJECT || !(section.equals("timings") || section.equals("samples"))) {
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String field = p.currentName();
                JsonToken x = p.nextToken();
                boolean num = x == JsonToken.VALUE_NUMBER_FLOAT || x == JsonToken.VALUE_NUMBER_INT;
                if (num && field.equals("execTotalTime")) {
                    exec = p.getDoubleValue();
                } else if (num && field.equals("totalQueryableSamples")) {
                    total = p.getLongValue();
                } else if (num && field.equals("peakSamples")) {
                    peak = p.getLongValue();
                } else {
                    p.skipChildren();
                }
            }
        }
        return new QueryStats(exec, total, peak);
    }

    /** A string where the API has one; {@code what} names it in the message. */
    private static String text(JsonParser p, JsonToken t, String what) throws IOException {
        if (t != JsonToken.VALUE_STRING) {
            throw new MalformedException(what + " is " + kind(t) + ", not a string"
                    + (what.startsWith("a sample value") ? " (Prometheus writes values as strings: \"1\", \"NaN\")" : ""));
        }
        return p.getString();
    }

    /** A string, or null when absent or JSON null. */
    private static String optionalText(JsonParser p, JsonToken t, String what) throws IOException {
        return t == JsonToken.VALUE_NULL ? null : text(p, t, what);
    }

    private static String kind(JsonToken t) {
        if (t == null) {
            return "missing";
        }
        return switch (t) {
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "true or false";
            case VALUE_NULL -> "null";
            case START_ARRAY -> "a list";
            case START_OBJECT -> "an object";
            default -> "missing";
        };
    }

    /**
     * Prometheus writes sample values as strings, including "NaN", "+Inf" and "-Inf" (Go's
     * {@code FormatFloat}: digits, a sign, a point, an exponent). Java's parser would also take "1d",
     * " 1 " or hex; those are not Prometheus's and are refused.
     */
    static double number(String s) throws MalformedException {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')
                    && !s.equals("NaN") && !s.equals("+Inf") && !s.equals("Inf") && !s.equals("-Inf")) {
                throw new MalformedException("a sample value is not a number: \"" + abbreviate(s, 40) + "\"");
            }
        }
        switch (s) {
            case "NaN":
                return Double.NaN;
            case "+Inf":
            case "Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new MalformedException("a sample value is not a number: \"" + abbreviate(s, 40) + "\"");
                }
        }
    }

    static Instant instant(double epochSeconds) {
        long millis = Math.round(epochSeconds * 1000);
        return Instant.ofEpochMilli(millis);
    }

    /** Server text made one harmless line of at most {@code max} characters (see {@link UntrustedText}). */
    static String abbreviate(String s, int max) {
        return UntrustedText.line(s, max);
    }
}
