package io.headroom.ui;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Why data is missing, in words an operator reads at a glance: the metrics port's reasons
 * ({@code UNREACHABLE: ConnectException: Failed to connect to /10.0.0.5:9090}) and error texts
 * carry a machine code and Java exception names, which the console never shows raw.
 */
public final class PlainWords {
    private PlainWords() {
    }

    /** The metrics port's reason codes (a query gave no usable number), in words. */
    static final Map<String, String> REASONS = Map.of(
            "EMPTY_RESULT", "no series matches the query",
            "NAN_OR_INF", "the value is not a number (NaN or infinite)",
            "MULTIPLE_SERIES", "several series where one number is needed",
            "QUERY_ERROR", "Prometheus refused the query",
            "HTTP_ERROR", "Prometheus answered with an HTTP error",
            "TIMEOUT", "Prometheus did not answer in time",
            "UNREACHABLE", "Prometheus cannot be reached",
            "TLS_FAILURE", "the TLS connection to Prometheus failed",
            "MALFORMED", "Prometheus's answer could not be read",
            "NATIVE_HISTOGRAM", "a native histogram where one number is needed");

    private static final Pattern CODE = Pattern.compile("^([A-Z][A-Z_]+):\\s*(.*)$", Pattern.DOTALL);
    /** A record's own text: {@code NoData[reason=UNREACHABLE, message=…]}. */
    private static final Pattern RECORD = Pattern.compile("^\\w+\\[reason=([A-Z_]+), message=(.*)]$", Pattern.DOTALL);
    private static final int MAX_DETAIL = 160;

    /**
     * A missing-data reason in words: the code as a sentence, then what the error said, without
     * exception class names, on one line. Text without a known code is only cleaned.
     */
    public static String reason(String raw) {
        if (raw == null || raw.isBlank()) {
            return "no reason given";
        }
        String text = raw.strip();
        var m = RECORD.matcher(text);
        if (!m.matches()) {
            m = CODE.matcher(text);
        }
        if (m.matches() && REASONS.containsKey(m.group(1))) {
            String detail = detail(m.group(2));
            String words = REASONS.get(m.group(1));
            return detail.isEmpty() || words.equalsIgnoreCase(detail) ? words : words + " (" + detail + ")";
        }
        return detail(text);
    }

    /** Any of the reason codes, inside a longer text ({@code last failure: UNREACHABLE (…)}). */
    private static final Pattern CODE_IN_TEXT = Pattern.compile("\\b(" + String.join("|", REASONS.keySet()) + ")\\b");

    /**
     * A sentence from elsewhere (a metrics source's own summary), line by line in words: each reason code
     * in it said as words, exception class names gone.
     */
    public static String sentence(String raw) {
        if (raw == null) {
            return "";
        }
        return raw.lines().map(l -> words(CODE_IN_TEXT.matcher(l).replaceAll(m ->
                java.util.regex.Matcher.quoteReplacement(REASONS.get(m.group(1)))))).filter(l -> !l.isEmpty())
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    /** An error's text without exception class names or line breaks, and not endless. */
    public static String detail(String raw) {
        String s = words(raw);
        return s.length() <= MAX_DETAIL ? s : s.substring(0, MAX_DETAIL - 1) + "…";
    }

    /** {@link #detail}, whole: without class names, a refused connection said as one. */
    private static String words(String raw) {
        if (raw == null) {
            return "";
        }
        String s = io.headroom.ErrorWords.strip(raw);
        if (s.isEmpty() && !raw.isBlank()) {
            s = "failed without a message";
        }
        if (s.contains("Failed to connect to") || s.contains("Connection refused")) {
            s = s.replace("Failed to connect to /", "nothing answers at ").replace("Failed to connect to ", "nothing answers at ")
                    .replace("Connection refused", "connection refused");
        }
        return s;
    }
}
