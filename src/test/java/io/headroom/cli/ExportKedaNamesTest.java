package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.headroom.kube.MockCluster;
import io.headroom.kube.ScaledObjectImport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code export-keda} of a class whose name no Kubernetes object may have (issue 27 item 7): it wrote
 * {@code Payments_Worker.v2}, unicode and 300-character names as {@code metadata.name} with exit 0. The
 * name is now made into one KEDA accepts (a DNS-1123 label of at most 54 characters: KEDA names its HPA
 * {@code keda-hpa-NAME}), said on standard error and in the notes, and the class's own name rides in the
 * {@code headroom.io/class} annotation, so import-keda gives it back.
 */
class ExportKedaNamesTest {
    @TempDir
    Path dir;

    static Stream<String> names() {
        return Stream.of("Payments_Worker.v2", "платежи", "a".repeat(300), "-orders-", "Ⅻ worker 😀");
    }

    Path workloads(String name) throws Exception {
        Path p = dir.resolve("w.yaml");
        Files.writeString(p, MockCluster.workloads("http://127.0.0.1:9", "placeholder", "prod", "shop", "orders")
                .replace("placeholder", "\"" + name + "\""));
        return p;
    }

    @ParameterizedTest
    @MethodSource("names")
    void aClassNameNoKubernetesObjectMayHaveIsMadeIntoOneAndSaid(String name) throws Exception {
        SimulateCommandTest.Run r = SimulateCommandTest.run("export-keda", "--config", workloads(name).toString(),
                "--class", name);
        assertEquals(0, r.code(), r.err());
        GenericKubernetesResource so = Serialization.unmarshal(r.out(), GenericKubernetesResource.class);
        String exported = so.getMetadata().getName();
        assertTrue(exported.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") && exported.length() <= 54,
                "a DNS-1123 label KEDA accepts: " + exported);
        assertTrue(r.err().contains("headroom export-keda: metadata.name: the class name") && r.err().contains("exported as '"
                + exported + "'"), r.err());
        assertTrue(r.out().contains("# metadata.name: the class name"), "the notes say it too: " + r.out());
        assertEquals(name, ScaledObjectImport.from(so, "prod").name(), "import-keda gives the class's own name back");
    }

    @Test
    void distinctLongNamesStayDistinct() throws Exception {
        String a = "x".repeat(100) + "a";
        String b = "x".repeat(100) + "b";
        String na = Serialization.unmarshal(SimulateCommandTest.run("export-keda", "--config", workloads(a).toString(),
                "--class", a).out(), GenericKubernetesResource.class).getMetadata().getName();
        String nb = Serialization.unmarshal(SimulateCommandTest.run("export-keda", "--config", workloads(b).toString(),
                "--class", b).out(), GenericKubernetesResource.class).getMetadata().getName();
        assertFalse(na.equals(nb), na);
    }

    @Test
    void aNameKedaAcceptsIsKeptAsItIs() throws Exception {
        SimulateCommandTest.Run r = SimulateCommandTest.run("export-keda", "--config", workloads("orders-v2").toString(),
                "--class", "orders-v2");
        assertEquals(0, r.code(), r.err());
        assertEquals("orders-v2", Serialization.unmarshal(r.out(), GenericKubernetesResource.class).getMetadata().getName());
        assertEquals("", r.err());
        assertFalse(r.out().contains("# metadata.name:"), r.out());
    }
}
