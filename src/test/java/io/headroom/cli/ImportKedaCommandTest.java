package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom import-keda} against a (mock) cluster with a ScaledObject, as an operator runs it. */
class ImportKedaCommandTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();

    /** A cluster with shop/orders and its ScaledObject; its kubeconfig (context prod) in {@code dir}. */
    private Path ordersInShop(Path dir) throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("shop", "orders", 2);
        cluster.scaledObject(MockCluster.ORDERS_SCALED_OBJECT);
        return MockCluster.kubeconfig(dir, "config.yaml", "prod", "tok", "prod", cluster.url(), "shop");
    }

    @Test
    void printsTheScaledObjectsAsEntriesToReviewAndWritesANewFile(@TempDir Path dir) throws Exception {
        Path kubeconfig = ordersInShop(dir);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.run(new String[] {"import-keda", "--context", "prod", "--namespace", "shop",
            "--kubeconfig", kubeconfig.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("- name: orders-so"), text);
        assertTrue(text.contains("context: prod") && text.contains("namespace: shop"), text);
        assertTrue(text.contains("# oldestAge: <PromQL>"), "required signals left to fill: " + text);
        assertFalse(text.contains("hunter2"), "trigger secrets are never copied");

        Path file = dir.resolve("imported.yaml");
        String[] write = {"import-keda", "--context", "prod", "--namespace", "shop", "--kubeconfig",
            kubeconfig.toString(), "--out", file.toString()};
        assertEquals(0, Cli.run(write, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err)));
        assertTrue(Files.readString(file).contains("- name: orders-so"));
        assertEquals(2, Cli.run(write, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())), "never overwrites");
        assertEquals(1, Cli.run(new String[] {"import-keda", "--context", "prod", "--namespace", "empty",
            "--kubeconfig", kubeconfig.toString()}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream())), "nothing to import is said, with exit 1");
    }

    /** --out never overwrites: not even a file that appears after the options were checked, before the write. */
    @Test
    void outLeavesAFileThatAppearedWhileTheClusterWasRead(@TempDir Path dir) throws Exception {
        Path kubeconfig = ordersInShop(dir);
        Path file = dir.resolve("imported.yaml");
        // The environment is read once the options are checked (the kubeconfig's plain-http allowance):
        // another program's file appears then.
        UnaryOperator<String> env = name -> {
            try {
                if (!Files.exists(file)) {
                    Files.writeString(file, "someone else's\n");
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return System.getenv(name);
        };

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.execute(new ImportCommand(env), List.of("--context", "prod", "--namespace", "shop",
                "--kubeconfig", kubeconfig.toString(), "--out", file.toString()), System.in,
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.FAILED, code, said);
        assertEquals("someone else's\n", Files.readString(file), "the other program's file is left as it was");
        assertTrue(said.contains("headroom import-keda: cannot write " + file), said);
    }

    /** Issue 26: one bad object failed the whole namespace, unnamed; a paused one imported as active without a word. */
    @Test
    void aBadObjectIsNamedOnStandardErrorAndThePausedOneSaysSo(@TempDir Path dir) throws Exception {
        MockCluster cluster = api.cluster();
        cluster.scaledObject(MockCluster.ORDERS_SCALED_OBJECT);
        cluster.scaledObject("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata: {name: rollout-so, namespace: shop}
                spec:
                  scaleTargetRef: {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: web}
                  triggers:
                    - type: prometheus
                      metadata: {query: "sum(q)", threshold: "1"}
                """);
        cluster.scaledObject("""
                apiVersion: keda.sh/v1alpha1
                kind: ScaledObject
                metadata:
                  name: mail-so
                  namespace: shop
                  annotations: {autoscaling.keda.sh/paused: "true"}
                spec:
                  scaleTargetRef: {name: mailer}
                  triggers:
                    - type: prometheus
                      metadata: {query: "sum(mail_queue)", threshold: "5"}
                """);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "tok", "prod", cluster.url(), "shop");
        SimulateCommandTest.Run r = SimulateCommandTest.run("import-keda", "--context", "prod", "--namespace", "shop",
                "--kubeconfig", kubeconfig.toString());
        String text = r.out();
        String errors = r.err();
        assertEquals(0, r.code(), errors);
        assertTrue(errors.contains("headroom import-keda: skipped shop/rollout-so: it scales a Rollout; Headroom scales"
                + " Deployments and StatefulSets"), errors);
        assertTrue(errors.contains("headroom import-keda: shop/mail-so is paused in KEDA: keep its class in observe"
                + " mode until the pause is lifted"), errors);
        assertTrue(text.contains("# skipped shop/rollout-so: it scales a Rollout"), "the saved text says it too: " + text);
        assertTrue(text.contains("- name: orders-so") && text.contains("- name: mail-so"), "the others are imported");
        assertTrue(text.contains("# PAUSED in KEDA: paused (autoscaling.keda.sh/paused)"), text);
        assertFalse(text.contains("- name: rollout-so"), text);
    }
}
