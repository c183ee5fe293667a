package io.headroom.journal;

import java.util.regex.Pattern;

/**
 * Free text on its way into the journal (reasons, explanations, error messages): terminal control
 * sequences removed, secrets redacted, one line, and capped, so a pasted escape sequence cannot
 * rewrite an operator's terminal and a 5 MB error string cannot become a 5 MB record.
 */
public final class FreeText {
    /** An operator's reason is a sentence or two. */
    public static final int MAX_REASON = 1_000;
    /** An explanation or an error message may be longer; beyond this it is noise. */
    public static final int MAX_DETAIL = 4_000;
    /** Longer input is cut before the redactor runs (it stays linear, and the rest is cut anyway). */
    private static final int PRE_CUT = 16_384;

    /** ESC sequences (CSI, OSC, DCS/PM/APC/SOS strings, two-character ones) and their 8-bit C1 forms. */
    private static final Pattern ESCAPES = Pattern.compile(
            "\\u001B\\[[0-?]{0,64}[ -/]{0,16}[@-~]?"            // CSI … final byte
            + "|\\u009B[0-?]{0,64}[ -/]{0,16}[@-~]?"            // 8-bit CSI
            + "|[\\u001B][\\]PX^_][^\\u0007\\u001B\\u009C]{0,4096}(?:\\u0007|\\u001B\\\\|\\u009C)?" // OSC, DCS, …
            + "|[\\u009D\\u0090\\u0098\\u009E\\u009F][^\\u0007\\u001B\\u009C]{0,4096}(?:\\u0007|\\u001B\\\\|\\u009C)?"
            + "|\\u001B[ -/]{0,4}[0-~]?");                      // ESC c, ESC ( B, a lone ESC
    /** Other C0 and C1 controls, DEL, and the bidirectional overrides that reorder what is shown. */
    private static final Pattern CONTROLS = Pattern.compile(
            "[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F\\u0080-\\u009F\\u202A-\\u202E\\u2066-\\u2069]");
    private static final Pattern LINE_BREAKS = Pattern.compile("[\\r\\n\\t]");

    private FreeText() {
    }

    /** Cleans {@code s} for the journal, keeping at most {@code max} characters (and saying how many were cut). */
    public static String clean(String s, int max) {
        if (s == null || s.isEmpty()) {
            return s;
        }
        int length = s.length();
        String out = length > PRE_CUT ? s.substring(0, PRE_CUT) : s;
        out = ESCAPES.matcher(out).replaceAll("");
        out = CONTROLS.matcher(out).replaceAll("");
        // Redact while line breaks still end values ("Cookie: …" stops at the end of its line).
        out = Redactor.redact(out);
        out = LINE_BREAKS.matcher(out).replaceAll(" ");
        if (out.length() > max || length > PRE_CUT) {
            int keep = Math.min(max, out.length());
            if (keep > 0 && Character.isHighSurrogate(out.charAt(keep - 1))) {
                keep--;
            }
            out = out.substring(0, keep) + "… [" + (length - keep) + " characters cut]";
        }
        return out;
    }

    /** A record's free text cleaned; names and numbers are the console's own and stay as they are. */
    public static JournalRecord clean(JournalRecord r) {
        return new JournalRecord(r.seq(), r.at(), r.kind(), r.user(), r.context(), r.className(), r.before(),
                r.after(), clean(r.reason(), MAX_REASON), clean(r.detail(), MAX_DETAIL), r.proposalId(), r.until(), r.node());
    }
}
