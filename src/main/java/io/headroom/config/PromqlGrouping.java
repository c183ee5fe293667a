package io.headroom.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a one-class query into a grouped one where that is exact: {@code sum(rate(x{queue="a"}[2m]))}
 * becomes {@code sum by (queue) (rate(x[2m]))} picking {@code queue="a"}. Used by
 * {@code headroom import-keda} so that ScaledObjects whose queries differ only in one label's value
 * share one query.
 *
 * <p>A lexer, not a parser, and deliberately strict: the rewrite is made only when every series
 * selector has the same {@code label="value"} matcher (so each class's series are exactly the
 * grouped answer's series with that value), every selector has braces, and every aggregation is a
 * plain one ({@code sum}, {@code min}, {@code max}, {@code avg}, {@code count}, {@code group},
 * {@code stddev}, {@code stdvar}) that can keep the label ({@code by (label)} added). Anything that
 * could move or drop the label (vector matching with {@code on}/{@code ignoring}, {@code without},
 * {@code topk}, {@code label_replace}, {@code absent}, …) leaves the query as it is.
 */
public final class PromqlGrouping {

    private static final Set<String> AGGREGATIONS = Set.of("sum", "min", "max", "avg", "count", "group", "stddev",
            "stdvar");
    private static final Set<String> REFUSED = Set.of("without", "on", "ignoring", "group_left", "group_right",
            "topk", "bottomk", "quantile", "count_values", "limitk", "limit_ratio", "absent", "absent_over_time",
            "label_replace", "label_join", "sort_by_label", "sort_by_label_desc",
            // one number of a whole vector, or series of their own: per label value they differ
            "scalar", "vector");
    private static final Set<String> WORDS = Set.of("and", "or", "unless", "bool", "offset", "atan2", "by", "inf",
            "nan");

    private PromqlGrouping() {
    }

    /** The labels a query picks with an equality matcher, in order of appearance (candidates for {@link #group}). */
    public static List<String> candidates(String promql) {
        List<String> out = new ArrayList<>();
        Lexed l = lex(promql);
        if (l == null) {
            return out;
        }
        for (Lexed.Matcher m : l.matchers) {
            if (m.op.equals("=") && !out.contains(m.label) && GroupedQuery.labelProblem(m.label) == null) {
                out.add(m.label);
            }
        }
        return out;
    }

    /** The grouped form of {@code promql} by {@code label}, or empty when it would not be exact. */
    public static Optional<GroupedQuery> group(String promql, String label) {
        Lexed l = lex(promql);
        if (l == null || l.selectors == 0 || l.refused || l.bareSelector) {
            return Optional.empty();
        }
        String value = null;
        int[] perSelector = new int[l.selectors];
        for (Lexed.Matcher m : l.matchers) {
            if (m.label.equals(label)) {
                if (!m.op.equals("=") || value != null && !value.equals(m.value)) {
                    return Optional.empty();
                }
                value = m.value;
                perSelector[m.selector]++;
            }
        }
        for (int n : perSelector) {
            if (n != 1) {
                return Optional.empty();
            }
        }
        if (value == null || GroupedQuery.valueProblem(value) != null) {
            return Optional.empty();
        }
        // Edit from the end so earlier offsets stay valid.
        record Edit(int from, int to, String text) {
        }
        List<Edit> edits = new ArrayList<>();
        for (Lexed.Matcher m : l.matchers) {
            if (m.label.equals(label)) {
                edits.add(new Edit(m.from, m.to, ""));
            }
        }
        for (Lexed.Aggregation a : l.aggregations) {
            if (a.byListEnd >= 0) {
                if (!a.byLabels.contains(label)) {
                    edits.add(new Edit(a.byListEnd, a.byListEnd, a.byLabels.isEmpty() ? label : ", " + label));
                }
            } else {
                boolean paren = a.nameEnd < promql.length() && promql.charAt(a.nameEnd) == '(';
                edits.add(new Edit(a.nameEnd, a.nameEnd, " by (" + label + ")" + (paren ? " " : "")));
            }
        }
        edits.sort((x, y) -> Integer.compare(y.from, x.from));
        StringBuilder b = new StringBuilder(promql);
        for (Edit e : edits) {
            b.replace(e.from, e.to, e.text);
        }
        String grouped = b.toString().replaceAll("\\{\\s*}", "");
        return Optional.of(new GroupedQuery(grouped.strip(), label, value));
    }

    // ------------------------------------------------------------ lexing

    /** What the lexer found: matchers (with the span to delete), aggregations, and what rules a rewrite out. */
    private static final class Lexed {
        record Matcher(int selector, String label, String op, String value, int from, int to) {
        }

        static final class Aggregation {
            int nameEnd;
            int byListEnd = -1;
            final List<String> byLabels = new ArrayList<>();
        }

        final List<Matcher> matchers = new ArrayList<>();
        final List<Aggregation> aggregations = new ArrayList<>();
        int selectors;
        boolean refused;
        boolean bareSelector;
    }

    /** Lexes the query; null when it cannot (an unclosed string or brace). */
    private static Lexed lex(String q) {
        Lexed l = new Lexed();
        int i = 0;
        int n = q.length();
        Lexed.Aggregation pending = null; // an aggregation whose argument's '(' comes next
        java.util.ArrayDeque<Optional<Lexed.Aggregation>> open = new java.util.ArrayDeque<>();
        Lexed.Aggregation justClosed = null; // the aggregation whose ')' was the last token
        while (i < n) {
            char c = q.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            Lexed.Aggregation closedBefore = justClosed;
            justClosed = null;
            if (c == '(') {
                open.push(Optional.ofNullable(pending));
                pending = null;
                i++;
            } else if (c == ')') {
                if (open.isEmpty()) {
                    return null;
                }
                justClosed = open.pop().orElse(null);
                i++;
            } else if (c == '#') {
                while (i < n && q.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'' || c == '`') {
                int end = stringEnd(q, i);
                if (end < 0) {
                    return null;
                }
                i = end;
            } else if (c == '[') {
                int end = q.indexOf(']', i);
                if (end < 0) {
                    return null;
                }
                i = end + 1;
            } else if (c == '{') {
                int end = selector(q, i, l.selectors, l);
                if (end < 0) {
                    return null;
                }
                l.selectors++;
                i = end;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < n && Character.isDigit(q.charAt(i + 1))) {
                while (i < n && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '.' || q.charAt(i) == '_')) {
                    i++;
                }
            } else if (Character.isLetter(c) || c == '_' || c == ':') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '_' || q.charAt(i) == ':')) {
                    i++;
                }
                String word = q.substring(start, i);
                String lower = word.toLowerCase(java.util.Locale.ROOT);
                int next = skipSpace(q, i);
                char after = next < n ? q.charAt(next) : 0;
                if (REFUSED.contains(lower)) {
                    l.refused = true;
                } else if (AGGREGATIONS.contains(lower) && (after == '(' || startsWord(q, next, "by")
                        || startsWord(q, next, "without"))) {
                    pending = new Lexed.Aggregation();
                    pending.nameEnd = i;
                    l.aggregations.add(pending);
                    if (startsWord(q, next, "by")) {
                        i = byList(q, next + 2, pending);
                        if (i < 0) {
                            return null;
                        }
                    }
                } else if (lower.equals("by")) {
                    // a trailing clause, sum(x) by (le): it belongs to the aggregation just closed
                    if (closedBefore == null || closedBefore.byListEnd >= 0) {
                        l.refused = true;
                    } else {
                        i = byList(q, i, closedBefore);
                        if (i < 0) {
                            return null;
                        }
                    }
                } else if (WORDS.contains(lower)) {
                    // operators and modifiers
                } else if (after == '(') {
                    // a function
                } else if (after != '{') {
                    l.bareSelector = true; // a metric name without a matcher: its series are every class's
                }
            } else {
                i++;
            }
        }
        return l;
    }

    /** Reads "(a, b)" after {@code by}; records the labels and where a new one goes. Returns the index after it. */
    private static int byList(String q, int from, Lexed.Aggregation a) {
        int open = skipSpace(q, from);
        if (open >= q.length() || q.charAt(open) != '(') {
            return -1;
        }
        int close = q.indexOf(')', open);
        if (close < 0) {
            return -1;
        }
        String inside = q.substring(open + 1, close);
        for (String s : inside.split(",")) {
            if (!s.isBlank()) {
                a.byLabels.add(s.strip());
            }
        }
        int end = close;
        while (end > open + 1 && Character.isWhitespace(q.charAt(end - 1))) {
            end--;
        }
        a.byListEnd = end;
        return close + 1;
    }

    /** Reads one selector's braces, recording its matchers; returns the index after '}'. */
    private static int selector(String q, int open, int index, Lexed l) {
        int i = open + 1;
        int n = q.length();
        int previousEnd = -1; // just after the previous matcher's value
        while (true) {
            i = skipSpace(q, i);
            if (i >= n) {
                return -1;
            }
            if (q.charAt(i) == '}') {
                return i + 1;
            }
            int start = i;
            if (q.charAt(i) == '"') {
                return -1; // a quoted label name (UTF-8 names): not ours to rewrite
            }
            while (i < n && (Character.isLetterOrDigit(q.charAt(i)) || q.charAt(i) == '_')) {
                i++;
            }
            String label = q.substring(start, i);
            i = skipSpace(q, i);
            String op;
            if (q.startsWith("=~", i) || q.startsWith("!~", i) || q.startsWith("!=", i)) {
                op = q.substring(i, i + 2);
                i += 2;
            } else if (i < n && q.charAt(i) == '=') {
                op = "=";
                i++;
            } else {
                return -1;
            }
            i = skipSpace(q, i);
            if (i >= n || q.charAt(i) != '"' && q.charAt(i) != '\'' && q.charAt(i) != '`') {
                return -1;
            }
            int end = stringEnd(q, i);
            if (end < 0) {
                return -1;
            }
            String value = unquote(q.substring(i, end));
            int to = skipSpace(q, end);
            int from = start;
            if (to < n && q.charAt(to) == ',') {
                to = skipSpace(q, to + 1); // the matcher and its comma go together
            } else if (previousEnd >= 0) {
                from = previousEnd; // the last matcher goes with the comma before it
                to = end;
            } else {
                to = end;
            }
            l.matchers.add(new Lexed.Matcher(index, label, op, value, from, to));
            previousEnd = end;
            i = skipSpace(q, end);
            if (i < n && q.charAt(i) == ',') {
                i++;
            }
        }
    }

    private static int stringEnd(String q, int open) {
        char quote = q.charAt(open);
        for (int j = open + 1; j < q.length(); j++) {
            char c = q.charAt(j);
            if (c == '\\' && quote != '`') {
                j++;
            } else if (c == quote) {
                return j + 1;
            }
        }
        return -1;
    }

    private static String unquote(String s) {
        String body = s.substring(1, s.length() - 1);
        if (s.charAt(0) == '`') {
            return body;
        }
        StringBuilder b = new StringBuilder(body.length());
        for (int j = 0; j < body.length(); j++) {
            char c = body.charAt(j);
            if (c == '\\' && j + 1 < body.length()) {
                char e = body.charAt(++j);
                b.append(switch (e) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    default -> e;
                });
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static int skipSpace(String q, int i) {
        while (i < q.length() && Character.isWhitespace(q.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean startsWord(String q, int i, String word) {
        return q.regionMatches(true, i, word, 0, word.length())
                && (i + word.length() >= q.length() || !Character.isLetterOrDigit(q.charAt(i + word.length()))
                && q.charAt(i + word.length()) != '_');
    }

    /** Groups, across classes, the queries that are one grouped query by some label: query → grouped form. */
    public static Map<String, GroupedQuery> shared(List<String> queries) {
        Map<String, GroupedQuery> out = new LinkedHashMap<>();
        Map<GroupedQuery.Key, List<String>> byKey = new LinkedHashMap<>();
        Map<String, Map<String, GroupedQuery>> forms = new LinkedHashMap<>();
        for (String q : queries) {
            Map<String, GroupedQuery> f = new LinkedHashMap<>();
            for (String label : candidates(q)) {
                group(q, label).ifPresent(g -> f.put(label, g));
            }
            forms.put(q, f);
            f.values().forEach(g -> {
                List<String> users = byKey.computeIfAbsent(g.key(), k -> new ArrayList<>());
                if (!users.contains(q)) {
                    users.add(q);
                }
            });
        }
        for (String q : queries) {
            GroupedQuery best = null;
            int bestUsers = 1;
            for (GroupedQuery g : forms.get(q).values()) {
                int users = byKey.get(g.key()).size();
                if (users > bestUsers) {
                    best = g;
                    bestUsers = users;
                }
            }
            if (best != null) {
                out.put(q, best);
            }
        }
        return out;
    }
}
