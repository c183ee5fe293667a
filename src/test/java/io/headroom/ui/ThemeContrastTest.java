package io.headroom.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * WCAG AA in both themes, read from the stylesheets themselves: every text colour a rule sets is
 * checked against the background that rule sets, or, when it sets none, against every surface the
 * text may sit on (the page, the panels, a selected row) and the backgrounds of the rules it is nested
 * in. Text needs 4.5:1 (3:1 when the rule makes it large); shapes (health dots) and the focus ring 3:1.
 * A colour the test cannot resolve to a token or a hex value fails, so a new rule cannot slip by.
 */
class ThemeContrastTest {
    /** Where text may sit when its rule sets no background of its own. */
    static final List<String> SURFACES = List.of("-hr-bg", "-hr-surface", "-hr-surface-2", "-hr-surface-3",
            "-hr-selection");
    static final Pattern RULE = Pattern.compile("([^{}]+)\\{([^}]*)}");
    static final Pattern DECLARATION = Pattern.compile("(-[\\w-]+)\\s*:\\s*([^;]+);");
    static final Pattern HEX = Pattern.compile("#[0-9a-fA-F]{6}");

    record Rule(String sheet, String selector, Map<String, String> declarations) {
    }

    @Test
    void ratiosAreWcags() {
        assertEquals(21.0, ratio("#000000", "#ffffff"), 0.01);
        assertEquals(4.48, ratio("#777777", "#ffffff"), 0.01); // the classic just-fails-AA grey
        assertEquals(ratio("#15181c", "#e6e9ed"), ratio("#e6e9ed", "#15181c"), 1e-9);
    }

    @Test
    void everyTextAndBackgroundPairPassesAaInBothThemes() throws IOException {
        List<Rule> rules = rules();
        Map<String, Map<String, String>> themes = themes(rules);
        assertEquals(Set.of("dark", "light"), themes.keySet(), "tokens.css defines both themes");
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (var theme : themes.entrySet()) {
            Map<String, String> tokens = theme.getValue();
            for (Rule r : rules) {
                if (r.sheet().equals("tokens.css")) {
                    continue;
                }
                for (String property : List.of("-fx-text-fill", "-fx-prompt-text-fill", "-fx-fill")) {
                    String value = r.declarations().get(property);
                    if (value == null) {
                        continue;
                    }
                    String fg = resolve(value, tokens);
                    if (fg == null) {
                        failures.add(theme.getKey() + " " + r.sheet() + " `" + r.selector() + "` " + property + ": "
                                + value + " is not a colour the test can check");
                        continue;
                    }
                    double min = property.equals("-fx-fill") ? 3.0 : large(r) ? 3.0 : 4.5;
                    for (String bgName : backgrounds(r, rules)) {
                        String bg = resolve(bgName, tokens);
                        if (bg == null) {
                            continue; // a hover shade (derive) or transparent: the surfaces cover it
                        }
                        checked++;
                        double ratio = ratio(fg, bg);
                        if (ratio < min) {
                            failures.add(String.format(Locale.ROOT, "%s %s `%s` %s %s on %s: %.2f < %.1f",
                                    theme.getKey(), r.sheet(), r.selector(), value.trim(), fg, bgName.trim() + " "
                                            + bg, ratio, min));
                        }
                    }
                }
            }
            // The colours modena derives controls' text from, and the focus ring around any control.
            for (String bg : List.of("-fx-base", "-fx-background", "-fx-control-inner-background")) {
                checked++;
                check(failures, theme.getKey(), "-fx-text-base-color", bg, 4.5, tokens);
            }
            for (String bg : SURFACES) {
                checked++;
                check(failures, theme.getKey(), "-hr-focus-ring", bg, 3.0, tokens);
                checked++;
                check(failures, theme.getKey(), "-hr-focus-ring-on-accent", bg, 3.0, tokens);
            }
        }
        assertTrue(checked > 300, "the stylesheets were read: " + checked + " pairs");
        assertTrue(failures.isEmpty(), failures.size() + " pairs below WCAG AA:\n" + String.join("\n", failures));
    }

    private static void check(List<String> failures, String theme, String fgToken, String bgToken, double min,
                              Map<String, String> tokens) {
        String fg = resolve(fgToken, tokens);
        String bg = resolve(bgToken, tokens);
        if (fg == null || bg == null) {
            failures.add(theme + ": " + fgToken + " or " + bgToken + " is not defined");
            return;
        }
        double r = ratio(fg, bg);
        if (r < min) {
            failures.add(String.format(Locale.ROOT, "%s %s %s on %s %s: %.2f < %.1f", theme, fgToken, fg, bgToken,
                    bg, r, min));
        }
    }

    /** The rule's own background, or every surface and the backgrounds of the rules it is nested in. */
    static Set<String> backgrounds(Rule r, List<Rule> rules) {
        Set<String> out = new LinkedHashSet<>();
        String own = firstLayer(r.declarations().get("-fx-background-color"));
        if (own != null && !own.equals("transparent")) {
            out.add(own);
            return out;
        }
        out.addAll(SURFACES);
        for (Rule outer : rules) {
            String bg = firstLayer(outer.declarations().get("-fx-background-color"));
            if (bg != null && nestedIn(r.selector(), outer.selector())) {
                out.add(bg);
            }
        }
        return out;
    }

    /** True when a selector of {@code inner} is a descendant of one of {@code outer}'s. */
    static boolean nestedIn(String inner, String outer) {
        for (String i : inner.split(",")) {
            for (String o : outer.split(",")) {
                String in = i.trim();
                String out = o.trim();
                if (!out.isEmpty() && !out.startsWith(".root") && (in.startsWith(out + " ") || in.startsWith(out + " >"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String firstLayer(String value) {
        if (value == null) {
            return null;
        }
        String v = value.trim();
        return v.contains("(") ? v : v.split(",")[0].trim();
    }

    /** Large text by WCAG: 18pt, or 14pt bold (at 96 dpi: 24px, or about 18.7px bold). */
    static boolean large(Rule r) {
        String size = r.declarations().get("-fx-font-size");
        if (size == null || !size.trim().endsWith("px")) {
            return false;
        }
        double px = Double.parseDouble(size.trim().replace("px", ""));
        boolean bold = "bold".equals(r.declarations().getOrDefault("-fx-font-weight", "").trim());
        return px >= 24 || bold && px >= 18.66;
    }

    static String resolve(String value, Map<String, String> tokens) {
        String v = value.trim();
        for (int i = 0; i < 10 && v != null && v.startsWith("-"); i++) {
            v = tokens.get(v);
        }
        return v != null && HEX.matcher(v).matches() ? v.toLowerCase(Locale.ROOT) : null;
    }

    static Map<String, Map<String, String>> themes(List<Rule> rules) {
        Map<String, String> base = new LinkedHashMap<>();
        Map<String, Map<String, String>> themes = new LinkedHashMap<>();
        for (Rule r : rules) {
            if (!r.sheet().equals("tokens.css")) {
                continue;
            }
            for (String sel : r.selector().split(",")) {
                String s = sel.trim();
                if (s.equals(".root")) {
                    base.putAll(r.declarations());
                } else if (s.startsWith(".root.theme-")) {
                    themes.computeIfAbsent(s.substring(".root.theme-".length()), k -> new LinkedHashMap<>())
                            .putAll(r.declarations());
                }
            }
        }
        themes.replaceAll((name, own) -> {
            Map<String, String> all = new LinkedHashMap<>(base);
            all.putAll(own);
            return all;
        });
        return themes;
    }

    static List<Rule> rules() throws IOException {
        List<Rule> rules = new ArrayList<>();
        for (String sheet : Styles.SHEETS) {
            String css;
            try (InputStream in = Styles.class.getResourceAsStream("/styles/" + sheet)) {
                assertTrue(in != null, "styles/" + sheet + " on the classpath");
                css = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            css = css.replaceAll("(?s)/\\*.*?\\*/", "");
            Matcher m = RULE.matcher(css);
            while (m.find()) {
                Map<String, String> decls = new LinkedHashMap<>();
                Matcher d = DECLARATION.matcher(m.group(2));
                while (d.find()) {
                    decls.put(d.group(1), d.group(2).trim());
                }
                rules.add(new Rule(sheet, m.group(1).trim().replaceAll("\\s+", " "), decls));
            }
        }
        return rules;
    }

    static double ratio(String a, String b) {
        double la = luminance(a);
        double lb = luminance(b);
        return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
    }

    static double luminance(String hex) {
        double[] c = new double[3];
        for (int i = 0; i < 3; i++) {
            double v = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
            c[i] = v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
        }
        return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    }
}
