package io.headroom;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A failure in the operator's words: what happened (connection refused, host unknown, timed out, TLS
 * failure, no such file, …) and the detail that helps (the address, the file), never a Java class name,
 * a stack trace or a multi-line dump. Shared by every package, like {@link BuildInfo}: it uses nothing of
 * ours. Text that comes from elsewhere already formatted ({@code "ConnectException: Failed to connect to
 * /10.0.0.5:9090"}) goes through {@link #clean}.
 */
public final class ErrorWords {
    private ErrorWords() {
    }

    /**
     * What a kind of failure means, by the simple name of the JDK's (or a parser's) exception class. The
     * innermost cause with a known kind decides: fabric8's and OkHttp's wrappers say less than their causes.
     */
    private static final Map<String, String> KINDS = kinds();

    private static Map<String, String> kinds() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("ConnectException", "connection refused");
        m.put("NoRouteToHostException", "no route to the host");
        m.put("UnknownHostException", "host unknown");
        m.put("SocketTimeoutException", "timed out");
        m.put("HttpConnectTimeoutException", "timed out");
        m.put("HttpTimeoutException", "timed out");
        m.put("TimeoutException", "timed out");
        m.put("SSLHandshakeException", "TLS failure");
        m.put("SSLPeerUnverifiedException", "TLS failure");
        m.put("SSLException", "TLS failure");
        m.put("CertPathValidatorException", "TLS failure");
        m.put("CertificateException", "TLS failure");
        m.put("NoSuchFileException", "no such file");
        m.put("FileNotFoundException", "file not found");
        m.put("AccessDeniedException", "permission denied");
        m.put("NotDirectoryException", "not a directory");
        m.put("FileAlreadyExistsException", "already exists");
        m.put("EOFException", "the data ended early");
        m.put("MarkedYAMLException", "not valid YAML");
        m.put("YAMLException", "not valid YAML");
        m.put("MarkedYamlEngineException", "not valid YAML"); // snakeyaml-engine, which fabric8 reads kubeconfigs with
        m.put("YamlEngineException", "not valid YAML");
        m.put("NullPointerException", "an internal error (a value was missing)");
        m.put("ClassCastException", "an internal error (a value of the wrong kind)");
        return Map.copyOf(m);
    }

    /** Kinds whose message says nothing an operator can use (internal names), so it is left out. */
    private static final java.util.Set<String> MESSAGE_HIDDEN = java.util.Set.of("NullPointerException",
            "ClassCastException");

    /** Messages that say only that something failed (fabric8's, a bare wrapper's). */
    private static final java.util.Set<String> GENERIC = java.util.Set.of("an error has occurred.", "an error has occurred",
            "null", "");

    /** A class name, qualified or not, as a Java exception or error prints it ({@code java.net.ConnectException: }). */
    private static final Pattern CLASS_NAME = Pattern.compile(
            "\\b(?:[a-z_$][\\w$]*\\.)*([A-Z][\\w$]*(?:Exception|Error))\\b:?\\s*");
    /** A qualified JDK name left in a message ({@code java.lang.String}). */
    private static final Pattern QUALIFIED = Pattern.compile("\\b(?:java|javax|jdk|sun)\\.[\\w$.]*[\\w$]");
    /** Where a parser stopped: SnakeYAML's {@code line 5, column 21}, Jackson's {@code line: 5, column: 21}. */
    private static final Pattern LINE = Pattern.compile("\\bline:? (\\d+), column:? (\\d+)");
    /** Longer than any one error should be; the journal caps a reason at 1,000 characters, a tooltip less. */
    private static final int MAX = 500;

    /** The failure in words: its kind (from the innermost cause that has one) and what its message adds. */
    public static String of(Throwable t) {
        if (t == null) {
            return "failed without a message";
        }
        Throwable kindOf = null;
        String kind = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String k = kind(c.getClass());
            if (k != null) {
                kindOf = c;
                kind = k;
            }
        }
        if (kind == null) {
            // Jedis reports a refused connection as "Failed to connect to HOST:PORT." with the JDK's
            // ConnectException (one per address tried) suppressed, not as its cause.
            for (Throwable c = t; c != null && kind == null; c = c.getCause() == c ? null : c.getCause()) {
                for (Throwable s : c.getSuppressed()) {
                    String k = kind(s.getClass());
                    if (k != null) {
                        kindOf = s;
                        kind = k;
                        break;
                    }
                }
            }
        }
        if (kind != null) {
            return words(kind, kindName(kindOf.getClass()), kindOf.getMessage());
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            String m = firstLine(c.getMessage());
            if (!GENERIC.contains(m.strip().toLowerCase(Locale.ROOT))) {
                String s = clean(m);
                if (!s.isEmpty()) {
                    return s;
                }
            }
        }
        return "failed without a message";
    }

    /**
     * Text from elsewhere in words: a leading class name becomes its kind ({@code ConnectException: x}
     * → {@code connection refused (x)}), any other class name goes, line breaks become spaces, and a
     * very long text is cut.
     */
    public static String clean(String raw) {
        if (raw == null || raw.isBlank()) {
            return "";
        }
        // Before anything is cut: a server may quote the credential it was sent (LoadedSecrets).
        String text = LoadedSecrets.redact(raw).strip();
        Matcher lead = CLASS_NAME.matcher(text);
        if (lead.lookingAt() && KINDS.containsKey(lead.group(1))) {
            return words(KINDS.get(lead.group(1)), lead.group(1), text.substring(lead.end()));
        }
        // Inside the text, a known kind is said in words; any other class name goes.
        String s = strip(CLASS_NAME.matcher(text).replaceAll(r -> Matcher.quoteReplacement(
                KINDS.containsKey(r.group(1)) ? KINDS.get(r.group(1)) + ": " : r.group())));
        return s.length() <= MAX ? s : s.substring(0, MAX - 1) + "…";
    }

    /** Text without Java class names (qualified or not) or line breaks; nothing else changed, nothing cut. */
    public static String strip(String raw) {
        if (raw == null) {
            return "";
        }
        String s = CLASS_NAME.matcher(raw).replaceAll("");
        s = QUALIFIED.matcher(s).replaceAll("").replaceAll("\\(\\s*\\)", "").replaceAll("\\s+", " ").strip();
        return s.replaceAll("^:\\s*|\\s*:$", "");
    }

    /** The line a parser stopped at, from the failure's messages (the first mark it names), else null. */
    public static Integer line(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null) {
                Matcher m = LINE.matcher(c.getMessage());
                if (m.find()) {
                    return Integer.valueOf(m.group(1));
                }
            }
        }
        return null;
    }

    private static String kind(Class<?> c) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            String w = KINDS.get(k.getSimpleName());
            if (w != null) {
                return w;
            }
        }
        return null;
    }

    private static String kindName(Class<?> c) {
        for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
            if (KINDS.containsKey(k.getSimpleName())) {
                return k.getSimpleName();
            }
        }
        return c.getSimpleName();
    }

    /** A kind and the detail its message adds, leaving out what only repeats the kind. */
    private static String words(String kind, String kindName, String message) {
        if (MESSAGE_HIDDEN.contains(kindName) || message == null) {
            return kind;
        }
        String detail = kind.equals("not valid YAML") ? LoadedSecrets.redact(yaml(message)) : clean(firstLine(message));
        if (kind.equals("connection refused") || kind.equals("timed out")) {
            // OkHttp's "Failed to connect to /10.0.0.5:9090", the JDK's "Connection refused", "Read timed out".
            detail = detail.replaceFirst("(?i)^failed to connect to /?", "").replaceAll("(?i)connection refused:?", "")
                    .replaceAll("(?i)^(read |connect )?timed out$|^timeout$", "").strip();
        }
        if (detail.isEmpty() || detail.equalsIgnoreCase(kind)) {
            return kind;
        }
        return switch (kind) {
            case "connection refused", "timed out", "the data ended early" -> kind + " (" + detail + ")";
            default -> kind + ": " + detail;
        };
    }

    /**
     * A YAML parser's message without the file's own text: SnakeYAML quotes the offending line (which may
     * hold a token) under each mark; only its unindented sentences and the first mark are kept.
     */
    private static String yaml(String message) {
        StringBuilder said = new StringBuilder();
        for (String l : message.split("\\R")) {
            if (l.isBlank() || Character.isWhitespace(l.charAt(0))) {
                continue; // " in reader, line 5, column 21:", the quoted line, the caret
            }
            said.append(said.length() == 0 ? "" : "; ").append(l.strip());
        }
        Matcher m = LINE.matcher(message);
        String at = m.find() ? " (line " + m.group(1) + ", column " + m.group(2) + ")" : "";
        return clean(said.toString()) + at;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
