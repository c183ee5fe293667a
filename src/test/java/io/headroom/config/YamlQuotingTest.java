package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.dataformat.yaml.YAMLMapper;
import tools.jackson.dataformat.yaml.YAMLWriteFeature;

/** Strings that YAML 1.1 readers (kubectl, KEDA) would take for numbers stay strings in the YAML we write. */
class YamlQuotingTest {

    @Test
    void yaml11NumbersWrittenAsStringsAreReadBackAsStringsByAYaml11Reader() {
        // As ScaledObjectExport writes: minimal quotes, but every string that reads as a number quoted.
        YAMLMapper yaml = YAMLMapper.builder(YamlQuoting.factory()).enable(YAMLWriteFeature.MINIMIZE_QUOTES)
                .enable(YAMLWriteFeature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS).build();
        Map<String, Object> in = new LinkedHashMap<>();
        for (String s : List.of("0x1F", "1_000", "0b101", "-2_5", "yes", "on", "null", "10", "1e3", "plain text", "5m")) {
            in.put("k" + in.size(), s);
        }
        String text = yaml.writeValueAsString(in);
        Map<String, Object> back = new org.yaml.snakeyaml.Yaml().load(text);
        assertEquals(in, back, text);
    }

    @Test
    void plainWordsStayUnquoted() {
        YAMLMapper yaml = YAMLMapper.builder(YamlQuoting.factory()).enable(YAMLWriteFeature.MINIMIZE_QUOTES).build();
        assertEquals("a: plain text\nb: 5m\n", yaml.writeValueAsString(Map.of("a", "plain text")).replace("---\n", "")
                + yaml.writeValueAsString(Map.of("b", "5m")).replace("---\n", ""));
    }
}
