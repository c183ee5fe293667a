package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A kubeconfig user that authenticates through an exec credential plugin
 * ({@code client.authentication.k8s.io/v1}): a script that prints a new token each time it runs,
 * {@code exec-token-1}, {@code exec-token-2} … (runs are counted in a file beside it).
 *
 * <p>What fabric8 8.0.0 does, as these tests show (and {@code docs/decisions/0004} explains): opening a
 * context runs the plugin once; every request carries its token; a 401 makes fabric8 re-read the
 * kubeconfig, run the plugin again and retry that request once with the new token, which later requests
 * keep; a second 401 reaches the caller. Each test runs twice: with the kubeconfig found the way the
 * console finds it ({@code KUBECONFIG}, {@link Contexts#fromEnvironment}) and with the files given
 * explicitly ({@code import-keda --kubeconfig}, {@link Contexts#load}).
 */
class ExecCredentialPluginTest {
    static final String WORKER_PATH = "/apis/apps/v1/namespaces/payments/deployments/worker";
    static final String UNAUTHORIZED = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
            + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
    static final Duration WAIT = Duration.ofSeconds(10);

    /** How the kubeconfig files reach {@link Contexts}. */
    enum Opening {
        /** The console: {@code KUBECONFIG}, found as kubectl finds it ({@link Contexts#fromEnvironment}). */
        ENVIRONMENT,
        /** The files given as a list ({@link Contexts#load}). */
        FILES
    }

    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    MockCluster cluster;
    Path plugin;
    AutoCloseable environment = () -> { };
    final WorkloadRef ref = new WorkloadRef("prod", "payments", "Deployment", "worker");

    @BeforeEach
    void setUp() throws Exception {
        cluster = api.cluster();
        cluster.deployment("payments", "worker", 2);
        plugin = dir.resolve("token-plugin.sh");
        Files.writeString(plugin, """
                #!/bin/sh
                # An exec credential plugin whose token changes on every run.
                runs="$(dirname "$0")/runs"
                n=$(( $(cat "$runs" 2>/dev/null || echo 0) + 1 ))
                echo "$n" > "$runs"
                printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token-%s"}}\\n' "$n"
                """);
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
    }

    @AfterEach
    void tearDown() throws Exception {
        environment.close();
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void listingNeverRunsThePluginOpeningRunsItOnceAndEveryRequestCarriesItsToken(Opening opening) throws Exception {
        Contexts contexts = contexts(opening, kubeconfig());
        KubeContext prod = contexts.get("prod").orElseThrow();
        assertEquals("exec: token-plugin.sh", prod.auth());
        assertEquals(0, runs(), "listing contexts reads names only");

        try (KubeConnection conn = contexts.open("prod");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
            assertTrue(g.awaitSynced(WAIT));
            assertEquals(2, g.workload(ref).orElseThrow().specReplicas());
            assertEquals(2, g.freshWorkload(ref).orElseThrow().specReplicas());
        }
        assertEquals(1, runs(), "one run when the context opens, none per request");
        List<RecordedRequest> console = consoleRequests();
        assertTrue(console.stream().anyMatch(r -> r.getPath().startsWith(WORKER_PATH)), "the GET was recorded");
        assertTrue(console.size() >= 5, "lists, watches and the GET: " + console.size());
        for (RecordedRequest r : console) {
            assertEquals("Bearer exec-token-1", r.getHeader("Authorization"), r.getMethod() + " " + r.getPath());
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void a401RunsThePluginAgainAndRetriesOnceWithTheNewToken(Opening opening) throws Exception {
        try (KubeConnection conn = contexts(opening, kubeconfig()).open("prod");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
            assertTrue(g.awaitSynced(WAIT));
            consoleRequests(); // the sync's requests are the first test's business
            cluster.server.expect().get().withPath(WORKER_PATH).andReturn(401, UNAUTHORIZED).once();

            assertEquals(2, g.freshWorkload(ref).orElseThrow().specReplicas(), "the retried request succeeds");
            assertEquals(2, runs(), "the 401 ran the plugin again");
            assertEquals(2, g.freshWorkload(ref).orElseThrow().specReplicas());
            assertEquals(2, runs(), "the new token is kept: no run per request");

            assertEquals(List.of("Bearer exec-token-1", "Bearer exec-token-2", "Bearer exec-token-2"),
                    authorizationOf(consoleRequests(), WORKER_PATH), "rejected, retried, and the next request");
            ClusterHealth h = g.health();
            assertNull(h.lastError(), "a refreshed token is not an error: " + h);
            assertTrue(h.connected(), h.toString());
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void aUserDefinedInAnotherKubeconfigFileIsRefreshedToo(Opening opening) throws Exception {
        // KUBECONFIG=contexts.yaml:users.yaml — the context and cluster in one file, the exec user in the other.
        Path contextsFile = dir.resolve("contexts.yaml");
        Files.writeString(contextsFile, """
                apiVersion: v1
                kind: Config
                current-context: prod
                clusters:
                - name: cl-prod
                  cluster:
                    server: %s
                contexts:
                - name: prod
                  context:
                    cluster: cl-prod
                    user: u-prod
                    namespace: payments
                """.formatted(cluster.url()));
        Path usersFile = MockCluster.execKubeconfig(dir, "users.yaml", null, plugin, "prod", "http://127.0.0.1:1", "elsewhere");
        try (KubeConnection conn = contexts(opening, contextsFile, usersFile).open("prod");
             KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
            assertTrue(g.awaitSynced(WAIT));
            assertEquals(cluster.url(), conn.context().server(), "the first file's context and cluster win");
            cluster.server.expect().get().withPath(WORKER_PATH).andReturn(401, UNAUTHORIZED).once();

            assertEquals(2, g.freshWorkload(ref).orElseThrow().specReplicas());
            assertEquals(2, runs());
            assertEquals(List.of("Bearer exec-token-1", "Bearer exec-token-2"),
                    authorizationOf(consoleRequests(), WORKER_PATH));
        }
    }

    @ParameterizedTest
    @EnumSource(Opening.class)
    void aTokenTheServerKeepsRejectingIsOneErrorAndNoTokenIsShownOrLogged(Opening opening) throws Exception {
        List<String> shown = new ArrayList<>();
        try (MockCluster.LogCapture logs = new MockCluster.LogCapture()) {
            Contexts contexts = contexts(opening, kubeconfig());
            shown.add(contexts.toString());
            contexts.list().forEach(c -> shown.add(c.toString()));
            try (KubeConnection conn = contexts.open("prod");
                 KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(ref), Clock.systemUTC(), null)) {
                assertTrue(g.awaitSynced(WAIT));
                shown.add(conn.toString());
                shown.add(g.toString());
                shown.add(g.health().toString());
                cluster.server.expect().get().withPath(WORKER_PATH).andReturn(401, UNAUTHORIZED).times(2);

                IllegalStateException e = assertThrows(IllegalStateException.class, () -> g.freshWorkload(ref));
                assertEquals("HTTP 401: Unauthorized", e.getMessage());
                assertEquals(2, runs(), "one more run for the 401, then the error: no loop");
                ClusterHealth h = g.health();
                assertEquals("HTTP 401: Unauthorized", h.lastError(), h.toString());
                shown.add(e.getMessage());
                shown.add(String.valueOf(e.getCause()));
                shown.add(h.toString());
                ScaleResult after = g.scaling().scale(ref, 3, null);
                assertEquals(ScaleResult.Outcome.APPLIED, after.outcome(), "the API answers again: " + after);
                assertEquals(2, runs(), "with the token the 401 fetched");
                shown.add(after.toString());
            }
            shown.addAll(logs.lines());
        }
        String all = String.join("\n", shown);
        assertTrue(all.contains("exec: token-plugin.sh"), "the auth kind is shown, by the plugin's name: " + all);
        assertFalse(all.contains("exec-token"), all);
        assertEquals(List.of("Bearer exec-token-1", "Bearer exec-token-2"),
                authorizationOf(consoleRequests(), WORKER_PATH), "both tokens were tried, once each");
    }

    // ------------------------------------------------------------------ fixtures

    private Path kubeconfig() throws Exception {
        return MockCluster.execKubeconfig(dir, "config.yaml", "prod", plugin, "prod", cluster.url(), "payments");
    }

    private Contexts contexts(Opening opening, Path... files) {
        if (opening == Opening.FILES) {
            return Contexts.load(List.of(files));
        }
        // Kept until tearDown: fabric8 reads the environment again when it refreshes a token.
        environment = MockCluster.kubeconfigEnvironment(files);
        return Contexts.fromEnvironment();
    }

    private int runs() throws Exception {
        Path runs = dir.resolve("runs");
        return Files.exists(runs) ? Integer.parseInt(Files.readString(runs).trim()) : 0;
    }

    /** What the console sent (the mock's own admin client, used for fixtures, says "Bearer secret"). */
    private List<RecordedRequest> consoleRequests() throws InterruptedException {
        return cluster.takeRequests().stream().filter(r -> !"Bearer secret".equals(r.getHeader("Authorization"))).toList();
    }

    private static List<String> authorizationOf(List<RecordedRequest> requests, String path) {
        return requests.stream().filter(r -> r.getPath().equals(path)).map(r -> r.getHeader("Authorization")).toList();
    }
}
