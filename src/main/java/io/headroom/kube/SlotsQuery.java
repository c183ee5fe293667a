package io.headroom.kube;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Optional;

/**
 * The query of the Prometheus trigger an export writes, busy slots plus the backlog drained in D:
 * {@code (λ) * (S) + (L) * (S) / D}, or {@code (λ) * (S) + (Q) / D} when the class reads the queued
 * work's service time Q, and the way back: {@link #parse} takes such a query apart into its signals
 * and D, so that a re-import gives back the class's own queries instead of one opaque queue length.
 */
final class SlotsQuery {
    /** The trigger's name in an export. */
    static final String TRIGGER = "headroom-slots";

    private SlotsQuery() {
    }

    /**
     * The parts of a slots query.
     *
     * @param queueLength   L, or null when the backlog is Q
     * @param queuedService Q, or null when the backlog is L × S
     */
    record Parts(String arrivalRate, String meanService, String queueLength, String queuedService, double drainSeconds) {
    }

    static String compose(Parts p) {
        String backlog = p.queuedService() != null ? "(" + p.queuedService() + ")"
                : "(" + p.queueLength() + ") * (" + p.meanService() + ")";
        return "(" + p.arrivalRate() + ") * (" + p.meanService() + ") + " + backlog + " / " + number(p.drainSeconds());
    }

    /** The parts of a query written by {@link #compose}, or empty when it has another shape. */
    static Optional<Parts> parse(String query) {
        if (query == null) {
            return Optional.empty();
        }
        Cursor c = new Cursor(query);
        String lambda = c.group();
        String s = lambda == null ? null : c.literal(" * ") ? c.group() : null;
        String third = s == null ? null : c.literal(" + ") ? c.group() : null;
        if (third == null) {
            return Optional.empty();
        }
        String l = null;
        String q = third;
        if (c.literal(" * ")) {
            String s2 = c.group();
            if (!s.equals(s2)) {
                return Optional.empty();
            }
            l = third;
            q = null;
        }
        if (!c.literal(" / ")) {
            return Optional.empty();
        }
        String rest = query.substring(c.at);
        double d;
        try {
            d = new BigDecimal(rest).doubleValue();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        if (!(d > 0) || !number(d).equals(rest)) {
            return Optional.empty();
        }
        return Optional.of(new Parts(lambda, s, l, q, d));
    }

    /**
     * A query as an export writes it and an import keeps it: leading and trailing space gone, each line
     * break (with the space around it) one space. PromQL reads both the same.
     */
    static String normalize(String query) {
        return query == null ? null : query.strip().replaceAll("\\s*\\n\\s*", " ");
    }

    /** A number as KEDA's metadata carries it: plain, at most nine decimals, no trailing zeros ("0.7", "3", "2.1"). */
    static String number(double v) {
        BigDecimal b = BigDecimal.valueOf(v).setScale(9, RoundingMode.HALF_UP).stripTrailingZeros();
        return b.scale() < 0 ? b.setScale(0).toPlainString() : b.toPlainString();
    }

    /** Reads balanced parenthesised groups, skipping PromQL's quoted strings. */
    private static final class Cursor {
        final String text;
        int at;

        Cursor(String text) {
            this.text = text;
        }

        boolean literal(String s) {
            if (text.startsWith(s, at)) {
                at += s.length();
                return true;
            }
            return false;
        }

        /** The inside of "( … )" at the cursor, or null. */
        String group() {
            if (at >= text.length() || text.charAt(at) != '(') {
                return null;
            }
            int depth = 0;
            char quote = 0;
            for (int i = at; i < text.length(); i++) {
                char ch = text.charAt(i);
                if (quote != 0) {
                    if (ch == '\\' && quote != '`') {
                        i++;
                    } else if (ch == quote) {
                        quote = 0;
                    }
                } else if (ch == '"' || ch == '\'' || ch == '`') {
                    quote = ch;
                } else if (ch == '(') {
                    depth++;
                } else if (ch == ')') {
                    depth--;
                    if (depth == 0) {
                        String inside = text.substring(at + 1, i);
                        at = i + 1;
                        return inside;
                    }
                }
            }
            return null;
        }
    }
}
