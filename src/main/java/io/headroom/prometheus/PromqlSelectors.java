package io.headroom.prometheus;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Finds the series selectors in a PromQL expression ({@code name}, {@code name{matchers}} or
 * {@code {matchers}}), without their range, offset or {@code @} modifiers, so the source can ask
 * Prometheus when each was last sampled ({@code timestamp(selector)}).
 *
 * <p>This is a lexer, not a parser: it skips strings, numbers, durations and comments, range and
 * subquery brackets, the label lists of {@code by}/{@code without}/{@code on}/{@code ignoring}/
 * {@code group_left}/{@code group_right}, keywords, and names followed by {@code (} (functions and
 * aggregations). What is left is the selectors. An expression Prometheus would reject may give a
 * partial list; the value query then fails with Prometheus's own error, which is what the operator sees.
 */
public final class PromqlSelectors {

    private static final Set<String> KEYWORDS = Set.of(
            // binary and set operators, modifiers
            "and", "or", "unless", "bool", "offset", "atan2",
            // grouping (their label lists are skipped separately)
            "by", "without", "on", "ignoring", "group_left", "group_right",
            // aggregations: may be followed by a grouping clause instead of "("
            "sum", "min", "max", "avg", "group", "stddev", "stdvar", "count", "count_values", "bottomk",
            "topk", "quantile", "limitk", "limit_ratio");
    private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right");

    private PromqlSelectors() {
    }

    /** The distinct selectors of {@code promql}, in the order they first appear. */
    public static List<String> of(String promql) {
        Set<String> found = new LinkedHashSet<>();
        new Scan(promql, found).run();
        return new ArrayList<>(found);
    }

    /** A selector's text without its comments (a comment would swallow the rest of a generated line). */
    static String withoutComments(String selector) {
        StringBuilder b = new StringBuilder(selector.length());
        char quote = 0;
        for (int j = 0; j < selector.length(); j++) {
            char c = selector.charAt(j);
            if (quote != 0) {
                b.append(c);
                if (c == '\\' && quote != '`' && j + 1 < selector.length()) {
                    b.append(selector.charAt(++j));
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '"' || c == '\'' || c == '`') {
                quote = c;
                b.append(c);
            } else if (c == '#') {
                while (j + 1 < selector.length() && selector.charAt(j + 1) != '\n') {
                    j++;
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static final class Scan {
        private final String s;
        private final Set<String> out;
        private int i;

        Scan(String s, Set<String> out) {
            this.s = s;
            this.out = out;
        }

        void run() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isWhitespace(c)) {
                    i++;
                } else if (c == '#') {
                    skipLine();
                } else if (c == '"' || c == '\'' || c == '`') {
                    skipString();
                } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                    skipNumber();
                } else if (c == '[') {
                    skipBalanced('[', ']');
                } else if (c == '{') {
                    int start = i;
                    skipBalanced('{', '}');
                    out.add(withoutComments(s.substring(start, i)));
                } else if (isNameStart(c)) {
                    name();
                } else {
                    i++; // operators, parentheses, commas, '@'
                }
            }
        }

        private void name() {
            int start = i;
            while (i < s.length() && isNamePart(s.charAt(i))) {
                i++;
            }
            String word = s.substring(start, i);
            String lower = word.toLowerCase(Locale.ROOT);
            int next = skipSpace(i);
            char after = next < s.length() ? s.charAt(next) : 0;
            if (GROUPING.contains(lower)) {
                if (after == '(') {
                    i = next;
                    skipBalanced('(', ')');
                }
                return;
            }
            if (KEYWORDS.contains(lower) || lower.equals("nan") || lower.equals("inf") || after == '(') {
                return; // a keyword, a number literal, or a function/aggregation name
            }
            if (after == '{') {
                i = next;
                skipBalanced('{', '}');
                out.add(word + withoutComments(s.substring(next, i)));
            } else {
                out.add(word);
            }
        }

        private int skipSpace(int from) {
            int j = from;
            while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
                j++;
            }
            return j;
        }

        private void skipLine() {
            while (i < s.length() && s.charAt(i) != '\n') {
                i++;
            }
        }

        private void skipString() {
            char quote = s.charAt(i++);
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '\\' && quote != '`') {
                    i++;
                } else if (c == quote) {
                    return;
                }
            }
        }

        /** Numbers, hex, exponents and durations such as {@code 1h30m}: digits, letters, dots, signs after e. */
        private void skipNumber() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (Character.isLetterOrDigit(c) || c == '.' || c == '_') {
                    i++;
                } else if ((c == '+' || c == '-') && (s.charAt(i - 1) == 'e' || s.charAt(i - 1) == 'E')
                        && isDecimalExponent()) {
                    i++;
                } else {
                    return;
                }
            }
        }

        /** True when the e before a sign is a decimal exponent, not a duration unit or a hex digit. */
        private boolean isDecimalExponent() {
            int j = i - 2;
            while (j >= 0 && (Character.isDigit(s.charAt(j)) || s.charAt(j) == '.')) {
                j--;
            }
            return j < 0 || !Character.isLetterOrDigit(s.charAt(j));
        }

        /** Skips from an opening bracket to its match, stepping over strings and comments. */
        private void skipBalanced(char open, char close) {
            int depth = 0;
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '"' || c == '\'' || c == '`') {
                    skipString();
                    continue;
                }
                if (c == '#') {
                    skipLine();
                    continue;
                }
                i++;
                if (c == open) {
                    depth++;
                } else if (c == close && --depth == 0) {
                    return;
                }
            }
        }

        private static boolean isNameStart(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
        }

        private static boolean isNamePart(char c) {
            return isNameStart(c) || c >= '0' && c <= '9';
        }
    }
}
