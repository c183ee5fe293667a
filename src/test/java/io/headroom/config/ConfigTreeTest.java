package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ConfigTreeTest {

    @Test
    void nodesRememberLineColumnAndPath() throws ConfigException {
        ConfigNode root = ConfigTree.parse("x.yaml", """
                name: demo
                classes:
                  - name: a
                    policy:
                      targetUtilization: 0.5
                """, ConfigTree.Format.YAML);
        ConfigNode.MapNode map = assertInstanceOf(ConfigNode.MapNode.class, root);
        ConfigNode.ListNode classes = assertInstanceOf(ConfigNode.ListNode.class, map.fields().get("classes"));
        ConfigNode.MapNode first = assertInstanceOf(ConfigNode.MapNode.class, classes.items().get(0));
        ConfigNode.MapNode policy = assertInstanceOf(ConfigNode.MapNode.class, first.fields().get("policy"));
        ConfigNode u = policy.fields().get("targetUtilization");
        assertEquals("classes[0].policy.targetUtilization", u.path());
        assertEquals(5, u.line());
        assertEquals(26, u.column());
        assertEquals(4, first.keyLine("policy"));
    }

    @Test
    void malformedYamlNamesTheLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigTree.parse("bad.yaml",
                "name: a\nclasses:\n  - name: [b\n", ConfigTree.Format.YAML));
        assertTrue(e.getMessage().startsWith("bad.yaml:"), e.getMessage());
        assertTrue(e.getMessage().contains("malformed YAML"), e.getMessage());
        assertTrue(e.first().line() >= 3, e.getMessage());
    }

    @Test
    void duplicateKeysAreErrors() {
        ConfigException e = assertThrows(ConfigException.class, () -> ConfigTree.parse("d.yaml",
                "a: 1\nb: 2\na: 3\n", ConfigTree.Format.YAML));
        assertEquals("d.yaml:3: a: duplicate field (first at line 1)", e.getMessage());
    }

    @Test
    void emptyFilesAndUnknownExtensionsAreRefused() {
        assertEquals("e.yaml:1: the file is empty", assertThrows(ConfigException.class,
                () -> ConfigTree.parse("e.yaml", "", ConfigTree.Format.YAML)).getMessage());
        assertEquals("s.toml:1: unknown file type; use .yaml, .yml or .json", assertThrows(ConfigException.class,
                () -> ConfigTree.formatOf(Path.of("dir/s.toml"))).getMessage());
    }

    /** Plain scalars are typed as Jackson 2 (SnakeYAML, YAML 1.1) typed them: kubeconfigs and workloads files keep their meaning. */
    @Test
    void plainScalarsKeepTheirYaml11Types() throws Exception {
        ConfigNode.MapNode m = assertInstanceOf(ConfigNode.MapNode.class, ConfigTree.parse("t.yaml", """
                a: yes
                b: on
                c: off
                d: True
                e: ~
                f: 0x1F
                g: "yes"
                h: 12:30
                i: 1.5
                """, ConfigTree.Format.YAML));
        String[][] expected = {{"a", "VALUE_TRUE"}, {"b", "VALUE_TRUE"}, {"c", "VALUE_FALSE"}, {"d", "VALUE_TRUE"},
            {"e", "VALUE_NULL"}, {"f", "VALUE_NUMBER_INT"}, {"g", "VALUE_STRING"}, {"h", "VALUE_STRING"},
            {"i", "VALUE_NUMBER_FLOAT"}};
        for (String[] e : expected) {
            ConfigNode.ScalarNode n = assertInstanceOf(ConfigNode.ScalarNode.class, m.fields().get(e[0]), e[0]);
            assertEquals(e[1], n.token().name(), e[0]);
        }
    }
}
