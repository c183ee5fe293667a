package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code headroom plan} says when a class's kubeconfig context is insecure, though plan itself never calls it. */
class PlanContextWarningsTest {
    @TempDir
    Path dir;

    @Test
    void planWarnsAboutTheClassesInsecureContexts() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Path kubeconfig = dir.resolve("config.yaml");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                current-context: lab
                clusters:
                - {name: lab, cluster: {server: "https://10.20.30.40:6443", insecure-skip-tls-verify: true}}
                - {name: old, cluster: {server: "http://10.20.30.41:8080"}}
                - {name: safe, cluster: {server: "https://10.20.30.42:6443"}}
                contexts:
                - {name: lab, context: {cluster: lab, user: u}}
                - {name: old, context: {cluster: old, user: u}}
                - {name: safe, context: {cluster: safe, user: u}}
                users:
                - {name: u, user: {token: s3cr3t-t0ken}}
                """);
        Path workloads = dir.resolve("workloads.yaml");
        StringBuilder classes = new StringBuilder();
        for (String[] c : List.of(new String[] {"a", "lab"}, new String[] {"b", "old"}, new String[] {"c", "safe"})) {
            classes.append("  - {name: ").append(c[0]).append(", context: ").append(c[1])
                    .append(", namespace: work, target: {name: w}, signals: {queueLength: q, oldestAge: o,"
                            + " arrivalRate: r, meanService: s}}\n");
        }
        Files.writeString(workloads, "prometheus: {url: \"http://127.0.0.1:" + closed + "\", timeoutSeconds: 1}\n"
                + "classes:\n" + classes);

        String before = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", kubeconfig.toString());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            Cli.run(new String[] {"plan", "--config", workloads.toString(), "--once", "--replicas", "a=1",
                            "--replicas", "b=1", "--replicas", "c=1"},
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        }
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("context 'lab'") && e.contains("TLS verification is OFF"), e);
        assertTrue(e.contains("context 'old'") && e.contains("plain http"), e);
        assertFalse(e.contains("context 'safe'"), e);
        assertFalse(e.contains("s3cr3t-t0ken"), e);
    }
}
