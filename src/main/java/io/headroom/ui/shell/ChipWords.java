package io.headroom.ui.shell;

import java.util.List;
import java.util.Locale;

/**
 * The top bar's chips in few words, honestly: what a warning is about, not its first 30 letters cut
 * with "…" (the whole text is the chip's tooltip). Pure.
 */
public final class ChipWords {
    /** The most letters a warning's own words keep in a chip. */
    static final int MOST = 26;

    private ChipWords() {
    }

    /**
     * "TLS not verified", "plain http", or the warning's first clause while it is short; "+1 more" when
     * several are joined ("; "); empty for none.
     */
    public static String warning(String warnings) {
        if (warnings == null || warnings.isBlank()) {
            return "";
        }
        List<String> each = List.of(warnings.split("; "));
        String first = headline(each.get(0));
        return each.size() == 1 ? first : first + " · +" + (each.size() - 1) + " more";
    }

    /** One warning's headline: named for a known kind, else its first clause, else its first words. */
    static String headline(String w) {
        String s = w.strip();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.startsWith("tls verification is off")) {
            return "TLS not verified";
        }
        if (lower.contains("credentials") && (lower.contains("plain http") || lower.contains("clear text"))) {
            return "credentials unencrypted";
        }
        if (lower.contains("plain http")) {
            return "plain http";
        }
        if (lower.contains("opened the sandbox")) {
            return "sandbox opened instead"; // the file and why it could not be opened: in the tooltip
        }
        int end = s.length();
        for (String stop : List.of(": ", " (", ", ", " — ")) {
            int i = s.indexOf(stop);
            if (i > 0 && i < end) {
                end = i;
            }
        }
        String clause = s.substring(0, end);
        if (clause.length() <= MOST) {
            return clause;
        }
        int cut = clause.lastIndexOf(' ', MOST);
        return clause.substring(0, cut > 0 ? cut : MOST) + " …";
    }

    /** "2 classes observe-only here", or "2 observe-only" on a narrow window. */
    public static String blocked(int classes, boolean compact) {
        if (classes <= 0) {
            return "";
        }
        return compact ? classes + " observe-only" : classes + (classes == 1 ? " class" : " classes") + " observe-only here";
    }
}
