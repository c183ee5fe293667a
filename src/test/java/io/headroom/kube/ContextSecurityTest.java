package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.WorkloadRef;
import io.headroom.loop.TickResult;
import io.headroom.ui.shell.MainViewModel;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kubeconfig contexts that are not safe are said to be so: TLS verification switched off is a
 * warning wherever the context is used, and credentials over plain http to another host are refused
 * unless explicitly allowed. Nothing here sends a request anywhere but loopback.
 */
class ContextSecurityTest {
    static final String TOKEN = "s3cr3t-t0ken-value";
    static final String TOKEN_BASE64 = java.util.Base64.getEncoder().encodeToString(TOKEN.getBytes());
    @TempDir
    Path dir;

    Path kubeconfig(String server, String clusterExtra, String user) throws Exception {
        Path p = dir.resolve("config-" + System.nanoTime() + ".yaml");
        Files.writeString(p, """
                apiVersion: v1
                kind: Config
                current-context: ctx
                clusters:
                - name: c
                  cluster:
                    server: %s
                %s
                contexts:
                - name: ctx
                  context: {cluster: c, user: u, namespace: work}
                users:
                - name: u
                  user:
                %s
                """.formatted(server, clusterExtra.isEmpty() ? "" : "    " + clusterExtra, user.indent(4).stripTrailing()));
        return p;
    }

    static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void skippingTlsVerificationIsAWarningInTheClusterHealthAndTheTopBar() throws Exception {
        Path cfg = kubeconfig("https://127.0.0.1:" + closedPort(), "insecure-skip-tls-verify: true", "token: " + TOKEN);
        Contexts contexts = Contexts.load(List.of(cfg));
        KubeContext ctx = contexts.get("ctx").orElseThrow();
        assertTrue(ctx.insecureSkipTlsVerify());
        List<String> warnings = contexts.warnings("ctx");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("TLS verification is OFF") && warnings.get(0).contains("ctx"),
                warnings.get(0));

        WorkloadRef ref = new WorkloadRef("ctx", "work", "Deployment", "worker");
        try (KubeConnection conn = contexts.open("ctx");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
            ClusterHealth h = g.health();
            assertEquals(warnings, h.warnings());
            MainViewModel vm = new MainViewModel("ctx", "prometheus", false, Duration.ofSeconds(5), s -> { });
            vm.apply(new TickResult(Instant.now(), List.of(), "ctx", "prometheus"), h, null);
            assertTrue(vm.warningProperty().get().contains("TLS verification is OFF"), vm.warningProperty().get());
        }
    }

    @Test
    void credentialsOverPlainHttpToAnotherHostAreRefusedWithoutTheSecret() throws Exception {
        for (String user : List.of("token: " + TOKEN, "username: ana\npassword: " + TOKEN,
                "client-certificate-data: Y2VydA==\nclient-key-data: " + TOKEN_BASE64,
                "exec:\n  apiVersion: client.authentication.k8s.io/v1\n  command: /bin/false\n  interactiveMode: Never")) {
            Contexts contexts = Contexts.load(List.of(kubeconfig("http://10.20.30.40:8080", "", user)));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open("ctx"), user);
            String m = e.getMessage();
            assertTrue(m.contains("ctx") && m.contains("plain http") && m.contains("http://10.20.30.40:8080"), m);
            assertTrue(m.contains("HEADROOM_ALLOW_PLAIN_HTTP_CREDENTIALS"), "says how to allow it: " + m);
            assertFalse(m.contains(TOKEN) || m.contains(TOKEN_BASE64), m);
            assertTrue(contexts.warnings("ctx").stream().anyMatch(w -> w.contains("plain http")), user);
        }
    }

    @Test
    void anExplicitOptInAllowsPlainHttpCredentialsAndStillWarns() throws Exception {
        Contexts contexts = Contexts.load(List.of(kubeconfig("http://10.20.30.40:8080", "", "token: " + TOKEN)))
                .allowPlainHttpCredentials(Set.of("ctx"));
        try (KubeConnection conn = contexts.open("ctx")) { // builds a client; sends nothing
            assertEquals("ctx", conn.context().name());
        }
        List<String> warnings = contexts.warnings("ctx");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("plain http") && warnings.get(0).contains("allowed"), warnings.get(0));
    }

    @Test
    void loopbackAndCredentialFreePlainHttpAreNotRefused() throws Exception {
        for (String server : List.of("http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080")) {
            Contexts contexts = Contexts.load(List.of(kubeconfig(server, "", "token: " + TOKEN)));
            try (KubeConnection conn = contexts.open("ctx")) {
                assertEquals(List.of(), contexts.warnings("ctx"), server);
            }
        }
        Contexts anonymous = Contexts.load(List.of(kubeconfig("http://10.20.30.40:8080", "", "{}")));
        try (KubeConnection conn = anonymous.open("ctx")) {
            assertTrue(anonymous.warnings("ctx").get(0).contains("plain http"), anonymous.warnings("ctx").toString());
        }
    }
}
