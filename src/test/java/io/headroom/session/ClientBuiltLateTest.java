package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.cluster.ClusterHealth;
import io.headroom.cluster.WorkloadRef;
import io.headroom.config.WorkloadsFile;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import io.headroom.kube.MockApiServerExtension;
import io.headroom.kube.MockCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 (start-up): a session opened from a workloads file does not wait for its Kubernetes clients. Building a
 * client (the HTTP client, its TLS context, the JDK's trust store) runs on its own thread while the console's first
 * frame shows; cluster calls wait for it off the FX thread, health says "connecting…" without waiting, and a client
 * that cannot be built is said in the words {@link Session#connect} threw before.
 */
class ClientBuiltLateTest {
    @TempDir
    Path dir;
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();

    @Test
    void theSessionOpensWhileItsClientIsBuiltAndItsCallsWaitForIt() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("work", "w", 3);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config", "up", "t0ken", "up", cluster.url(), "work");
        Path workloads = workloads("up");
        CountDownLatch building = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Contexts contexts = Contexts.load(List.of(kubeconfig)).customize(b -> { // runs while the client is built
            building.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<Session> opening = CompletableFuture.supplyAsync(() -> {
            try {
                return Session.connect(WorkloadsFile.read(workloads), contexts, new MemoryJournal());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try (Session s = opening.get(20, TimeUnit.SECONDS)) { // before: waited for the client, held by the latch
            assertTrue(building.await(10, TimeUnit.SECONDS), "the client is built on another thread");
            assertFalse(s.clients().isDone(), "its client is still being built");
            ClusterHealth h = s.loop().cluster().health();
            assertFalse(h.connected());
            assertTrue(h.lastError().contains("context 'up': connecting…"), h.lastError());
            assertEquals(List.of(new Endpoints.Endpoint("context up", cluster.url(), Endpoints.State.CONNECTING, null)),
                    Endpoints.of(s).stream().filter(e -> e.what().startsWith("context")).toList());

            WorkloadRef ref = s.loop().classes().get(0).target();
            CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> s.loop().cluster().workloads()
                    .freshWorkload(ref).orElseThrow().specReplicas());
            assertThrows(java.util.concurrent.TimeoutException.class, () -> read.get(300, TimeUnit.MILLISECONDS),
                    "a cluster call waits for the client");
            release.countDown();
            assertEquals(3, read.get(20, TimeUnit.SECONDS), "then answers from the cluster");
            s.clients().get(10, TimeUnit.SECONDS);
            io.headroom.prometheus.it.Await.until("context up answering", Duration.ofSeconds(20), () -> Endpoints.of(s),
                    all -> all.stream().anyMatch(e -> e.what().equals("context up") && e.state() == Endpoints.State.OK));
        } finally {
            release.countDown();
        }
    }

    /**
     * The console holds its clients' build until its first frame is drawn (the build's CPU otherwise shares the two
     * cores with that frame): nothing is built while held, watching does not start it, and the first call that needs
     * a client starts it and gets its answer.
     */
    @Test
    void aHeldBuildStartsAtTheFirstCallThatNeedsTheClient() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("work", "w", 3);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config", "up", "t0ken", "up", cluster.url(), "work");
        CountDownLatch building = new CountDownLatch(1);
        Contexts contexts = Contexts.load(List.of(kubeconfig)).customize(b -> building.countDown());
        try (Session s = Session.connect(WorkloadsFile.read(workloads("up")), contexts, new MemoryJournal(), null,
                Session.LEASE_DURATION, true)) {
            assertTrue(s.clientsHeld(), "held");
            assertFalse(building.await(200, TimeUnit.MILLISECONDS), "nothing is built while held");
            assertFalse(s.clientsBuilt().isDone(), "watching the build does not start it");
            assertTrue(s.loop().cluster().health().lastError().contains("context 'up': connecting…"),
                    s.loop().cluster().health().lastError());

            WorkloadRef ref = s.loop().classes().get(0).target();
            assertEquals(3, CompletableFuture.supplyAsync(() -> s.loop().cluster().workloads().freshWorkload(ref)
                    .orElseThrow().specReplicas()).get(20, TimeUnit.SECONDS), "the call started the build and waited");
            assertFalse(s.clientsHeld());
            assertEquals(0, building.getCount());
            s.clientsBuilt().get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A session closed while its clients' build is held builds nothing afterwards, whoever asks: no client, no lease
     * keeper, nothing on the cluster for a console that is gone.
     */
    @Test
    void aSessionClosedWhileItsBuildIsHeldBuildsNothingAfterwards() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("work", "w", 3);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config", "up", "t0ken", "up", cluster.url(), "work");
        CountDownLatch building = new CountDownLatch(1);
        Contexts contexts = Contexts.load(List.of(kubeconfig)).customize(b -> building.countDown());
        Session s = Session.connect(WorkloadsFile.read(workloads("up")), contexts, new MemoryJournal(), null,
                Session.LEASE_DURATION, true);
        s.close();
        s.releaseClients(); // a late ask, after the close
        CompletableFuture<Void> built = s.clientsBuilt();
        assertThrows(ExecutionException.class, () -> built.get(20, TimeUnit.SECONDS), "no client for a closed session");
        assertTrue(built.isCompletedExceptionally());
        assertEquals(1, building.getCount(), "its build never began");
    }

    /** Asking for the clients, or releasing them (the console, once its first frame is drawn), starts a held build. */
    @Test
    void askingForTheClientsOrReleasingThemStartsAHeldBuild() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.deployment("work", "w", 3);
        Path kubeconfig = MockCluster.kubeconfig(dir, "config", "up", "t0ken", "up", cluster.url(), "work");
        for (boolean ask : List.of(true, false)) {
            try (Session s = Session.connect(WorkloadsFile.read(workloads("up")), Contexts.load(List.of(kubeconfig)),
                    new MemoryJournal(), null, Session.LEASE_DURATION, true)) {
                assertTrue(s.clientsHeld());
                if (ask) {
                    s.clients().get(20, TimeUnit.SECONDS);
                } else {
                    s.releaseClients();
                    s.clientsBuilt().get(20, TimeUnit.SECONDS);
                }
                assertFalse(s.clientsHeld(), ask ? "asked" : "released");
            }
        }
        try (Session s = Session.connect(WorkloadsFile.read(workloads("up")), Contexts.load(List.of(kubeconfig)),
                new MemoryJournal())) {
            assertFalse(s.clientsHeld(), "a session opened without the hold builds at once");
        }
    }

    @Test
    void aClientThatCannotBeBuiltIsSaidInTheWordsConnectUsedAndItsCallsSayWhy() throws Exception {
        Path kubeconfig = kubeconfigWithAKeyThatIsNoKey();
        Contexts contexts = Contexts.load(List.of(kubeconfig));
        // What connect threw before the clients were built in the background: the same failure, built here.
        RuntimeException built = assertThrows(RuntimeException.class, () -> Contexts.load(List.of(kubeconfig))
                .open("bad"));
        OpenFailure before = OpenFailure.context("bad", "https://127.0.0.1:9", kubeconfig, List.of(kubeconfig), built);

        try (Session s = Session.connect(WorkloadsFile.read(workloads("bad")), contexts, new MemoryJournal())) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> s.clients().get(20, TimeUnit.SECONDS));
            OpenFailure f = assertInstanceOf(OpenFailure.class, e.getCause());
            assertEquals(before.getMessage(), f.getMessage());
            assertEquals("context bad", f.what());
            assertEquals(kubeconfig, f.file().orElseThrow(), "the file to edit is the kubeconfig");
            assertFalse(f.getMessage().contains(notAKey()));

            assertEquals(List.of(new Endpoints.Endpoint("context bad", "https://127.0.0.1:9", Endpoints.State.FAILED,
                    Endpoints.plain(f.getMessage()))), Endpoints.of(s).stream()
                    .filter(x -> x.what().startsWith("context")).toList());
            assertEquals(f.getMessage(), s.loop().cluster().health().lastError());
            WorkloadRef ref = s.loop().classes().get(0).target();
            IllegalStateException call = assertThrows(IllegalStateException.class,
                    () -> s.loop().cluster().workloads().freshWorkload(ref));
            assertEquals(f.getMessage(), call.getMessage(), "a cluster call says why, it never hangs");
        }
    }

    @Test
    void theLauncherSaysAClientThatCouldNotBeBuiltAsItSaidACheckThatFailed() throws Exception {
        Path kubeconfig = kubeconfigWithAKeyThatIsNoKey();
        Path workloads = workloads("bad");
        Path journal = dir.resolve("journal.jsonl");
        Launcher launcher = new Launcher(Launcher.Options.of(java.util.Map.of("settings",
                dir.resolve("settings.json").toString(), "journal", journal.toString(), "config",
                workloads.toString())), Runnable::run, java.time.Clock.systemUTC(),
                () -> Contexts.load(List.of(kubeconfig)));
        Launcher.Launched l = assertInstanceOf(Launcher.Launched.class, launcher.launchOrAsk(t -> { })
                .get(20, TimeUnit.SECONDS), "opened before the client was built");
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> l.session().clients().get(20, TimeUnit.SECONDS));
        Launcher.NotConnected n = assertInstanceOf(Launcher.NotConnected.class,
                launcher.clientsFailed(l, e.getCause()).get(20, TimeUnit.SECONDS));
        assertEquals(workloads, n.file());
        assertEquals("context bad", n.failure().what());
        assertEquals(kubeconfig, n.fileToEdit(), "the kubeconfig is the file to edit");
        // The session was closed: its journal's lock is free for the next attempt.
        io.headroom.journalfile.FileJournal.open(journal).close();
    }

    /** A kubeconfig whose context 'bad' passes every check but whose client cannot be built (its key is none). */
    private Path kubeconfigWithAKeyThatIsNoKey() throws Exception {
        String notACertificate = Base64.getEncoder().encodeToString("not a certificate".getBytes());
        Path kubeconfig = dir.resolve("config");
        Files.writeString(kubeconfig, """
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:9", certificate-authority-data: %s}}]
                users: [{name: u, user: {client-certificate-data: %s, client-key-data: %s}}]
                contexts:
                - name: bad
                  context: {cluster: c, user: u}
                """.formatted(notACertificate, notACertificate, notAKey()));
        return kubeconfig;
    }

    /** A client key that decodes but is no key (fabric8 finds it out only when it builds the client). */
    private static String notAKey() {
        return Base64.getEncoder().encodeToString(("-----BEGIN RSA PRIVATE KEY-----\nbm90IGEga2V5\n"
                + "-----END RSA PRIVATE KEY-----\n").getBytes());
    }

    private Path workloads(String context) throws Exception {
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, "prometheus: {url: \"" + MockCluster.unreachableUrl() + "\", timeoutSeconds: 1}\n"
                + "classes:\n"
                + "  - {name: a, context: " + context + ", namespace: work, target: {name: w}, signals: {queueLength: q,"
                + " oldestAge: o, arrivalRate: r, meanService: s}}\n");
        return workloads;
    }
}
