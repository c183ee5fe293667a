package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import io.headroom.cluster.ScaleResult;
import io.headroom.cluster.WorkloadRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Kubeconfig contexts across several files and two live mock clusters; credentials never leak into output. */
class ContextsTest {
    static final String TOKEN = "sEcReT-t0ken-4f9a1c";
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension eastApi = new MockApiServerExtension();
    MockCluster east;
    @RegisterExtension
    final MockApiServerExtension westApi = new MockApiServerExtension();
    MockCluster west;
    Path first;
    Path second;

    @BeforeEach
    void setUp() throws Exception {
        east = eastApi.cluster();
        west = westApi.cluster();
        east.deployment("payments", "worker", 2);
        west.deployment("search", "indexer", 5);
        // KUBECONFIG=first:second — "east" is defined in both; the first file wins, as with kubectl.
        first = MockCluster.kubeconfig(dir, "first.yaml", "east", TOKEN, "east", east.url(), "payments");
        second = MockCluster.kubeconfig(dir, "second.yaml", "west", TOKEN, "west", west.url(), "search",
                "east", "http://127.0.0.1:1", "elsewhere");
    }

    @Test
    void listsContextsOfSeveralFilesTheWayKubectlMergesThem() {
        Contexts contexts = Contexts.load(List.of(first, second));
        assertEquals(List.of("east", "west"), contexts.list().stream().map(KubeContext::name).toList());
        KubeContext e = contexts.get("east").orElseThrow();
        assertEquals(east.url(), e.server(), "the first file to define a context wins");
        assertEquals("payments", e.namespace());
        assertEquals("token", e.auth());
        assertTrue(e.current());
        assertEquals("east", contexts.current().orElseThrow().name());
        assertEquals("search", contexts.get("west").orElseThrow().namespace());
        assertThrows(IllegalArgumentException.class, () -> contexts.open("nowhere"));
    }

    @Test
    void theKubeconfigEnvironmentListIsHonoured() throws Exception {
        AutoCloseable environment = MockCluster.kubeconfigEnvironment(first, second);
        try {
            Contexts contexts = Contexts.fromEnvironment();
            assertEquals(List.of(first, second), contexts.files());
            try (KubeConnection c = contexts.open("west")) {
                assertEquals(5, c.client().apps().deployments().inNamespace("search").withName("indexer").get()
                        .getSpec().getReplicas());
            }
        } finally {
            environment.close();
        }
    }

    @Test
    void switchingContextsKeepsBothClustersOpenAndApart() throws Exception {
        Contexts contexts = Contexts.load(List.of(first, second));
        WorkloadRef worker = new WorkloadRef("east", "payments", "Deployment", "worker");
        WorkloadRef indexer = new WorkloadRef("west", "search", "Deployment", "indexer");
        try (KubeClusterGateway a = KubeClusterGateway.open(contexts.open("east"), List.of(worker), Clock.systemUTC(), null);
             KubeClusterGateway b = KubeClusterGateway.open(contexts.open("west"), List.of(indexer), Clock.systemUTC(), null)) {
            assertTrue(a.awaitSynced(Duration.ofSeconds(10)));
            assertTrue(b.awaitSynced(Duration.ofSeconds(10)));
            assertEquals("east", a.contextName());
            assertEquals("west", b.contextName());
            assertEquals(2, a.workload(worker).orElseThrow().specReplicas());
            assertEquals(5, b.workload(indexer).orElseThrow().specReplicas());
            a.watch("search");
            assertTrue(a.awaitSynced(Duration.ofSeconds(10)));
            assertTrue(a.workload(new WorkloadRef("east", "search", "Deployment", "indexer")).isEmpty(),
                    "east has no indexer: each gateway sees only its own cluster");
            a.connection().close();
            b.connection().close();
        }
        List<String> auth = new ArrayList<>();
        for (RecordedRequest r : east.takeRequests()) {
            auth.add(r.getPath().contains("/payments/") ? r.getHeader("Authorization") : "fixture");
        }
        // The fixtures' admin client says "Bearer secret"; the console's requests carry the kubeconfig's token.
        assertTrue(auth.contains("Bearer " + TOKEN), "the kubeconfig's token is what authenticates: " + auth.size());
    }

    /**
     * Issue 26: the console listed one definition and connected with another. A cluster defined in two
     * files is the first file's, for the listing and for the connection alike.
     */
    @Test
    void aClusterDefinedInTwoFilesIsListedAndConnectedFromTheFirst() throws Exception {
        Path clusters = dir.resolve("clusters.yaml");
        Files.writeString(clusters, """
                clusters:
                - name: shared
                  cluster: {server: "%s"}
                """.formatted(east.url()));
        Path rest = dir.resolve("rest.yaml");
        Files.writeString(rest, """
                clusters:
                - name: shared
                  cluster: {server: "%s"}
                users:
                - name: u
                  user: {token: %s}
                contexts:
                - name: w
                  context: {cluster: shared, user: u, namespace: payments}
                """.formatted(west.url(), TOKEN));
        AutoCloseable environment = MockCluster.kubeconfigEnvironment(clusters, rest);
        try {
            for (Contexts contexts : List.of(Contexts.load(List.of(clusters, rest)), Contexts.fromEnvironment())) {
                KubeContext w = contexts.get("w").orElseThrow();
                assertEquals(east.url(), w.server(), "listed: the first file's cluster");
                assertEquals(List.of(), w.problems());
                try (KubeConnection c = contexts.open("w")) {
                    assertEquals(2, c.once().apps().deployments().inNamespace("payments").withName("worker").get()
                            .getSpec().getReplicas(), "connected: the same cluster (west has no payments/worker)");
                }
            }
        } finally {
            environment.close();
        }
    }

    /**
     * A name twice in one file: the listing took the first, fabric8 connected the last. client-go refuses
     * the file; so does Headroom, and the context cannot be opened.
     */
    @Test
    void aClusterNamedTwiceInOneFileIsRefusedNotConnectedWithEither() throws Exception {
        Path twice = dir.resolve("twice.yaml");
        Files.writeString(twice, """
                clusters:
                - name: dup
                  cluster: {server: "%s"}
                - name: dup
                  cluster: {server: "%s"}
                users: [{name: u, user: {token: %s}}]
                contexts: [{name: d, context: {cluster: dup, user: u}}]
                """.formatted(east.url(), west.url(), TOKEN));
        Contexts contexts = Contexts.load(List.of(first, twice));
        KubeContext listed = contexts.get("east").orElseThrow();
        String problem = twice + ":4: clusters[1]: duplicate name \"dup\" in clusters (first at line 2); client-go"
                + " refuses a file that defines a name twice";
        assertTrue(listed.problems().get(0).startsWith(problem), "every context of the list: " + listed.problems());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open("east"));
        assertTrue(e.getMessage().startsWith("context \"east\" cannot be opened: " + problem), e.getMessage());
        assertTrue(contexts.get("d").isEmpty(), "the refused file defines nothing");
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class, () -> contexts.open("d"));
        assertTrue(d.getMessage().contains(problem), "why 'd' is not there: " + d.getMessage());
    }

    /** Issue 26: an empty file anywhere in KUBECONFIG threw a NullPointerException; client-go reads an empty config. */
    @Test
    void anEmptyFileInTheKubeconfigListIsAnEmptyConfig() throws Exception {
        Path empty = dir.resolve("empty");
        Files.writeString(empty, "");
        AutoCloseable environment = MockCluster.kubeconfigEnvironment(empty, first, empty.resolveSibling("gone"));
        try {
            Contexts contexts = Contexts.fromEnvironment();
            assertEquals(List.of("east"), contexts.list().stream().map(KubeContext::name).toList());
            assertEquals(List.of(), contexts.get("east").orElseThrow().problems());
            try (KubeConnection c = contexts.open("east")) {
                assertEquals(2, c.once().apps().deployments().inNamespace("payments").withName("worker").get()
                        .getSpec().getReplicas());
            }
        } finally {
            environment.close();
        }
    }

    /** plan connects to nothing, but says which of the contexts it names the console would refuse, and why. */
    @Test
    void commandsThatDoNotConnectAreToldWhichContextsTheConsoleWouldRefuse() throws Exception {
        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, """
                users: [{name: u, user: {token: %s}}]
                contexts: [{name: lost, context: {cluster: gone, user: u}}]
                """.formatted(TOKEN));
        AutoCloseable environment = MockCluster.kubeconfigEnvironment(first, broken);
        try {
            assertEquals(List.of("context \"lost\" cannot be opened: " + broken + ":2: cluster \"gone\" was not"
                    + " found for context \"lost\" (no file of the list defines it)"),
                    Contexts.warningsFor(List.of("east", "lost", "elsewhere")));
        } finally {
            environment.close();
        }
    }

    @Test
    void credentialsNeverAppearInToStringOrLogs() throws Exception {
        List<String> out = new ArrayList<>();
        try (MockCluster.LogCapture logs = new MockCluster.LogCapture()) {
            Contexts contexts = Contexts.load(List.of(first, second));
            out.add(contexts.toString());
            contexts.list().forEach(c -> out.add(c.toString()));
            WorkloadRef worker = new WorkloadRef("east", "payments", "Deployment", "worker");
            KubeConnection conn = contexts.open("east");
            out.add(conn.toString());
            LeaseKeeper leases = new LeaseKeeper(conn.client(), "ana@desk/1", Clock.systemUTC(), Duration.ofSeconds(15));
            try (KubeClusterGateway g = KubeClusterGateway.open(conn, List.of(worker), Clock.systemUTC(), leases)) {
                assertTrue(g.awaitSynced(Duration.ofSeconds(10)));
                out.add(g.toString());
                out.add(g.health().toString());
                out.add(g.workload(worker).toString());
                ScaleResult r = g.scaling().scale(worker, 3, "stale-version");
                out.add(r.toString());
                out.add(g.scaling().canScale(worker).toString()); // SSAR is unanswered by CRUD mode: an error path
                out.add(g.scaling().dryRunScale(worker, 4).toString());
                out.add(leases.toString());
                out.add(leases.states().toString());
                out.add(g.permissions().can("get", "pods", "payments").toString());
                out.add(g.health().toString());
            }
            // An unreachable cluster: errors must not carry the token either.
            try (KubeConnection dead = contexts.customize(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0)
                    .withConnectionTimeout(500).endConfig()).open("east")) {
                out.add(dead.toString());
            }
            out.addAll(logs.lines());
        }
        String all = String.join("\n", out);
        assertTrue(all.contains("east"), "the capture saw our output");
        assertTrue(all.contains("token"), "the auth kind is shown, by name");
        assertFalse(all.contains(TOKEN), all);
        assertFalse(Files.readString(first).isEmpty());
        assertTrue(Instant.now().isAfter(Instant.EPOCH));
    }

    /**
     * fabric8 re-reads the kubeconfig for a new token once a minute and after every 401 (nothing watches
     * the file). {@code kubectl config} rewrites it in place (truncate, then write), and it may be moved
     * away for a moment: a re-read that meets an empty or missing file keeps the credentials read before,
     * says so in one log line without a stack trace or a secret, and the next refresh reads the file again.
     */
    @Test
    void aKubeconfigUnreadableWhenTheTokenIsRefreshedKeepsTheLastGoodCredentialsUntilTheNextRefresh() throws Exception {
        String path = "/apis/apps/v1/namespaces/payments/deployments/worker";
        String unauthorized = "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                + "\"message\":\"Unauthorized\",\"reason\":\"Unauthorized\",\"code\":401}";
        try (MockCluster.LogCapture log = new MockCluster.LogCapture();
             KubeConnection c = Contexts.load(List.of(first, second)).open("east")) {
            east.takeRequests();
            Files.writeString(first, ""); // caught between kubectl's truncate and its write
            east.server.expect().get().withPath(path).andReturn(401, unauthorized).once();
            assertEquals(2, c.once().apps().deployments().inNamespace("payments").withName("worker").get()
                    .getSpec().getReplicas(), "the 401's retry went out with the credentials read before");
            assertEquals(List.of("Bearer " + TOKEN, "Bearer " + TOKEN), authorizations(east.takeRequests(), path));
            List<String> said = log.lines().stream().filter(l -> l.contains("first.yaml")).toList();
            assertEquals(1, said.size(), log.lines().toString());
            assertTrue(said.get(0).contains("is empty") && said.get(0).contains("keeping the credentials read before"), said.get(0));
            assertFalse(said.get(0).contains("Exception:") || said.get(0).contains("\tat "), "no stack trace: " + said.get(0));
            assertFalse(said.get(0).contains(TOKEN), "never a credential");
            // The top bar says it too (the connection's warnings), as long as the file cannot be read.
            assertTrue(c.warnings().stream().anyMatch(w -> w.contains("first.yaml is empty")
                    && w.contains("using the credentials read before")), c.warnings().toString());

            // Half-written: the new token is already in the file, the rest is not yet whole. The line that
            // says so names the file, never what is in it.
            String half = Files.readString(MockCluster.kubeconfig(dir, "first.yaml", "east", "h4lf-wr1tten",
                    "east", east.url(), "payments"));
            Files.writeString(first, half + "users: [\n  - name: u-east\n    user: {token: h4lf-wr1tten");
            east.server.expect().get().withPath(path).andReturn(401, unauthorized).once();
            assertEquals(2, c.once().apps().deployments().inNamespace("payments").withName("worker").get()
                    .getSpec().getReplicas(), "the half-written file's retry went out with the credentials read before");
            assertEquals(List.of("Bearer " + TOKEN, "Bearer " + TOKEN), authorizations(east.takeRequests(), path));
            List<String> halfSaid = log.lines().stream().filter(l -> l.contains("not a whole kubeconfig")).toList();
            assertEquals(1, halfSaid.size(), log.lines().toString());
            assertTrue(log.lines().stream().noneMatch(l -> l.contains("h4lf-wr1tten") || l.contains(TOKEN)),
                    "no line carries a credential: " + log.lines());

            // kubectl's write lands: the next refresh (here the next 401) reads the new token.
            MockCluster.kubeconfig(dir, "first.yaml", "east", "n3w-t0ken", "east", east.url(), "payments");
            east.server.expect().get().withPath(path).andReturn(401, unauthorized).once();
            assertEquals(2, c.once().apps().deployments().inNamespace("payments").withName("worker").get()
                    .getSpec().getReplicas());
            assertEquals(List.of("Bearer " + TOKEN, "Bearer n3w-t0ken"), authorizations(east.takeRequests(), path));
            assertTrue(c.warnings().stream().noneMatch(w -> w.contains("first.yaml")), "read again: no warning "
                    + c.warnings());
            assertTrue(c.warnings().stream().noneMatch(w -> w.contains("n3w-t0ken") || w.contains(TOKEN)));
        }
    }

    static List<String> authorizations(List<RecordedRequest> requests, String path) {
        return requests.stream().filter(r -> r.getPath().equals(path)).map(r -> r.getHeader("Authorization")).toList();
    }
}
