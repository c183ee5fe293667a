package io.headroom.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.WorkloadsFile;
import io.headroom.journal.MemoryJournal;
import io.headroom.kube.Contexts;
import io.headroom.kube.KubeTimeouts;
import io.headroom.kube.MockCluster;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each endpoint of a console opened from a workloads file, in plain words (issue 11, "Errors in
 * plain words"), against real sockets: a closed loopback port fails at once with its reason; a
 * black hole (accepts, never answers) times out. Nothing sleeps: each state is waited for with a deadline.
 */
class EndpointsTest {
    @TempDir
    Path dir;
    Session session;
    ServerSocket blackHole;
    final List<Socket> held = new CopyOnWriteArrayList<>();

    @AfterEach
    void close() throws IOException {
        if (session != null) {
            session.close();
        }
        if (blackHole != null) {
            blackHole.close();
        }
        for (Socket s : held) {
            s.close();
        }
    }

    static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort(); // nothing listens there once closed
        }
    }

    /** Accepts every connection and never answers a byte. */
    int blackHole() throws IOException {
        blackHole = new ServerSocket(0);
        Thread t = new Thread(() -> {
            while (!blackHole.isClosed()) {
                try {
                    held.add(blackHole.accept());
                } catch (IOException e) {
                    return;
                }
            }
        }, "black-hole");
        t.setDaemon(true);
        t.start();
        return blackHole.getLocalPort();
    }

    Session open(String prometheus, String kubeServer) throws Exception {
        Path kubeconfig = MockCluster.kubeconfig(dir, "config.yaml", "prod", "t0ken", "prod", kubeServer, "work");
        Path workloads = dir.resolve("workloads.yaml");
        Files.writeString(workloads, """
                prometheus: {url: "%s", timeoutSeconds: 1}
                classes:
                  - {name: payments, context: prod, namespace: work, target: {kind: Deployment, name: worker},
                     signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s},
                     policy: {pollIntervalSeconds: 1}}
                """.formatted(prometheus));
        // A console's 10 s connection deadline and fabric8's 10 s request timeout, shortened: the black
        // hole is found out the same way, in a second instead of ten.
        session = Session.connect(WorkloadsFile.read(workloads),
                Contexts.load(List.of(kubeconfig)).timeouts(KubeTimeouts.all(Duration.ofSeconds(1))), new MemoryJournal());
        return session;
    }

    static void await(String what, Duration deadline, BooleanSupplier condition) {
        io.headroom.prometheus.it.Await.until(what, deadline, condition::getAsBoolean, ok -> ok);
    }

    Endpoints.Endpoint endpoint(String what) {
        return Endpoints.of(session).stream().filter(e -> e.what().equals(what)).findFirst().orElseThrow();
    }

    @Test
    void aClosedPortFailsWithItsReasonInWords() throws Exception {
        int closed = closedPort();
        open("http://127.0.0.1:" + closed, "http://127.0.0.1:" + closed);
        List<String> whats = new ArrayList<>();
        Endpoints.of(session).forEach(e -> whats.add(e.what()));
        assertEquals(List.of("Prometheus", "context prod"), whats, "every endpoint, Prometheus first");
        session.startAsync(Duration.ZERO);
        await("both failed", Duration.ofSeconds(30), () -> Endpoints.of(session).stream()
                .allMatch(e -> e.state() == Endpoints.State.FAILED));
        for (Endpoints.Endpoint e : Endpoints.of(session)) {
            assertTrue(e.line().contains("127.0.0.1:" + closed), e.line());
            assertFalse(e.reason().matches(".*\\b[a-z]+\\.[a-z]+\\.[A-Za-z]+Exception.*"), "no Java class names: " + e.reason());
            assertFalse(e.line().contains("t0ken"), "never a credential");
        }
        assertTrue(endpoint("context prod").reason().toLowerCase().contains("refused"), endpoint("context prod").reason());
    }

    @Test
    void aBlackHoleTimesOut() throws Exception {
        int port = blackHole();
        open("http://127.0.0.1:" + port, "http://127.0.0.1:" + port);
        assertEquals(Endpoints.State.CONNECTING, endpoint("context prod").state(), "no answer yet: connecting");
        session.startAsync(Duration.ZERO);
        await("Prometheus timed out", Duration.ofSeconds(30),
                () -> endpoint("Prometheus").state() == Endpoints.State.TIMED_OUT);
        await("the cluster timed out", Duration.ofSeconds(40),
                () -> endpoint("context prod").state() == Endpoints.State.TIMED_OUT
                        || endpoint("context prod").state() == Endpoints.State.FAILED);
        Endpoints.Endpoint kube = endpoint("context prod");
        assertTrue(kube.state() == Endpoints.State.TIMED_OUT || kube.reason().toLowerCase().contains("time"),
                "a black hole is a timeout, said as one: " + kube.line());
    }

    @Test
    void theSandboxHasNoEndpoints() {
        session = Session.sandbox(1, java.time.Instant.parse("2026-03-02T10:00:00Z"), Duration.ofMinutes(1),
                new MemoryJournal());
        assertTrue(Endpoints.of(session).isEmpty());
    }

    @Test
    void plainWordsDropJavaClassNames() {
        assertEquals("connection refused", Endpoints.plain("java.net.ConnectException: Connection refused"));
        assertEquals("no reason given", Endpoints.plain(null));
        // The Prometheus client names the exception without its package.
        assertEquals("connection refused (127.0.0.1:9)",
                Endpoints.plain("ConnectException: Failed to connect to /127.0.0.1:9"));
        assertEquals("Connection reset", Endpoints.plain("SocketException: Connection reset"));
    }
}
