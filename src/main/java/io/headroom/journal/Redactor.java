package io.headroom.journal;

import java.util.regex.Pattern;

/**
 * Defence in depth for free text going into the journal: an operator's reason or an error
 * message could carry a token. Bearer tokens, JWTs and "password=…"-style pairs are replaced.
 */
public final class Redactor {
    private static final Pattern BEARER = Pattern.compile("(?i)(bearer\\s+)[A-Za-z0-9._~+/=-]{8,}");
    private static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*");
    private static final Pattern PAIR = Pattern.compile(
            "(?i)\\b(token|password|passwd|secret|api[-_]?key|authorization)(\\s*[:=]\\s*)\\S+");
    public static final String MASK = "[redacted]";

    private Redactor() {
    }

    public static String redact(String s) {
        if (s == null || s.isEmpty()) {
            return s;
        }
        String out = JWT.matcher(s).replaceAll(MASK);
        out = BEARER.matcher(out).replaceAll("$1" + MASK);
        return PAIR.matcher(out).replaceAll("$1$2" + MASK);
    }

    static JournalRecord redact(JournalRecord r) {
        return new JournalRecord(r.seq(), r.at(), r.kind(), r.user(), r.context(), r.className(), r.before(),
                r.after(), redact(r.reason()), redact(r.detail()), r.proposalId(), r.until());
    }
}
