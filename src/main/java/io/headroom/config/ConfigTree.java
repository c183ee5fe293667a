package io.headroom.config;

import tools.jackson.core.json.JsonFactory;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.util.BufferRecycler;
import tools.jackson.core.io.IOContext;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.YAMLParser;
import io.headroom.config.ConfigException.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.events.ScalarEvent;

/**
 * Reads a YAML or JSON file into a tree of {@link ConfigNode}s with line and column, using
 * Jackson's streaming parser (databind would lose the locations).
 *
 * <p>A config file is input the operator may have got wrong or been handed, so it is refused, with
 * {@code FILE:LINE: …}, when it is not plainly one document of text: not a regular readable file,
 * over {@link #MAX_BYTES}, not UTF-8, a YAML line over {@link #MAX_YAML_LINE} (SnakeYAML scans a long
 * line in time growing with its square), a second document, control characters in a value, more than
 * {@link #MAX_VALUES} values or {@link #MAX_DEPTH} levels. YAML aliases are resolved (a copy of the
 * anchored value, located where it is used) and merge keys ({@code <<: *base}) merged; explicit fields win.
 */
public final class ConfigTree {

    /** File formats, chosen by extension. */
    public enum Format { YAML, JSON }

    /**
     * The largest config file read, in bytes: a workloads file of {@link WorkloadsFile#MAX_CLASSES} classes
     * with grouped signals is about 6.5 MB (650 bytes a class), and a hand-written one with comments and
     * per-class ceilings two or three times that.
     */
    public static final int MAX_BYTES = 16 * 1024 * 1024;
    /** The longest YAML line. */
    public static final int MAX_YAML_LINE = 16 * 1024;
    /**
     * The most values (scalars, mappings, lists, counting each alias's copy) one file may hold: about 40 a
     * class in a fleet's file, so {@link WorkloadsFile#MAX_CLASSES} classes make 400,000; an alias that
     * multiplies is refused before it makes more than this.
     */
    public static final int MAX_VALUES = 1_000_000;
    /** The deepest nesting of mappings and lists. */
    public static final int MAX_DEPTH = 64;
    /** The longest string value. */
    public static final int MAX_STRING = 16 * 1024;

    /** The longest line of a file another program defines: a CA bundle of dozens of certificates in base64. */
    public static final int MAX_FOREIGN_LINE = 1024 * 1024;

    private static final String MERGE_KEY = "<<";

    /**
     * How long a YAML line and a string value may be, and whether a value may hold control characters.
     * Config files keep the defaults; a file another program defines ({@link #FOREIGN}: a kubeconfig) is
     * read as that program reads it: certificates are one base64 line, tens of KiB for a CA bundle, and
     * a value is taken as written (whoever shows it makes it safe, {@link UntrustedText}).
     */
    public record Limits(int maxYamlLine, int maxString, boolean controlCharacters) {
        /** {@link #MAX_YAML_LINE} and {@link #MAX_STRING}, plain text only. */
        public static final Limits DEFAULT = new Limits(MAX_YAML_LINE, MAX_STRING, false);
        /**
         * Lines and values up to {@link #MAX_FOREIGN_LINE}, any text. Not the whole file's {@link #MAX_BYTES}: SnakeYAML
         * reads a 1 MiB line in about a second and takes time growing with the square of a line's length.
         */
        public static final Limits FOREIGN = new Limits(MAX_FOREIGN_LINE, MAX_FOREIGN_LINE, true);
    }

    /** The format for a file name: .json is JSON, .yaml/.yml YAML; anything else is refused. */
    public static Format formatOf(Path path) throws ConfigException {
        String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".json")) {
            return Format.JSON;
        }
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return Format.YAML;
        }
        // At line 1, as every other problem with the file as a whole (a directory, not UTF-8, too large).
        throw new ConfigException(new Problem(displayName(path), 1, 0, "",
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
        return parse(displayName(path), readText(path), format);
    }

    /**
     * A config file's text: a readable regular file (symbolic links followed) of at most
     * {@link #MAX_BYTES}, in UTF-8 (a byte-order mark is skipped). Anything else is one problem at line 1,
     * or at the line of the first byte that is not UTF-8.
     */
    public static String readText(Path path) throws ConfigException {
        String file = displayName(path);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            throw fileProblem(file, path, e);
        }
        if (attributes.isDirectory()) {
            throw new ConfigException(new Problem(file, 1, 0, "", "is a directory, not a file"));
        }
        if (!attributes.isRegularFile()) {
            throw new ConfigException(new Problem(file, 1, 0, "", "is not a regular file"));
        }
        if (attributes.size() > MAX_BYTES) {
            throw new ConfigException(new Problem(file, 1, 0, "", "the file is " + attributes.size()
                    + " bytes; a config file may have at most " + MAX_BYTES + " bytes"));
        }
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes(MAX_BYTES + 1); // never more, even if the file grows meanwhile
        } catch (IOException e) {
            throw fileProblem(file, path, e);
        }
        if (bytes.length > MAX_BYTES) {
            throw new ConfigException(new Problem(file, 1, 0, "", "the file is more than " + MAX_BYTES
                    + " bytes; a config file may have at most " + MAX_BYTES + " bytes"));
        }
        return utf8(file, bytes);
    }

    private static ConfigException fileProblem(String file, Path path, IOException e) {
        String message;
        if (e instanceof NoSuchFileException) {
            message = "no such file: " + path;
        } else if (e instanceof AccessDeniedException) {
            message = "cannot be read: permission denied";
        } else if (e instanceof FileSystemException f && f.getReason() != null
                && f.getReason().toLowerCase(Locale.ROOT).contains("symbolic link")) {
            message = "cannot be read: a loop of symbolic links";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            message = "cannot be read: " + f.getReason();
        } else {
            message = "cannot be read: " + io.headroom.ErrorWords.of(e);
        }
        return new ConfigException(new Problem(file, 1, 0, "", message));
    }

    /** Strict UTF-8: the first malformed byte is reported with its line and column (in bytes). */
    static String utf8(String file, byte[] bytes) throws ConfigException {
        int start = 0;
        if (bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF) {
            start = 3;
        } else if (bytes.length >= 2 && ((bytes[0] & 0xFF) == 0xFE && (bytes[1] & 0xFF) == 0xFF
                || (bytes[0] & 0xFF) == 0xFF && (bytes[1] & 0xFF) == 0xFE)) {
            throw new ConfigException(new Problem(file, 1, 1, "", "is UTF-16 text; save the file as UTF-8"));
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, start, bytes.length - start);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        if (r.isError()) {
            int at = in.position();
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < at; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            int column = at - lineStart + 1;
            throw new ConfigException(new Problem(file, line, column, "", String.format(Locale.ROOT,
                    "not UTF-8 text (byte 0x%02X at column %d); save the file as UTF-8", bytes[at] & 0xFF, column)));
        }
        out.flip();
        return out.toString();
    }

    /** Parses text; {@code file} names it in messages. */
    public static ConfigNode parse(String file, String text, Format format) throws ConfigException {
        return parse(file, text, format, Limits.DEFAULT);
    }

    /** Parses text with other {@link Limits} on lines and values. */
    public static ConfigNode parse(String file, String text, Format format, Limits limits) throws ConfigException {
        if (text.length() > MAX_BYTES) {
            throw new ConfigException(new Problem(file, 1, 0, "", "the text is " + text.length()
                    + " characters; a config file may have at most " + MAX_BYTES));
        }
        if (format == Format.YAML) {
            checkLineLengths(file, text, limits.maxYamlLine());
        }
        tools.jackson.core.TokenStreamFactory factory = format == Format.YAML ? AnchoredYamlFactory.INSTANCE : JSON;
        Reader reader = null;
        ConfigNode root;
        try (JsonParser p = factory.createParser(ObjectReadContext.empty(), new java.io.StringReader(text))) {
            reader = new Reader(p, file, limits);
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new ConfigException(new Problem(file, 1, 1, "", "the file is empty"));
            }
            root = reader.read("", 0);
            JsonToken next = p.nextToken();
            if (next != null) {
                TokenStreamLocation loc = p.currentTokenLocation();
                throw new ConfigException(new Problem(file, Math.max(1, loc.getLineNr()), loc.getColumnNr(), "",
                        format == Format.YAML
                                ? "a second YAML document starts here; a config file holds one document"
                                : "more content after the first JSON value; a config file holds one value"));
            }
        } catch (JacksonException e) {
            // SnakeYAML knows where the problem is (not just where its context began) and says what it is.
            if (e.getCause() instanceof MarkedYamlEngineException y && y.getProblemMark().isPresent()) {
                String what = y.getContext() == null ? y.getProblem() : y.getContext() + ": " + y.getProblem();
                // At the end of the text ("while scanning a quoted scalar: found unexpected end of stream") the
                // place to edit is where the unfinished thing began, not the end of the file.
                Mark at = y.getContextMark().isPresent() && y.getProblem() != null
                        && y.getProblem().contains("end of stream") ? y.getContextMark().get() : y.getProblemMark().get();
                throw new ConfigException(new Problem(file, at.getLine() + 1, at.getColumn() + 1, "",
                        "malformed YAML: " + what));
            }
            TokenStreamLocation loc = e.getLocation();
            int line = loc != null && loc.getLineNr() > 0 ? loc.getLineNr() : reader == null ? 1 : reader.lastLine;
            throw new ConfigException(new Problem(file, line, loc == null ? 0 : loc.getColumnNr(), "",
                    "malformed " + format.name() + ": " + firstLine(e)));
        } catch (IOException e) {
            throw new ConfigException(new Problem(file, reader == null ? 1 : reader.lastLine, 0, "",
                    "cannot read: " + io.headroom.ErrorWords.of(e)));
        }
        reader.errors.throwIfAny();
        return root;
    }

    /** The first line longer than {@code maxLine}, refused before SnakeYAML spends minutes on it. */
    private static void checkLineLengths(String file, String text, int maxLine) throws ConfigException {
        int line = 1;
        int start = 0;
        for (int i = 0; i <= text.length(); i++) {
            if (i == text.length() || text.charAt(i) == '\n') {
                int length = i - start - (i > start && text.charAt(i - 1) == '\r' ? 1 : 0);
                if (length > maxLine) {
                    throw new ConfigException(new Problem(file, line, 0, "", "the line is " + length
                            + " characters long; a YAML line may have at most " + maxLine));
                }
                line++;
                start = i + 1;
            }
        }
    }

    private static String firstLine(JacksonException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return io.headroom.ErrorWords.of(e);
        }
        return m.lines().map(String::strip).filter(s -> !s.isEmpty()).findFirst().orElse(m).replaceAll("\\s+", " ");
    }

    /** The first character of a string value that is neither text nor a line break or tab, or -1. */
    static int firstControl(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            if (cp != '\n' && cp != '\t' && cp != '\r' && UntrustedText.unsafe(cp)) {
                return cp;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }

    /**
     * Jackson's YAML parser reports the anchor of a mapping or a list but not of a scalar
     * ({@code &q sum(x)}); this one keeps the anchor of the scalar it decoded last.
     */
    private static final class AnchoredYamlParser extends YAMLParser {
        private String scalarAnchor;

        AnchoredYamlParser(ObjectReadContext readCtxt, IOContext ctxt, BufferRecycler br, int parserFeatures,
                           int yamlFeatures, LoadSettings settings, java.io.Reader reader) {
            super(readCtxt, ctxt, br, parserFeatures, yamlFeatures, settings, reader);
        }

        @Override
        protected JsonToken _decodeScalar(ScalarEvent scalar) {
            scalarAnchor = scalar.getAnchor().map(a -> a.getValue()).orElse(null);
            JsonToken t = super._decodeScalar(scalar);
            if (t == JsonToken.VALUE_STRING && scalar.isPlain() && scalar.getImplicit().canOmitTagInPlainScalar()) {
                // YAML 1.1's words for true and false, as SnakeYAML 1 (Jackson 2) and kubectl read them.
                switch (scalar.getValue()) {
                    case "yes", "Yes", "YES", "on", "On", "ON" -> {
                        return JsonToken.VALUE_TRUE;
                    }
                    case "no", "No", "NO", "off", "Off", "OFF" -> {
                        return JsonToken.VALUE_FALSE;
                    }
                    default -> {
                    }
                }
            }
            return t;
        }

        /** The anchor of the mapping or list just started, or null. */
        String containerAnchor() {
            return _currentAnchor == null ? null : _currentAnchor.map(a -> a.getValue()).orElse(null);
        }
    }

    /** Makes {@link AnchoredYamlParser}s. */
    private static final class AnchoredYamlFactory extends YAMLFactory {
        private static final long serialVersionUID = 1L;
        static final AnchoredYamlFactory INSTANCE = new AnchoredYamlFactory();

        private AnchoredYamlFactory() {
            // SnakeYAML's own cap (3 MB by default) raised to ours, which is checked before it parses.
            // Duplicate keys are reported by Reader.mapping with both lines, as for JSON; plain scalars are
            // typed by YAML 1.2's core schema (null, ~, True, 0x1F ...), plus YAML 1.1's yes/no/on/off below.
            super(YAMLFactory.builder().loadSettings(LoadSettings.builder().setCodePointLimit(MAX_BYTES + 1)
                            .setSchema(new org.snakeyaml.engine.v2.schema.CoreSchema()).build())
                    .disable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION));
        }

        @Override
        protected YAMLParser _createParser(ObjectReadContext readCtxt, IOContext ctxt, java.io.Reader r) {
            return new AnchoredYamlParser(readCtxt, ctxt, _getBufferRecycler(),
                    readCtxt.getStreamReadFeatures(_streamReadFeatures),
                    readCtxt.getFormatReadFeatures(_formatReadFeatures), _loadSettings, r);
        }
    }

    private static final JsonFactory JSON = new JsonFactory();

    /** One parse: the parser, the anchors seen so far, how many values were made, the problems found. */
    private static final class Reader {
        private final JsonParser p;
        private final AnchoredYamlParser yaml;
        private final String file;
        private final ConfigErrors errors = new ConfigErrors();
        private final Map<String, ConfigNode> anchors = new HashMap<>();
        private int values;
        private int lastLine = 1;
        private final int maxString;
        private final boolean controlCharacters;

        Reader(JsonParser p, String file, Limits limits) {
            this.maxString = limits.maxString();
            this.controlCharacters = limits.controlCharacters();
            this.p = p;
            this.yaml = p instanceof AnchoredYamlParser y ? y : null;
            this.file = file;
        }

        /** Counts values made (aliases' copies included); past the limit the whole file is refused. */
        void count(int n, int line) throws ConfigException {
            values += n;
            if (values > MAX_VALUES) {
                throw new ConfigException(new Problem(file, Math.max(1, line), 0, "", "the file has more than "
                        + MAX_VALUES + " values (each use of an alias counts its values again)"));
            }
        }

        /** Reads the value at the current token (already advanced to). */
        ConfigNode read(String path, int depth) throws IOException, ConfigException {
            TokenStreamLocation loc = p.currentTokenLocation();
            int line = loc.getLineNr();
            int col = loc.getColumnNr();
            lastLine = Math.max(1, line);
            JsonToken t = p.currentToken();
            if (depth > MAX_DEPTH) {
                throw new ConfigException(new Problem(file, lastLine, col, "", "values are nested more than "
                        + MAX_DEPTH + " levels deep"));
            }
            if (yaml != null && t == JsonToken.VALUE_STRING && yaml.isCurrentAlias()) {
                return alias(p.getString(), path, line, col);
            }
            String anchor = yaml == null ? null
                    : t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY ? yaml.containerAnchor()
                    : yaml.scalarAnchor;
            count(1, line);
            ConfigNode node = switch (t) {
                case START_OBJECT -> mapping(path, line, col, depth);
                case START_ARRAY -> {
                    List<ConfigNode> items = new ArrayList<>();
                    while (p.nextToken() != JsonToken.END_ARRAY) {
                        items.add(read(path + "[" + items.size() + "]", depth + 1));
                    }
                    yield new ConfigNode.ListNode(file, line, col, path, items);
                }
                case VALUE_STRING -> string(path, line, col);
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT, VALUE_TRUE, VALUE_FALSE ->
                        new ConfigNode.ScalarNode(file, line, col, path, t, p.getString());
                case VALUE_NULL -> new ConfigNode.ScalarNode(file, line, col, path, t, null);
                // Embedded objects and the like have no place in a config file.
                default -> string(path, line, col);
            };
            if (anchor != null) {
                anchors.put(anchor, node);
            }
            return node;
        }

        private ConfigNode string(String path, int line, int col) throws IOException {
            String text = p.getString();
            ConfigNode.ScalarNode node = new ConfigNode.ScalarNode(file, line, col, path, JsonToken.VALUE_STRING, text);
            int control = controlCharacters ? -1 : firstControl(text);
            if (control >= 0) {
                errors.add(file, line, col, path, "contains a control character (" + UntrustedText.codePoint(control)
                        + "); a config value is plain text");
            } else if (text.length() > maxString) {
                errors.add(file, line, col, path, "is " + text.length() + " characters long; a config value may have"
                        + " at most " + maxString);
            }
            return node;
        }

        private ConfigNode.MapNode mapping(String path, int line, int col, int depth) throws IOException, ConfigException {
            ConfigNode.MapNode map = new ConfigNode.MapNode(file, line, col, path);
            List<ConfigNode> merges = new ArrayList<>();
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String key = p.currentName();
                TokenStreamLocation kloc = p.currentTokenLocation();
                lastLine = Math.max(1, kloc.getLineNr());
                boolean badKey = false;
                int control = firstControl(key);
                if (control >= 0 || key.indexOf('\n') >= 0 || key.indexOf('\t') >= 0) {
                    errors.add(file, kloc.getLineNr(), kloc.getColumnNr(), path, "a field name contains a control"
                            + " character (" + UntrustedText.codePoint(control >= 0 ? control : key.indexOf('\n') >= 0
                            ? '\n' : '\t') + ")");
                    badKey = true;
                }
                String childPath = map.childPath(key);
                p.nextToken();
                ConfigNode value = read(childPath, depth + 1);
                if (badKey) {
                    continue;
                }
                if (yaml != null && key.equals(MERGE_KEY)) {
                    merges.add(value);
                } else if (map.fields().containsKey(key)) {
                    errors.add(file, kloc.getLineNr(), kloc.getColumnNr(), childPath,
                            "duplicate field (first at line " + map.keyLine(key) + ")");
                } else {
                    map.put(key, kloc.getLineNr(), kloc.getColumnNr(), value);
                }
            }
            for (ConfigNode m : merges) {
                merge(map, m);
            }
            return map;
        }

        /** YAML's merge key: the fields of a mapping (or of each mapping of a list, earlier first) this one lacks. */
        private void merge(ConfigNode.MapNode into, ConfigNode source) throws ConfigException {
            List<ConfigNode> sources = source instanceof ConfigNode.ListNode l ? l.items() : List.of(source);
            for (ConfigNode s : sources) {
                if (!(s instanceof ConfigNode.MapNode m)) {
                    errors.add(source, "a merge (<<) takes a mapping or a list of mappings, got " + s.describe());
                    continue;
                }
                for (Map.Entry<String, ConfigNode> e : m.fields().entrySet()) {
                    if (!into.fields().containsKey(e.getKey())) {
                        ConfigNode v = e.getValue();
                        into.put(e.getKey(), m.keyLine(e.getKey()), m.keyColumn(e.getKey()),
                                copy(v, into.childPath(e.getKey()), v.line(), v.column()));
                    }
                }
            }
        }

        private ConfigNode alias(String name, String path, int line, int col) throws ConfigException {
            ConfigNode target = anchors.get(name);
            if (target == null) {
                errors.add(file, line, col, path, "alias *" + name + " names no anchor defined before it");
                return new ConfigNode.ScalarNode(file, line, col, path, JsonToken.VALUE_NULL, null);
            }
            return copy(target, path, line, col);
        }

        /** A copy of {@code n} at a new path; its root at the given place, its children where they were written. */
        private ConfigNode copy(ConfigNode n, String path, int line, int col) throws ConfigException {
            count(1, line);
            if (n instanceof ConfigNode.ScalarNode s) {
                return new ConfigNode.ScalarNode(s.file(), line, col, path, s.token(), s.text());
            }
            if (n instanceof ConfigNode.ListNode l) {
                List<ConfigNode> items = new ArrayList<>();
                for (ConfigNode item : l.items()) {
                    items.add(copy(item, path + "[" + items.size() + "]", item.line(), item.column()));
                }
                return new ConfigNode.ListNode(l.file(), line, col, path, items);
            }
            ConfigNode.MapNode m = (ConfigNode.MapNode) n;
            ConfigNode.MapNode out = new ConfigNode.MapNode(m.file(), line, col, path);
            for (Map.Entry<String, ConfigNode> e : m.fields().entrySet()) {
                ConfigNode v = e.getValue();
                out.put(e.getKey(), m.keyLine(e.getKey()), m.keyColumn(e.getKey()),
                        copy(v, out.childPath(e.getKey()), v.line(), v.column()));
            }
            return out;
        }
    }
}
