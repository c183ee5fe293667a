package io.headroom.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Enforces the layers by reading the sources: the decision core is pure (no JavaFX, fabric8 or
 * OkHttp, and nothing of ours but itself); only the UI may use JavaFX.
 */
class LayerTest {
    static final Path MAIN = Path.of("src/main/java/io/headroom");
    /** Package references written out in full count as much as imports do. */
    static final Pattern REFERENCE = Pattern.compile("\\b(javafx|io\\.fabric8|okhttp3|okio|com\\.squareup|io\\.headroom)"
            + "(\\.[a-zA-Z_][\\w]*)+");

    @Test
    void decisionCoreImportsNothingFromJavaFxFabric8OrOkHttp() throws IOException {
        List<String> violations = references("decision", List.of("javafx", "io.fabric8", "okhttp3", "com.squareup"));
        assertEquals(List.of(), violations);
    }

    @Test
    void decisionCoreDependsOnNoOtherHeadroomPackage() throws IOException {
        List<String> violations = new ArrayList<>();
        for (String ref : allReferences("decision")) {
            if (ref.contains("io.headroom.") && !ref.contains("io.headroom.decision")) {
                violations.add(ref);
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void baselinesArePureAndSeeOnlyTheDecisionCore() throws IOException {
        List<String> violations = new ArrayList<>(references("baseline", List.of("javafx", "io.fabric8", "okhttp3")));
        for (String ref : allReferences("baseline")) {
            if (ref.contains("io.headroom.") && !ref.contains("io.headroom.decision") && !ref.contains("io.headroom.baseline")) {
                violations.add(ref);
            }
        }
        assertEquals(List.of(), violations, "the rules Headroom is judged against are pure deciders, like its own");
        assertFalse(allReferences("baseline").isEmpty(), "the scanner sees the package");
    }

    @Test
    void drainStepsArePureAndSeeOnlyTheClusterPort() throws IOException {
        List<String> violations = new ArrayList<>(references("drain", List.of("javafx", "io.fabric8", "okhttp3")));
        for (String ref : allReferences("drain")) {
            if (ref.contains("io.headroom.") && !ref.contains("io.headroom.drain") && !ref.contains("io.headroom.cluster")) {
                violations.add(ref);
            }
        }
        assertEquals(List.of(), violations, "drain plans and steps are data; the supervisor carries them out");
        assertFalse(allReferences("drain").isEmpty(), "the scanner sees the package");
    }

    @Test
    void onlyTheUiAndLauncherUseJavaFx() throws IOException {
        for (String pkg : List.of("decision", "loop", "sandbox", "sim", "cluster", "metrics", "config", "time",
                "session", "supervise", "drain", "whatif", "journal", "prometheus", "kube")) {
            assertEquals(List.of(), references(pkg, List.of("javafx")), pkg + " must not use JavaFX");
        }
    }

    @Test
    void onlyThePrometheusAdapterUsesOkHttp() throws IOException {
        for (String pkg : List.of("decision", "loop", "sandbox", "sim", "metrics", "config", "time", "session", "cli",
                "ui", "supervise", "journal", "cluster", "kube")) {
            assertEquals(List.of(), references(pkg, List.of("okhttp3", "okio")), pkg + " must not use OkHttp");
        }
        assertFalse(references("prometheus", List.of("okhttp3")).isEmpty(), "the scanner sees the adapter's use");
    }

    @Test
    void onlyTheKubeAdapterUsesFabric8() throws IOException {
        for (String pkg : List.of("decision", "loop", "sandbox", "sim", "cluster", "metrics", "config", "time",
                "session", "ui", "cli", "supervise", "journal", "prometheus")) {
            assertEquals(List.of(), references(pkg, List.of("io.fabric8")), pkg + " must reach Kubernetes through ClusterGateway");
        }
        assertFalse(references("kube", List.of("io.fabric8")).isEmpty(), "the scanner sees the adapter's fabric8 use");
        assertEquals(List.of(), references("kube", List.of("javafx")), "kube must not use JavaFX");
    }

    @Test
    void theCheckSeesViolations() throws IOException {
        // Guard against a scanner that silently finds nothing: the UI does use JavaFX.
        assertFalse(references("ui", List.of("javafx")).isEmpty());
        assertTrue(Files.isDirectory(MAIN.resolve("decision")));
    }

    private static List<String> references(String pkg, List<String> forbidden) throws IOException {
        List<String> out = new ArrayList<>();
        for (String ref : allReferences(pkg)) {
            for (String f : forbidden) {
                if (ref.split(": ", 2)[1].startsWith(f + ".")) {
                    out.add(ref);
                }
            }
        }
        return out;
    }

    private static List<String> allReferences(String pkg) throws IOException {
        Path dir = MAIN.resolve(pkg);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String src = stripComments(Files.readString(f));
                Matcher m = REFERENCE.matcher(src);
                while (m.find()) {
                    out.add(MAIN.relativize(f) + ": " + m.group());
                }
            }
        }
        return out;
    }

    private static String stripComments(String src) {
        return src.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\\n]*", " ");
    }
}
