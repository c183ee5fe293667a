package io.headroom.prometheus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.headroom.config.UntrustedText;
import io.headroom.prometheus.QueryOutcome.QueryStats;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Arrays;

/**
 * Decodes Prometheus API answers with Jackson's streaming parser, keeping only what a decision or a
 * chart needs: the status, the error, the number of series and the first series' points. Label sets
 * and further series are skipped, not built.
 */
final class ResponseDecoder {

    private static final JsonFactory JSON = new JsonFactory();

    /** A decoded answer; {@code values}/{@code times} hold the first series only. */
    static final class Answer {
        String status;
        String errorType;
        String error;
        String resultType;
        int series;
        /** True when the result was a bare [ts, "v"] pair (scalar or string). */
        boolean bare;
        String bareText;
        double[] times = new double[0];
        double[] values = new double[0];
        int size;
        QueryStats stats;
        /** With a key label: that label's value per series, in the order of {@code values}; else empty. */
        final java.util.List<String> keys = new java.util.ArrayList<>();
        /** With a key label: where each series' points start in {@code values}; else empty. */
        final java.util.List<Integer> starts = new java.util.ArrayList<>();

        boolean success() {
            return "success".equals(status);
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

    /** Thrown for a body that is JSON but not Prometheus's shape. */
    static final class MalformedException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    private ResponseDecoder() {
    }

    static Answer decode(InputStream in) throws IOException {
        return decode(in, null);
    }

    /**
     * Decodes an answer; with a {@code keyLabel}, every series is kept: its points, where they start
     * ({@link Answer#starts}) and that label's value ({@link Answer#keys}).
     */
    static Answer decode(InputStream in, String keyLabel) throws IOException {
        try (JsonParser p = JSON.createParser(in)) {
            return decode(p, keyLabel);
        }
    }

    static Answer decode(String text) throws IOException {
        return decode(text, null);
    }

    static Answer decode(String text, String keyLabel) throws IOException {
        try (JsonParser p = JSON.createParser(text)) {
            return decode(p, keyLabel);
        }
    }

    private static Answer decode(JsonParser p, String keyLabel) throws IOException {
        Answer a = new Answer();
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new MalformedException("expected a JSON object");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "status" -> a.status = text(p, t);
                case "errorType" -> a.errorType = text(p, t);
                case "error" -> a.error = text(p, t);
                case "data" -> data(p, t, a, keyLabel);
                default -> p.skipChildren();
            }
        }
        if (a.status == null) {
            throw new MalformedException("no status field");
        }
        return a;
    }

    private static void data(JsonParser p, JsonToken t, Answer a, String keyLabel) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        if (t != JsonToken.START_OBJECT) {
            throw new MalformedException("data is not an object");
        }
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            switch (field) {
                case "resultType" -> a.resultType = text(p, v);
                case "result" -> result(p, v, a, keyLabel);
                case "stats" -> a.stats = stats(p, v);
                default -> p.skipChildren();
            }
        }
    }

    private static void result(JsonParser p, JsonToken t, Answer a, String keyLabel) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException("result is not an array");
        }
        JsonToken first = p.nextToken();
        if (first == JsonToken.END_ARRAY) {
            return;
        }
        if (first == JsonToken.VALUE_NUMBER_FLOAT || first == JsonToken.VALUE_NUMBER_INT) {
            // A scalar or string result: [ts, "value"].
            a.bare = true;
            a.series = 1;
            double ts = p.getDoubleValue();
            JsonToken v = p.nextToken();
            String text = text(p, v);
            a.bareText = text;
            a.add(ts, number(text));
            if (p.nextToken() != JsonToken.END_ARRAY) {
                throw new MalformedException("a scalar result has more than two elements");
            }
            return;
        }
        for (JsonToken s = first; s != JsonToken.END_ARRAY; s = p.nextToken()) {
            if (s != JsonToken.START_OBJECT) {
                throw new MalformedException("a series is not an object");
            }
            a.series++;
            if (a.series > 1 && keyLabel == null) {
                p.skipChildren(); // only the count of further series matters
                continue;
            }
            String key = null;
            int start = a.size;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken v = p.nextToken();
                switch (field) {
                    case "metric" -> {
                        if (keyLabel != null) {
                            key = label(p, v, keyLabel);
                        } else {
                            p.skipChildren();
                        }
                    }
                    case "value" -> pair(p, v, a);
                    case "values" -> {
                        if (v != JsonToken.START_ARRAY) {
                            throw new MalformedException("values is not an array");
                        }
                        while (p.nextToken() != JsonToken.END_ARRAY) {
                            pair(p, p.currentToken(), a);
                        }
                    }
                    default -> p.skipChildren(); // native histograms
                }
            }
            if (keyLabel != null) {
                a.keys.add(key);
                a.starts.add(start);
            }
        }
    }

    /** The value of one label in a series' metric object, or null. */
    private static String label(JsonParser p, JsonToken t, String name) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            throw new MalformedException("metric is not an object");
        }
        String found = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken v = p.nextToken();
            if (field.equals(name)) {
                found = text(p, v);
            } else {
                p.skipChildren();
            }
        }
        return found;
    }

    private static void pair(JsonParser p, JsonToken t, Answer a) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            throw new MalformedException("a sample is not a [time, value] pair");
        }
        JsonToken ts = p.nextToken();
        if (ts != JsonToken.VALUE_NUMBER_FLOAT && ts != JsonToken.VALUE_NUMBER_INT) {
            throw new MalformedException("a sample time is not a number");
        }
        double time = p.getDoubleValue();
        double value = number(text(p, p.nextToken()));
        if (p.nextToken() != JsonToken.END_ARRAY) {
            throw new MalformedException("a sample has more than two elements");
        }
        a.add(time, value);
    }

    private static QueryStats stats(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return null;
        }
        double exec = Double.NaN;
        long total = -1;
        long peak = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String section = p.currentName();
            JsonToken v = p.nextToken();
            if (v != JsonToken.START_OBJECT || !(section.equals("timings") || section.equals("samples"))) {
                p.skipChildren();
                continue;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
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

    private static String text(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_STRING) {
            throw new MalformedException("expected a string at " + p.currentName() + ", got " + t);
        }
        return p.getText();
    }

    /** Prometheus writes sample values as strings, including "NaN", "+Inf" and "-Inf". */
    static double number(String s) throws MalformedException {
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
