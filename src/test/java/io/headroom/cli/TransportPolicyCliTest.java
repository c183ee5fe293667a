package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.kube.Contexts;
import io.headroom.kube.MockCluster;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One policy for how a kubeconfig context reaches its API server, said by every command (issue 27 item
 * 5): TLS verification off and allowed plain-http credentials are warnings on standard error before
 * anything is sent; credentials over plain http to another host are refused unless
 * {@code HEADROOM_ALLOW_PLAIN_HTTP_CREDENTIALS} names the context, with {@code --kubeconfig} as without.
 */
class TransportPolicyCliTest {
    static final String TOKEN = "tok-9f8e7d6c5b4a39281706";
    static final String ALLOW = "HEADROOM_ALLOW_PLAIN_HTTP_CREDENTIALS";
    /** A host that is not this machine and does not resolve: nothing is ever sent to it. */
    static final String FAR = "http://kube.invalid:8080";

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run run(CliCommand command, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Cli.execute(command, List.of(args), new ByteArrayInputStream("n\n".getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static UnaryOperator<String> env(Map<String, String> vars) {
        return vars::get;
    }

    Path kubeconfig(String server, boolean insecure) throws Exception {
        Path p = dir.resolve("config-" + System.nanoTime() + ".yaml");
        Files.writeString(p, """
                apiVersion: v1
                kind: Config
                current-context: prod
                clusters:
                - name: c
                  cluster:
                    server: %s
                    insecure-skip-tls-verify: %s
                contexts:
                - name: prod
                  context: {cluster: c, user: u, namespace: shop}
                users:
                - name: u
                  user: {token: %s}
                """.formatted(server, insecure, TOKEN));
        return p;
    }

    Path workloads() throws Exception {
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, MockCluster.workloads("http://127.0.0.1:9", "orders", "prod", "shop", "orders"));
        return p;
    }

    @Test
    void importKedaSaysTlsVerificationIsOffBeforeItSendsTheToken() throws Exception {
        // It imported from a self-signed server under another name and said nothing.
        try (MockCluster cluster = MockCluster.withSelfSignedTls()) {
            cluster.scaledObject(MockCluster.ORDERS_SCALED_OBJECT);
            Path cfg = kubeconfig(cluster.url(), true);
            Run r = run(new ImportCommand(env(Map.of())), "--context", "prod", "--namespace", "shop",
                    "--kubeconfig", cfg.toString());
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("- name: orders-so"), r.out());
            assertTrue(r.err().startsWith("headroom import-keda: warning: TLS verification is OFF for context 'prod'"),
                    "said first, before anything else: " + r.err());
            assertTrue(r.err().contains("its credentials (token) go to whoever answers"), r.err());
            assertFalse(r.err().contains(TOKEN), r.err());
        }
    }

    @Test
    void importKedaWithAnExplicitKubeconfigHonoursTheAllowanceItsRefusalRecommends() throws Exception {
        Path cfg = kubeconfig(FAR, false);
        Run refused = run(new ImportCommand(env(Map.of())), "--context", "prod", "--namespace", "shop",
                "--kubeconfig", cfg.toString());
        assertEquals(1, refused.code());
        assertTrue(refused.err().contains("refused; use https, or allow it explicitly with " + ALLOW + "=prod"),
                refused.err());

        Run allowed = run(new ImportCommand(env(Map.of(ALLOW, "prod"))), "--context", "prod", "--namespace", "shop",
                "--kubeconfig", cfg.toString());
        assertTrue(allowed.err().startsWith("headroom import-keda: warning: context 'prod' sends credentials (token) over"
                + " plain http to " + FAR + ", unencrypted (allowed by " + ALLOW + ")"), allowed.err());
        assertFalse(allowed.err().contains("refused"), "the allowance works with --kubeconfig: " + allowed.err());
        assertEquals(1, allowed.code(), "then the host does not answer: " + allowed.err());
        assertFalse(allowed.err().contains(TOKEN), allowed.err());
    }

    @Test
    void exportKedaApplyWithAnExplicitKubeconfigHonoursTheAllowanceAndWarns() throws Exception {
        Path cfg = kubeconfig(FAR, false);
        Path w = workloads();
        String[] args = {"--config", w.toString(), "--class", "orders", "--apply", "--kubeconfig", cfg.toString()};
        Run refused = run(new ExportCommand(() -> Contexts.load(List.of()), env(Map.of())), args);
        assertEquals(1, refused.code());
        assertTrue(refused.err().contains("refused; use https, or allow it explicitly with " + ALLOW + "=prod"),
                refused.err());

        Run allowed = run(new ExportCommand(() -> Contexts.load(List.of()), env(Map.of(ALLOW, "*"))), args);
        assertTrue(allowed.err().startsWith("headroom export-keda: warning: context 'prod' sends credentials (token)"
                + " over plain http to " + FAR), allowed.err());
        assertFalse(allowed.err().contains("refused"), allowed.err());
    }

    @Test
    void contextsSaysEachContextsWarningsOnStandardErrorAndHonoursTheAllowance() throws Exception {
        Path tls = kubeconfig("https://10.20.30.40:6443", true);
        Run table = run(new ContextsCommand(() -> Contexts.load(List.of()), env(Map.of())), "--kubeconfig", tls.toString());
        assertEquals(0, table.code());
        assertTrue(table.err().contains("headroom contexts: warning: TLS verification is OFF for context 'prod'"),
                "the table says it, not only --json: " + table.err());

        Path far = kubeconfig(FAR, false);
        Run refused = run(new ContextsCommand(() -> Contexts.load(List.of()), env(Map.of())), "--kubeconfig", far.toString());
        assertTrue(refused.err().contains("headroom contexts: warning: context 'prod' would send credentials (token)"
                + " over plain http to " + FAR + ": refused"), refused.err());
        Run allowed = run(new ContextsCommand(() -> Contexts.load(List.of()), env(Map.of(ALLOW, "prod"))),
                "--kubeconfig", far.toString(), "--json");
        assertTrue(allowed.out().contains("unencrypted (allowed by " + ALLOW + ")"), allowed.out());
        assertFalse(allowed.out().contains(TOKEN) || allowed.err().contains(TOKEN));
    }

    @Test
    void planSaysTheAllowanceFromItsOwnEnvironment() throws Exception {
        Path far = kubeconfig(FAR, false);
        Path w = workloads();
        String before = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", far.toString());
        try {
            for (Map<String, String> vars : List.of(Map.<String, String>of(), Map.of(ALLOW, "prod"))) {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                PlanCommand.run(List.of("--config", w.toString(), "--once", "--replicas", "orders=1"),
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8), vars::get, d -> { }, 1);
                String e = err.toString(StandardCharsets.UTF_8);
                assertTrue(e.contains(vars.isEmpty() ? "would send credentials (token) over plain http to " + FAR
                        + ": refused" : "unencrypted (allowed by " + ALLOW + ")"), vars + ": " + e);
            }
        } finally {
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        }
    }
}
