package io.headroom.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed, located access to the fields of one mapping. Every key asked for counts as known;
 * {@link #finish()} reports the keys nobody asked for, so a typo is an error and not a silent
 * default. Problems go to a shared {@link ConfigErrors}; getters then return null or the default
 * so reading continues and finds further problems.
 */
public final class Fields {

    private final ConfigNode node;
    private final ConfigNode.MapNode map;
    private final ConfigErrors errors;
    private final Set<String> known = new LinkedHashSet<>();

    private Fields(ConfigNode node, ConfigNode.MapNode map, ConfigErrors errors) {
        this.node = node;
        this.map = map;
        this.errors = errors;
    }

    /** A view of {@code node}, which must be a mapping; otherwise the problem is recorded and the view is empty. */
    /**
     * Reads a required list of named entries (e.g. {@code classes}): at least one, each read by
     * {@code reader} (null when it had errors), a name used twice reported at the second use.
     */
    public <T> List<T> namedList(String key, String noun, java.util.function.Function<Fields, T> reader,
                                 java.util.function.Function<T, String> nameOf) {
        return namedList(key, noun, Integer.MAX_VALUE, reader, nameOf);
    }

    /** {@link #namedList(String, String, java.util.function.Function, java.util.function.Function)} of at most {@code max}. */
    public <T> List<T> namedList(String key, String noun, int max, java.util.function.Function<Fields, T> reader,
                                 java.util.function.Function<T, String> nameOf) {
        List<T> out = new ArrayList<>();
        if (!has(key)) {
            missing(key);
            return out;
        }
        List<ConfigNode> items = list(key);
        if (items.size() > max) {
            error(key, "has " + items.size() + " " + noun + " entries; at most " + max + " are allowed");
            return out;
        }
        if (items.isEmpty() && get(key).get() instanceof ConfigNode.ListNode) {
            error(key, "must name at least one " + noun);
        }
        Map<String, ConfigNode> seen = new java.util.HashMap<>();
        for (ConfigNode item : items) {
            Fields c = Fields.of(item, errors);
            T value = reader.apply(c);
            if (value != null) {
                ConfigNode first = seen.putIfAbsent(nameOf.apply(value), c.get("name").orElse(item));
                if (first != null) {
                    c.error("name", noun + " name '" + nameOf.apply(value) + "' is used twice (first at line " + first.line()
                            + ")");
                }
                out.add(value);
            }
        }
        return out;
    }

    public static Fields of(ConfigNode node, ConfigErrors errors) {
        if (node instanceof ConfigNode.MapNode m) {
            return new Fields(node, m, errors);
        }
        errors.add(node, "expected a mapping, got " + node.describe());
        return new Fields(node, null, errors);
    }

    public ConfigNode node() {
        return node;
    }

    public ConfigErrors errors() {
        return errors;
    }

    /** Whether the node was a mapping at all. */
    public boolean isMap() {
        return map != null;
    }

    /** The field's node when present and not null. */
    public Optional<ConfigNode> get(String key) {
        known.add(key);
        if (map == null) {
            return Optional.empty();
        }
        ConfigNode v = map.fields().get(key);
        if (v == null || (v instanceof ConfigNode.ScalarNode s && s.isNull())) {
            return Optional.empty();
        }
        return Optional.of(v);
    }

    public boolean has(String key) {
        return get(key).isPresent();
    }

    /** Records that a required field is absent. */
    public void missing(String key) {
        if (map != null) {
            errors.addField(map, key, "is required");
        }
    }

    /** Records a problem at a field (its value when present, else its key's place). */
    public void error(String key, String message) {
        Optional<ConfigNode> v = map == null ? Optional.empty() : Optional.ofNullable(map.fields().get(key));
        if (v.isPresent()) {
            errors.add(v.get(), message);
        } else if (map != null) {
            errors.addField(map, key, message);
        } else {
            errors.add(node, message);
        }
    }

    // ------------------------------------------------------------ typed getters

    public String string(String key) {
        return get(key).map(n -> asString(n, errors)).orElse(null);
    }

    public String requiredString(String key) {
        String s = string(key);
        if (s == null && !has(key)) {
            missing(key);
        }
        return s;
    }

    public Double number(String key) {
        return get(key).map(n -> asNumber(n, errors)).orElse(null);
    }

    public double number(String key, double defaultValue) {
        Double d = number(key);
        return d == null ? defaultValue : d;
    }

    public Double requiredNumber(String key) {
        if (!has(key)) {
            missing(key);
            return null;
        }
        return number(key);
    }

    public Integer integer(String key) {
        return get(key).map(n -> asInteger(n, errors)).orElse(null);
    }

    public int integer(String key, int defaultValue) {
        Integer i = integer(key);
        return i == null ? defaultValue : i;
    }

    public Integer requiredInteger(String key) {
        if (!has(key)) {
            missing(key);
            return null;
        }
        return integer(key);
    }

    public Long longInteger(String key) {
        return get(key).map(n -> asLong(n, errors)).orElse(null);
    }

    /** A nested mapping, or null when absent (or not a mapping, which is recorded). */
    public Fields object(String key) {
        Optional<ConfigNode> n = get(key);
        if (n.isEmpty()) {
            return null;
        }
        Fields f = of(n.get(), errors);
        return f.isMap() ? f : null;
    }

    /** A list's items; empty when absent (or not a list, which is recorded). */
    public List<ConfigNode> list(String key) {
        Optional<ConfigNode> n = get(key);
        if (n.isEmpty()) {
            return List.of();
        }
        if (n.get() instanceof ConfigNode.ListNode l) {
            return l.items();
        }
        errors.add(n.get(), "expected a list, got " + n.get().describe());
        return List.of();
    }

    /** Reports every field that was never asked for: in a config file, an unknown field is a typo. */
    public void finish() {
        if (map == null) {
            return;
        }
        for (String key : map.fields().keySet()) {
            if (!known.contains(key)) {
                errors.addField(map, key, "unknown field; expected one of " + String.join(", ", known));
            }
        }
    }

    // ------------------------------------------------------------ sane ranges

    /**
     * Checks a number already read from {@code key} against a sane range (beyond the domain its
     * record checks): outside it, "must be at least MIN" or "must be at most MAX" is recorded with the
     * value as the file wrote it, and false returned. A null value passes.
     */
    public boolean within(String key, Number value, double min, double max) {
        if (value == null) {
            return true;
        }
        double v = value.doubleValue();
        if (v >= min && v <= max) {
            return true;
        }
        error(key, (v < min ? "must be at least " + plain(min) : "must be at most " + plain(max)) + ", got "
                + written(key, v));
        return false;
    }

    /** A list's items, refused (recorded, empty) when there are more than {@code max}. */
    public List<ConfigNode> list(String key, int max) {
        List<ConfigNode> items = list(key);
        if (items.size() > max) {
            error(key, "has " + items.size() + " entries; at most " + max + " are allowed");
            return List.of();
        }
        return items;
    }

    /** 0.000001 and 1000000000000000, not 1.0E-6 and 1.0E15. */
    public static String plain(double d) {
        return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
    }

    /** A number as the file wrote it (1e-9 stays 1e-9). */
    private String written(String key, double v) {
        if (map != null && map.fields().get(key) instanceof ConfigNode.ScalarNode s && s.isNumber()) {
            return UntrustedText.line(s.text(), 40);
        }
        return Double.isFinite(v) ? plain(v) : Double.toString(v);
    }

    // ------------------------------------------------------------ building values

    /**
     * Runs a constructor; an {@link IllegalArgumentException} becomes a problem located at the field
     * its message names (the first one it mentions), or at this mapping. Returns null on failure.
     */
    public <T> T build(Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            String message = e.getMessage() == null ? "not a valid value" : e.getMessage();
            String key = mentionedKey(message);
            if (key == null) {
                errors.add(node, message);
            } else {
                error(key, stripKey(key, message));
            }
            return null;
        }
    }

    /** Runs a constructor whose problems all belong to one field. */
    public <T> T buildAt(String key, Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (IllegalArgumentException e) {
            error(key, e.getMessage() == null ? "not a valid value" : stripKey(key, e.getMessage()));
            return null;
        }
    }

    /** The present field named earliest in the message, as a whole word. */
    private String mentionedKey(String message) {
        if (map == null) {
            return null;
        }
        List<Map.Entry<String, Integer>> hits = new ArrayList<>();
        for (String key : map.fields().keySet()) {
            Matcher m = Pattern.compile("(?<![A-Za-z0-9_])" + Pattern.quote(key) + "(?![A-Za-z0-9_])").matcher(message);
            if (m.find()) {
                hits.add(Map.entry(key, m.start()));
            }
        }
        return hits.stream().min(Comparator.comparingInt(Map.Entry::getValue)).map(Map.Entry::getKey).orElse(null);
    }

    /** "targetUtilization must be …" reads "must be …" once the path already names the field. */
    private static String stripKey(String key, String message) {
        String prefix = key + " ";
        if (message.startsWith(prefix)) {
            String rest = message.substring(prefix.length());
            if (rest.startsWith("must ") || rest.startsWith("cannot ")) {
                return rest;
            }
        }
        return message;
    }

    // ------------------------------------------------------------ scalar conversions

    public static String asString(ConfigNode n, ConfigErrors errors) {
        if (n instanceof ConfigNode.ScalarNode s && s.isString()) {
            return s.text();
        }
        errors.add(n, "expected a string, got " + n.describe());
        return null;
    }

    public static Double asNumber(ConfigNode n, ConfigErrors errors) {
        if (n instanceof ConfigNode.ScalarNode s && s.isNumber()) {
            try {
                double d = Double.parseDouble(s.text());
                if (Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        errors.add(n, "expected a number, got " + n.describe());
        return null;
    }

    public static Integer asInteger(ConfigNode n, ConfigErrors errors) {
        Long l = asLong(n, errors);
        if (l == null) {
            return null;
        }
        if (l > Integer.MAX_VALUE || l < Integer.MIN_VALUE) {
            errors.add(n, "expected an integer in range, got " + l);
            return null;
        }
        return l.intValue();
    }

    public static Long asLong(ConfigNode n, ConfigErrors errors) {
        if (n instanceof ConfigNode.ScalarNode s && s.isNumber()) {
            try {
                double d = Double.parseDouble(s.text());
                if (d == Math.rint(d) && Math.abs(d) < 9.0e15) {
                    return (long) d;
                }
                return Long.parseLong(s.text());
            } catch (NumberFormatException e) {
                errors.add(n, "expected an integer, got " + n.describe());
                return null;
            }
        }
        errors.add(n, "expected an integer, got " + n.describe());
        return null;
    }
}
