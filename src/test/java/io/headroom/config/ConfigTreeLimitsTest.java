package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files that are not what a config file should be (a directory, a loop, another encoding, a second
 * document, an alias, an enormous line) are refused with {@code FILE:LINE: …}, never half-believed.
 */
class ConfigTreeLimitsTest {

    /** FILE:LINE: then the rest; every problem has a line. */
    static final Pattern LOCATED = Pattern.compile("^[^:\\s]+:[1-9][0-9]*: \\S.*");

    static ConfigNode.MapNode yaml(String text) throws ConfigException {
        return assertInstanceOf(ConfigNode.MapNode.class, ConfigTree.parse("x.yaml", text, ConfigTree.Format.YAML));
    }

    static ConfigException refused(String text) {
        return assertThrows(ConfigException.class, () -> ConfigTree.parse("x.yaml", text, ConfigTree.Format.YAML));
    }

    static void assertLocated(ConfigException e) {
        for (ConfigException.Problem p : e.problems()) {
            assertTrue(LOCATED.matcher(p.toString()).matches(), "not FILE:LINE: …: " + p);
        }
    }

    static String text(ConfigNode n) {
        return assertInstanceOf(ConfigNode.ScalarNode.class, n).text();
    }

    // ------------------------------------------------------------ aliases

    @Test
    void aScalarAliasIsTheAnchoredValueNotTheAnchorName() throws ConfigException {
        ConfigNode.MapNode root = yaml("a: &q sum(rate(jobs_total[1m]))\nb: *q\n");
        assertEquals("sum(rate(jobs_total[1m]))", text(root.fields().get("b")));
        assertEquals("b", root.fields().get("b").path());
        assertEquals(2, root.fields().get("b").line(), "located where the alias is used");
    }

    @Test
    void aMappingAliasIsCopiedWithItsOwnPaths() throws ConfigException {
        ConfigNode.MapNode root = yaml("""
                shared: &p
                  targetUtilization: 0.5
                  maxReplicas: 10
                classes:
                  - policy: *p
                  - policy: *p
                """);
        ConfigNode.ListNode classes = assertInstanceOf(ConfigNode.ListNode.class, root.fields().get("classes"));
        ConfigNode.MapNode second = assertInstanceOf(ConfigNode.MapNode.class, classes.items().get(1));
        ConfigNode.MapNode policy = assertInstanceOf(ConfigNode.MapNode.class, second.fields().get("policy"));
        ConfigNode u = policy.fields().get("targetUtilization");
        assertEquals("0.5", text(u));
        assertEquals("classes[1].policy.targetUtilization", u.path(), "a problem in it names where it is used");
        assertEquals(2, u.line(), "and the line it is written on");
    }

    @Test
    void mergeKeysTakeTheAnchoredFieldsAndExplicitFieldsWin() throws ConfigException {
        ConfigNode.MapNode root = yaml("""
                base: &b {targetUtilization: 0.5, maxReplicas: 10}
                policy:
                  <<: *b
                  maxReplicas: 20
                """);
        ConfigNode.MapNode policy = assertInstanceOf(ConfigNode.MapNode.class, root.fields().get("policy"));
        assertEquals(List.of("maxReplicas", "targetUtilization"), List.copyOf(policy.fields().keySet()));
        assertEquals("20", text(policy.fields().get("maxReplicas")));
        assertEquals("0.5", text(policy.fields().get("targetUtilization")));
        assertEquals("policy.targetUtilization", policy.fields().get("targetUtilization").path());

        ConfigNode.MapNode two = yaml("a: &a {x: 1}\nb: &b {x: 2, y: 2}\nc: {<<: [*a, *b]}\n");
        ConfigNode.MapNode c = assertInstanceOf(ConfigNode.MapNode.class, two.fields().get("c"));
        assertEquals("1", text(c.fields().get("x")), "the earlier mapping of a merge list wins");
        assertEquals("2", text(c.fields().get("y")));
        assertEquals("x.yaml:1: c.<<: a merge (<<) takes a mapping or a list of mappings, got a number (3)",
                refused("c: {<<: 3}\n").getMessage());
    }

    @Test
    void anAliasToNothingIsRefusedAtItsLine() {
        ConfigException e = refused("a: 1\nb: *nowhere\n");
        assertEquals("x.yaml:2: b: alias *nowhere names no anchor defined before it", e.getMessage());
    }

    @Test
    void aliasesThatMultiplyAreRefusedByCountingValues() {
        // "Billion laughs": nine levels of nine aliases are 9^9 values once expanded.
        StringBuilder sb = new StringBuilder("l0: &l0 [x, x, x, x, x, x, x, x, x]\n");
        for (int i = 1; i <= 9; i++) {
            String prev = "*l" + (i - 1);
            sb.append("l").append(i).append(": &l").append(i).append(" [").append(String.join(", ",
                    java.util.Collections.nCopies(9, prev))).append("]\n");
        }
        ConfigException e = refused(sb.toString());
        assertTrue(e.getMessage().contains("more than " + ConfigTree.MAX_VALUES + " values"), e.getMessage());
        assertLocated(e);
    }

    // ------------------------------------------------------------ documents, characters, sizes

    @Test
    void aSecondDocumentIsRefusedNotIgnored() {
        ConfigException e = refused("a: 1\n---\nb: 2\n");
        assertTrue(e.getMessage().startsWith("x.yaml:3: a second YAML document starts here"), e.getMessage());
        ConfigException json = assertThrows(ConfigException.class,
                () -> ConfigTree.parse("x.json", "{\"a\": 1}\n{\"b\": 2}", ConfigTree.Format.JSON));
        assertTrue(json.getMessage().startsWith("x.json:2: "), json.getMessage());
        assertTrue(json.getMessage().contains("after the first"), json.getMessage());
    }

    @Test
    void controlCharactersInValuesAreRefusedWithoutEchoingThem() {
        ConfigException e = refused("name: \"\\e]0;pwned\\a\\e[2J\"\n");
        assertEquals("x.yaml:1: name: contains a control character (U+001B); a config value is plain text",
                e.getMessage());
        ConfigException bidi = refused("name: \"abc\\u202Edef\"\n");
        assertTrue(bidi.getMessage().contains("U+202E"), bidi.getMessage());
        ConfigException json = assertThrows(ConfigException.class, () -> ConfigTree.parse("x.json",
                "{\"a\\u001b\": 1}", ConfigTree.Format.JSON));
        assertTrue(json.getMessage().startsWith("x.json:1: "), json.getMessage());
        assertFalse(json.getMessage().contains("\u001b"));
        // Line breaks and tabs are text (multi-line PromQL).
        assertEquals("sum(x)\n  / 2\n", assertDoesNotThrowText("q: |\n  sum(x)\n    / 2\n"));
    }

    static String assertDoesNotThrowText(String yaml) {
        try {
            return text(yaml(yaml).fields().get("q"));
        } catch (ConfigException e) {
            throw new AssertionError(e.getMessage(), e);
        }
    }

    @Test
    void aVeryLongYamlLineIsRefusedBeforeTheParserSeesIt() {
        // SnakeYAML scans a long comment or scalar in time growing with its length squared: a 50 MB line took minutes.
        String line = "# " + "x".repeat(ConfigTree.MAX_YAML_LINE);
        ConfigException e = refused("a: 1\n" + line + "\n");
        assertEquals("x.yaml:2: the line is " + line.length() + " characters long; a YAML line may have at most "
                + ConfigTree.MAX_YAML_LINE, e.getMessage());
    }

    @Test
    void aDeeplyNestedFileIsRefusedWithALine() {
        ConfigException e = refused("a: " + "[".repeat(5000));
        assertLocated(e);
    }

    // ------------------------------------------------------------ files

    @Test
    void aFileLargerThanTheCapIsRefusedBeforeReading(@TempDir Path dir) throws Exception {
        Path big = dir.resolve("big.yaml");
        byte[] bytes = new byte[50 * 1024 * 1024];
        java.util.Arrays.fill(bytes, (byte) 'x');
        bytes[0] = '#';
        Files.write(big, bytes);
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigTree.parse(big));
        assertEquals("big.yaml:1: the file is 52428800 bytes; a config file may have at most "
                + ConfigTree.MAX_BYTES + " bytes", e.getMessage());
    }

    @Test
    void aFileThatIsNotUtf8NamesTheLineOfTheFirstBadByte(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("latin1.yaml");
        Files.write(f, "name: a\nclasses:\n  - name: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigTree.parse(f));
        assertEquals("latin1.yaml:3: not UTF-8 text (byte 0xE9 at column 14); save the file as UTF-8",
                e.getMessage());
    }

    @Test
    void aUtf8ByteOrderMarkIsSkipped(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bom.yaml");
        Files.write(f, ("\ufeffa: 1\n").getBytes(StandardCharsets.UTF_8));
        ConfigNode.MapNode root = assertInstanceOf(ConfigNode.MapNode.class, ConfigTree.parse(f));
        assertEquals(List.of("a"), List.copyOf(root.fields().keySet()));
    }

    @Test
    void aDirectoryALoopAndAMissingFileAreLocatedToo(@TempDir Path dir) throws Exception {
        Path d = Files.createDirectory(dir.resolve("conf.yaml"));
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigTree.parse(d));
        assertEquals("conf.yaml:1: is a directory, not a file", e.getMessage());

        Path a = dir.resolve("a.yaml");
        Path b = dir.resolve("b.yaml");
        Files.createSymbolicLink(a, b);
        Files.createSymbolicLink(b, a);
        ConfigException loop = assertThrows(ConfigException.class, () -> ConfigTree.parse(a));
        assertEquals("a.yaml:1: cannot be read: a loop of symbolic links", loop.getMessage());

        ConfigException missing = assertThrows(ConfigException.class, () -> ConfigTree.parse(dir.resolve("no.yaml")));
        assertEquals("no.yaml:1: no such file: " + dir.resolve("no.yaml"), missing.getMessage());
    }
}
