package io.headroom.kube;

import io.headroom.decision.SignalName;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The ScaledObjects of {@code src/test/resources/keda/corpus/}: real objects from KEDA's documentation
 * and end-to-end test templates (each file names its source), for the import, export and round-trip
 * tests. Also the answers the CLI round trip needs: the signals an operator fills in.
 */
public final class KedaCorpus {
    private KedaCorpus() {
    }

    /** One corpus file. */
    public record Entry(String file, String yaml, GenericKubernetesResource object) {
        public String namespace() {
            return object.getMetadata().getNamespace();
        }

        public String name() {
            return object.getMetadata().getName();
        }

        @Override
        public String toString() {
            return file;
        }
    }

    /** Every corpus file, by name. */
    public static List<Entry> all() {
        try {
            Path dir = Path.of(KedaCorpus.class.getResource("/keda/corpus").toURI());
            List<Entry> out = new ArrayList<>();
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : files.sorted().toList()) {
                    String yaml = Files.readString(f, StandardCharsets.UTF_8);
                    out.add(new Entry(f.getFileName().toString(), yaml,
                            new KubernetesSerialization().unmarshal(yaml, GenericKubernetesResource.class)));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Entry get(String file) {
        return all().stream().filter(e -> e.file().equals(file)).findFirst().orElseThrow();
    }

    /**
     * The operator's step between import and load: each required signal left as a comment gets a
     * query of its own (one per class and signal, so nothing is shared by accident).
     */
    public static String fillSignals(String importText) {
        StringBuilder out = new StringBuilder();
        String cls = "?";
        for (String line : importText.split("\n", -1)) {
            if (line.startsWith("- name: ")) {
                cls = line.substring("- name: ".length()).strip();
            }
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\s+)# (\\w+): <PromQL>.*$").matcher(line);
            if (m.matches()) {
                out.append(m.group(1)).append(m.group(2)).append(": ").append(fillQuery(cls, m.group(2))).append('\n');
            } else {
                out.append(line).append('\n');
            }
        }
        return out.substring(0, out.length() - 1);
    }

    /**
     * The query {@link #fillSignals} writes for one class's signal: a plain YAML scalar as Headroom writes
     * it (a query with quotes in it would come back in the writer's own quoting, the same string).
     */
    public static String fillQuery(String cls, String signal) {
        return "max(filled_" + signal.toLowerCase(java.util.Locale.ROOT) + "_" + cls.replaceAll("[^A-Za-z0-9_]", "_")
                + ")";
    }

    /** The queries of an imported class with the required ones it lacks filled in as {@link #fillSignals} does. */
    public static Map<SignalName, String> filled(ImportedClass c) {
        Map<SignalName, String> q = new java.util.LinkedHashMap<>(c.signals());
        for (SignalName s : ImportedClass.REQUIRED_SIGNALS) {
            q.putIfAbsent(s, fillQuery(c.name(), s.id()));
        }
        return q;
    }
}
