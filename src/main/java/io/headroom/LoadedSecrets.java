package io.headroom;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The secrets this console has loaded (kubeconfig tokens, passwords and key data, tokens from files and
 * exec plugins, Prometheus bearer and basic credentials), registered where they are read, so that text
 * on its way to the operator, the journal, a CSV export or the log loses them in whatever words it
 * holds them (issue 27): an API server that quotes the token it was sent in a 403 matches no shape a
 * rule could know. A leaf: it uses nothing of ours, and anything may use it.
 *
 * <p>A value shorter than {@link #MIN_LENGTH} characters is not held (it would cut ordinary words out of
 * every message); such a secret is still caught by its shape ({@code journal/Redactor}). The newest
 * {@link #MAX_HELD} are held: tokens that an exec plugin renews every few minutes come and go.
 */
public final class LoadedSecrets {
    /** What a secret becomes. */
    public static final String MASK = "[redacted]";
    /** Shorter values are not held. */
    public static final int MIN_LENGTH = 8;
    /** The most held at once (the oldest go first). */
    static final int MAX_HELD = 256;

    private static final LinkedHashSet<String> HELD = new LinkedHashSet<>();
    /** The held values, longest first (a token that contains another is masked whole); replaced, never changed. */
    private static volatile String[] byLength = new String[0];

    private LoadedSecrets() {
    }

    /** Holds {@code secret} (as read, and without surrounding white space); nothing for null or short ones. */
    public static void add(String secret) {
        if (secret == null) {
            return;
        }
        String s = secret.strip();
        if (s.length() < MIN_LENGTH) {
            return;
        }
        synchronized (HELD) {
            if (!HELD.remove(s) && HELD.size() >= MAX_HELD) {
                HELD.remove(HELD.iterator().next());
            }
            HELD.add(s); // the newest last
            List<String> sorted = new ArrayList<>(HELD);
            sorted.sort(Comparator.comparingInt(String::length).reversed());
            byLength = sorted.toArray(String[]::new);
        }
    }

    /**
     * Holds a user name and password, and the {@code user:password} an HTTP Basic header carries in base64
     * (what a server echoing the header would quote).
     */
    public static void addBasic(String user, String password) {
        add(password);
        if (user != null && password != null && !password.isEmpty()) {
            add(Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8)));
        }
    }

    /** {@code text} with every held secret replaced by {@link #MASK}; null stays null. */
    public static String redact(String text) {
        if (text == null || text.length() < MIN_LENGTH) {
            return text;
        }
        String out = text;
        for (String s : byLength) {
            if (out.contains(s)) {
                out = out.replace(s, MASK);
            }
        }
        return out;
    }

    /** Whether anything is held (for tests and the log's guard). */
    static boolean holdsAny() {
        return byLength.length > 0;
    }

    /**
     * Makes every handler of the root logger write its lines without the held secrets (a message, its
     * parameters and a logged exception's text alike): the log is the last place a quoted credential could
     * go. Idempotent; handlers added later are not covered.
     */
    public static void guardLogging() {
        for (java.util.logging.Handler h : java.util.logging.Logger.getLogger("").getHandlers()) {
            guard(h);
        }
    }

    /** {@code handler} writing its lines without the held secrets. */
    static void guard(java.util.logging.Handler handler) {
        java.util.logging.Formatter f = handler.getFormatter();
        if (!(f instanceof Guarded)) {
            handler.setFormatter(new Guarded(f == null ? new java.util.logging.SimpleFormatter() : f));
        }
    }

    /** A formatter whose every line has been through {@link #redact}. */
    private static final class Guarded extends java.util.logging.Formatter {
        private final java.util.logging.Formatter inner;

        Guarded(java.util.logging.Formatter inner) {
            this.inner = inner;
        }

        @Override
        public String format(java.util.logging.LogRecord r) {
            return redact(inner.format(r));
        }

        @Override
        public String getHead(java.util.logging.Handler h) {
            return inner.getHead(h);
        }

        @Override
        public String getTail(java.util.logging.Handler h) {
            return inner.getTail(h);
        }
    }
}
