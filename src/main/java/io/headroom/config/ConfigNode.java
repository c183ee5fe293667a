package io.headroom.config;

import tools.jackson.core.JsonToken;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a parsed YAML or JSON file that remembers where it came from (file, line, column
 * and its path from the root), so every later complaint about it can point there.
 */
public abstract sealed class ConfigNode permits ConfigNode.MapNode, ConfigNode.ListNode, ConfigNode.ScalarNode {

    private final String file;
    private final int line;
    private final int column;
    private final String path;

    ConfigNode(String file, int line, int column, String path) {
        this.file = file;
        this.line = line;
        this.column = column;
        this.path = path;
    }

    public String file() {
        return file;
    }

    public int line() {
        return line;
    }

    public int column() {
        return column;
    }

    /** Path from the root, e.g. {@code classes[0].policy}; empty for the root. */
    public String path() {
        return path;
    }

    /** What this node is, for messages: "a mapping", "a list", "a number", "a string" … */
    public abstract String describe();

    /** The path of a child field of this node. */
    public String childPath(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A mapping; keys keep file order and their own locations. */
    public static final class MapNode extends ConfigNode {
        private final Map<String, ConfigNode> fields = new LinkedHashMap<>();
        private final Map<String, int[]> keyLocations = new LinkedHashMap<>();

        MapNode(String file, int line, int column, String path) {
            super(file, line, column, path);
        }

        void put(String key, int line, int column, ConfigNode value) {
            fields.put(key, value);
            keyLocations.put(key, new int[] {line, column});
        }

        public Map<String, ConfigNode> fields() {
            return Collections.unmodifiableMap(fields);
        }

        /** Line of the key itself (the value may start on a later line). */
        public int keyLine(String key) {
            int[] loc = keyLocations.get(key);
            return loc == null ? line() : loc[0];
        }

        public int keyColumn(String key) {
            int[] loc = keyLocations.get(key);
            return loc == null ? column() : loc[1];
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** A sequence. */
    public static final class ListNode extends ConfigNode {
        private final List<ConfigNode> items;

        ListNode(String file, int line, int column, String path, List<ConfigNode> items) {
            super(file, line, column, path);
            this.items = List.copyOf(items);
        }

        public List<ConfigNode> items() {
            return items;
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A string, number, boolean or null, with the token type the parser saw (quoted "5" is a string). */
    public static final class ScalarNode extends ConfigNode {
        private final JsonToken token;
        private final String text;

        ScalarNode(String file, int line, int column, String path, JsonToken token, String text) {
            super(file, line, column, path);
            this.token = token;
            this.text = text;
        }

        public JsonToken token() {
            return token;
        }

        /** The scalar as written (null for a null). */
        public String text() {
            return text;
        }

        public boolean isNull() {
            return token == JsonToken.VALUE_NULL;
        }

        public boolean isNumber() {
            return token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT;
        }

        public boolean isString() {
            return token == JsonToken.VALUE_STRING;
        }

        @Override
        public String describe() {
            return switch (token) {
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number (" + UntrustedText.line(text, 40) + ")";
                case VALUE_TRUE, VALUE_FALSE -> "a boolean (" + text + ")";
                case VALUE_NULL -> "null";
                default -> "a string (\"" + UntrustedText.line(text, 80) + "\")";
            };
        }
    }
}
