package io.headroom.config;

/**
 * Text from outside (a server's error, a label value, a file name, a cluster's message) made safe to
 * show on a terminal, in the console or in the journal: control characters (which a terminal obeys:
 * retitle, clear, recolour) and bidirectional overrides (which make text read differently than it is)
 * are written out as {@code \x1b} / {@code \u202e}, whitespace becomes single spaces, and the length is capped.
 */
public final class UntrustedText {

    private UntrustedText() {
    }

    /** One line of at most {@code max} characters, then "…" when there was more. */
    public static String line(String s, int max) {
        if (s == null) {
            return "";
        }
        // The secrets the console holds go before the text is cut (one cut in half would stay readable); a
        // text far longer than is shown is looked at as far as it could be shown, and is said to go on.
        int look = 4 * max + 4096;
        s = s.length() > look ? io.headroom.LoadedSecrets.redact(s.substring(0, look)) + " …"
                : io.headroom.LoadedSecrets.redact(s);
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        boolean space = false;
        int i = 0;
        while (i < s.length() && sb.length() < max) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (Character.isWhitespace(cp) || Character.isSpaceChar(cp) || cp == 0x85) {
                space = sb.length() > 0;
                continue;
            }
            if (space) {
                sb.append(' ');
                space = false;
            }
            appendSafe(sb, cp);
        }
        if (!s.substring(i).isBlank() || sb.length() > max) {
            int keep = Math.min(sb.length(), max);
            if (keep > 0 && Character.isHighSurrogate(sb.charAt(keep - 1))) {
                keep--; // never half a character
            }
            sb.setLength(keep);
            sb.append('…');
        }
        return sb.toString();
    }

    /** Several lines (e.g. YAML to print): line breaks and tabs stay, everything else is as {@link #line}, uncapped. */
    public static String lines(String s) {
        if (s == null) {
            return "";
        }
        s = io.headroom.LoadedSecrets.redact(s);
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\n' || cp == '\t') {
                sb.appendCodePoint(cp);
            } else if (cp == '\r' && i < s.length() && s.charAt(i) == '\n') {
                continue; // CRLF reads as one line break
            } else {
                appendSafe(sb, cp);
            }
        }
        return sb.toString();
    }

    /** The index of the first character a terminal would act on or that reverses text, or -1 when there is none. */
    public static int firstUnsafe(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (unsafe(cp)) {
                return i;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }

    /** True for C0/C1 controls (tab and line breaks included), DEL, bidirectional controls and lone surrogates. */
    public static boolean unsafe(int cp) {
        return Character.getType(cp) == Character.CONTROL || bidi(cp) || Character.isSurrogate((char) cp)
                && cp <= 0xFFFF;
    }

    /** "U+001B": how a character is named in a message without writing it. */
    public static String codePoint(int cp) {
        return String.format("U+%04X", cp);
    }

    private static boolean bidi(int cp) {
        return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E)
                || (cp >= 0x2066 && cp <= 0x2069);
    }

    private static void appendSafe(StringBuilder sb, int cp) {
        if (unsafe(cp)) {
            sb.append(cp <= 0xFF ? String.format("\\x%02x", cp) : String.format("\\u%04x", cp));
        } else {
            sb.appendCodePoint(cp);
        }
    }
}
