package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;
import io.headroom.config.ClassConfig;
import io.headroom.config.WorkloadsFile;
import io.headroom.kube.KedaCorpus;
import io.headroom.kube.KubeClusterGateway;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26's round trip through the commands' own text, for every ScaledObject of the corpus (KEDA's
 * documentation and e2e templates, loaded into fabric8's CRUD mock API server): {@code import-keda}
 * prints the namespace's classes; the operator fills the signals KEDA does not know and saves the
 * workloads file; {@code export-keda} prints each class as a ScaledObject (checked against KEDA's CRD
 * schema), which is stored in place of the original (as {@code kubectl apply -f} would); and
 * {@code import-keda} again prints the same classes, entry for entry, exactly as the saved file has
 * them. A second export is the first, byte for byte.
 */
class KedaRoundTripCliTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    @TempDir
    Path dir;

    @Test
    void importExportImportIsExactForEveryCorpusObject() throws Exception {
        MockCluster cluster = api.cluster();
        for (KedaCorpus.Entry e : KedaCorpus.all()) {
            cluster.scaledObject(e.yaml());
        }
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "tok", "prod", cluster.url(), "default");
        int classes = 0;
        for (String ns : new TreeSet<>(KedaCorpus.all().stream().map(KedaCorpus.Entry::namespace).toList())) {
            SimulateCommandTest.Run first = importKeda(kubeconfig, ns);
            if (ns.equals("fallback-test-ns-rollout")) {
                assertEquals(1, first.code(), "nothing importable there: " + first.err());
                assertTrue(first.err().contains("skipped fallback-test-ns-rollout/fallback-test-so: it scales a Rollout;"
                        + " Headroom scales Deployments and StatefulSets"), first.err());
                continue;
            }
            assertEquals(0, first.code(), ns + ": " + first.err());

            // The operator's step: fill what KEDA does not know, save, and the file loads.
            Path file = dir.resolve(ns + ".yaml");
            String saved = "prometheus: {url: \"http://prometheus.monitoring:9090\"}\nclasses:\n"
                    + KedaCorpus.fillSignals(first.out());
            Files.writeString(file, saved);
            WorkloadsFile wf = WorkloadsFile.read(file);

            Map<String, String> exports = new LinkedHashMap<>();
            for (ClassConfig c : wf.classes()) {
                SimulateCommandTest.Run x = SimulateCommandTest.run("export-keda", "--config", file.toString(), "--class",
                        c.name());
                assertEquals(0, x.code(), c.name() + ": " + x.err());
                @SuppressWarnings("unchecked")
                Map<String, Object> object = new YAMLMapper().readValue(x.out(), Map.class);
                assertEquals(List.of(), io.headroom.kube.KedaCrdSchema.get().problems(object), x.out());
                exports.put(c.name(), x.out());
                classes++;
            }

            // kubectl apply -f of each export, in place of the original object.
            var sos = cluster.admin.genericKubernetesResources(KubeClusterGateway.SCALED_OBJECTS).inNamespace(ns);
            sos.delete();
            MockCluster.await("the originals gone from " + ns, java.time.Duration.ofSeconds(10),
                    () -> sos.list().getItems().isEmpty());
            for (String text : exports.values()) {
                cluster.scaledObject(text);
            }

            SimulateCommandTest.Run second = importKeda(kubeconfig, ns);
            assertEquals(0, second.code(), ns + ": " + second.err());
            assertEquals(entries(saved), entries(second.out()), ns + ": the second import is the saved file");

            Path again = dir.resolve(ns + "-again.yaml");
            Files.writeString(again, "prometheus: {url: \"http://prometheus.monitoring:9090\"}\nclasses:\n" + second.out());
            for (Map.Entry<String, String> x : exports.entrySet()) {
                SimulateCommandTest.Run y = SimulateCommandTest.run("export-keda", "--config", again.toString(), "--class",
                        x.getKey());
                assertEquals(x.getValue(), y.out(), x.getKey() + ": the second export is the first");
            }
        }
        assertTrue(classes >= 20, "round-tripped " + classes + " classes");
    }

    private SimulateCommandTest.Run importKeda(Path kubeconfig, String ns) {
        return SimulateCommandTest.run("import-keda", "--context", "prod", "--namespace", ns, "--kubeconfig",
                kubeconfig.toString());
    }

    /** The classes' lines, comments left out: the notes describe the source, the entries are the classes. */
    static List<String> entries(String text) {
        List<String> out = new ArrayList<>();
        boolean inClasses = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("classes:")) {
                inClasses = true;
                continue;
            }
            if (line.stripLeading().startsWith("#") || line.isBlank() || line.startsWith("prometheus:")) {
                continue;
            }
            if (inClasses || line.startsWith("- name: ") || line.startsWith("  ")) {
                out.add(line);
            }
        }
        return out;
    }
}
