package io.headroom.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.headroom.config.ConfigException.Problem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a YAML or JSON file into a tree of {@link ConfigNode}s with line and column, using
 * Jackson's streaming parser (databind would lose the locations).
 */
public final class ConfigTree {

    /** File formats, chosen by extension. */
    public enum Format { YAML, JSON }

    private ConfigTree() {
    }

    /** The format for a file name: .json is JSON, .yaml/.yml YAML; anything else is refused. */
    public static Format formatOf(Path path) throws ConfigException {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".json")) {
            return Format.JSON;
        }
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return Format.YAML;
        }
        throw new ConfigException(new Problem(displayName(path), 0, 0, "",
                "unknown file type; use .yaml, .yml or .json"));
    }

    /** How a file is named in messages: its file name, as the operator knows it. */
    public static String displayName(Path path) {
        Path name = path.getFileName();
        return name == null ? path.toString() : name.toString();
    }

    /** Parses a file; the format follows the extension. */
    public static ConfigNode parse(Path path) throws ConfigException {
        Format format = formatOf(path);
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(new Problem(displayName(path), 0, 0, "", "cannot read: " + e.getMessage()));
        }
        return parse(displayName(path), text, format);
    }

    /** Parses text; {@code file} names it in messages. */
    public static ConfigNode parse(String file, String text, Format format) throws ConfigException {
        JsonFactory factory = format == Format.YAML ? new YAMLFactory() : new JsonFactory();
        ConfigErrors errors = new ConfigErrors();
        ConfigNode root;
        try (JsonParser p = factory.createParser(text)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new ConfigException(new Problem(file, 1, 1, "", "the file is empty"));
            }
            root = read(p, file, "", errors);
        } catch (JsonProcessingException e) {
            // SnakeYAML knows where the problem is (not just where its context began) and says what it is.
            if (e.getCause() instanceof MarkedYAMLException y && y.getProblemMark() != null) {
                String what = y.getContext() == null ? y.getProblem() : y.getContext() + ": " + y.getProblem();
                throw new ConfigException(new Problem(file, y.getProblemMark().getLine() + 1,
                        y.getProblemMark().getColumn() + 1, "", "malformed YAML: " + what));
            }
            JsonLocation loc = e.getLocation();
            throw new ConfigException(new Problem(file, loc == null ? 0 : loc.getLineNr(),
                    loc == null ? 0 : loc.getColumnNr(), "", "malformed " + format.name() + ": " + firstLine(e)));
        } catch (IOException e) {
            throw new ConfigException(new Problem(file, 0, 0, "", "cannot read: " + e.getMessage()));
        }
        errors.throwIfAny();
        return root;
    }

    private static String firstLine(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        return m.lines().map(String::strip).filter(s -> !s.isEmpty()).findFirst().orElse(m).replaceAll("\\s+", " ");
    }

    /** Reads the value at the current token (already advanced to). */
    private static ConfigNode read(JsonParser p, String file, String path, ConfigErrors errors) throws IOException {
        JsonLocation loc = p.currentTokenLocation();
        int line = loc.getLineNr();
        int col = loc.getColumnNr();
        JsonToken t = p.currentToken();
        switch (t) {
            case START_OBJECT: {
                ConfigNode.MapNode map = new ConfigNode.MapNode(file, line, col, path);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    JsonLocation kloc = p.currentTokenLocation();
                    String childPath = map.childPath(key);
                    p.nextToken();
                    ConfigNode value = read(p, file, childPath, errors);
                    if (map.fields().containsKey(key)) {
                        errors.add(file, kloc.getLineNr(), kloc.getColumnNr(), childPath,
                                "duplicate field (first at line " + map.keyLine(key) + ")");
                    } else {
                        map.put(key, kloc.getLineNr(), kloc.getColumnNr(), value);
                    }
                }
                return map;
            }
            case START_ARRAY: {
                List<ConfigNode> items = new ArrayList<>();
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    items.add(read(p, file, path + "[" + items.size() + "]", errors));
                }
                return new ConfigNode.ListNode(file, line, col, path, items);
            }
            case VALUE_STRING:
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
            case VALUE_TRUE:
            case VALUE_FALSE:
            case VALUE_NULL:
                return new ConfigNode.ScalarNode(file, line, col, path, t, t == JsonToken.VALUE_NULL ? null : p.getText());
            default:
                // Embedded objects and the like have no place in a config file.
                return new ConfigNode.ScalarNode(file, line, col, path, JsonToken.VALUE_STRING, p.getText());
        }
    }
}
